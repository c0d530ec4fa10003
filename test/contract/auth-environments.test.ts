import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../drizzle/database.js";
import { getJson, graphql, openTestDatabase, startStack, type Stack } from "../support/stack.js";

/**
 * Sandbox and production share nothing a token can cross: each has its own signing keys and
 * `env` claim. Here both run on one database, the hardest case for that separation.
 */
describe("tokens are bound to the environment that issued them", () => {
  let database: Database;
  let sandbox: Stack;
  let production: Stack;

  beforeAll(async () => {
    database = await openTestDatabase();
    sandbox = await startStack({ database, env: { ENVIRONMENT: "sandbox" } });
    production = await startStack({ database, env: { ENVIRONMENT: "production" } });
  });
  afterAll(async () => {
    await sandbox?.close();
    await production?.close();
    await database?.close();
  });

  it("refuses a sandbox token in production and a production token in the sandbox", async () => {
    const { username, password } = await sandbox.createAccount("CONSUMER");
    const sandboxToken = (await sandbox.login(username, password)).access_token;
    const productionToken = (await production.login(username, password)).access_token;

    expect((await getJson(`${sandbox.url}/api/me`, sandboxToken)).body.environment).toBe("sandbox");
    expect((await getJson(`${production.url}/api/me`, productionToken)).body.environment).toBe("production");

    const crossRest = await getJson(`${production.url}/api/me`, sandboxToken);
    expect(crossRest.status).toBe(401);
    expect(crossRest.body.code).toBe("UNAUTHENTICATED");
    const crossGraph = await graphql(`${sandbox.url}/graphql`, productionToken, "{ me { username } }");
    expect(crossGraph.status).toBe(401);
    expect(crossGraph.body.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("refuses a sandbox refresh token at the production token endpoint", async () => {
    const { username, password } = await sandbox.createAccount("CONSUMER");
    const { refresh_token } = await sandbox.login(username, password);
    const response = await fetch(production.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "refresh_token", refresh_token }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("publishes different keys per environment", async () => {
    const sandboxKeys = (await getJson(`${sandbox.url}/auth/realms/activities/protocol/openid-connect/certs`)).body.keys.map((k: { kid: string }) => k.kid);
    const productionKeys = (await getJson(`${production.url}/auth/realms/activities/protocol/openid-connect/certs`)).body.keys.map((k: { kid: string }) => k.kid);
    expect(sandboxKeys.some((kid: string) => productionKeys.includes(kid))).toBe(false);
  });
});

describe("signing keys survive a restart", () => {
  it("accepts, after a restart, a token issued before it", async () => {
    const database = await openTestDatabase();
    const env = { PUBLIC_URL: "https://sandbox.activities.test" };
    const before = await startStack({ database, env });
    const { username, password } = await before.createAccount("CONSUMER");
    const token = (await before.login(username, password)).access_token;
    await before.close();

    const after = await startStack({ database, env });
    try {
      const response = await getJson(`${after.url}/api/me`, token);
      expect(response.status).toBe(200);
      expect(response.body.username).toBe(username);
    } finally {
      await after.close();
      await database.close();
    }
  });
});

describe("the realm comes from configuration", () => {
  it("serves the identity paths under AUTH_REALM", async () => {
    const database = await openTestDatabase();
    const stack = await startStack({ database, env: { AUTH_REALM: "partners" } });
    try {
      expect(stack.tokenUrl).toBe(`${stack.url}/auth/realms/partners/protocol/openid-connect/token`);
      const discovery = await getJson(`${stack.url}/auth/realms/partners/.well-known/openid-configuration`);
      expect(discovery.body.issuer).toBe(`${stack.url}/auth/realms/partners`);
      const { username, password } = await stack.createAccount("OPERATOR");
      const token = (await stack.login(username, password)).access_token;
      expect((await getJson(`${stack.url}/api/me`, token)).status).toBe(200);
      expect((await getJson(`${stack.url}/auth/realms/activities/.well-known/openid-configuration`)).status).toBe(404);
    } finally {
      await stack.close();
      await database.close();
    }
  });
});

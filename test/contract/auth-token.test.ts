import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { accounts, refreshTokens } from "../../drizzle/schema.js";
import { getJson, ManualClock, useStack } from "../support/stack.js";

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("token endpoint (spec 1, Authentication)", () => {
  // Today, on a whole second: sessions issued on a date already past would be removed as expired
  // by any other stack's worker sharing the database while this file walks its clock.
  const clock = new ManualClock(new Date(Math.floor(Date.now() / 1000) * 1000));
  const t = useStack({ clock });

  const post = async (body: URLSearchParams | string, contentType = "application/x-www-form-urlencoded") => {
    const response = await fetch(t.stack.tokenUrl, { method: "POST", headers: { "content-type": contentType }, body });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };
  const passwordGrant = (username: string, password: string) =>
    post(form({ client_id: "content-partner-api", grant_type: "password", username, password }));
  const refreshGrant = (refreshToken: string) =>
    post(form({ client_id: "content-partner-api", grant_type: "refresh_token", refresh_token: refreshToken }));
  const me = (token: string) => getJson(`${t.stack.url}/api/me`, token);

  it("grants a 300-second bearer token for good credentials, in the OAuth 2.0 shape", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const response = await passwordGrant(username, password);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.body).toMatchObject({ token_type: "Bearer", expires_in: 300, refresh_expires_in: 1800 });
    expect(response.body.access_token).toEqual(expect.any(String));
    expect(response.body.refresh_token).toEqual(expect.any(String));
    const header = decodeProtectedHeader(response.body.access_token);
    expect(header.alg).toBe("ES256");
    const claims = decodeJwt(response.body.access_token);
    expect(claims).toMatchObject({
      iss: `${t.stack.url}/auth/realms/activities`,
      aud: "activities-api",
      azp: "content-partner-api",
      preferred_username: username,
      env: "sandbox",
      realm_access: { roles: ["CONSUMER"] },
    });
    expect(claims.exp! - claims.iat!).toBe(300);
    const whoAmI = await me(response.body.access_token);
    expect(whoAmI.status).toBe(200);
    expect(whoAmI.body.username).toBe(username);
  });

  it("stores passwords with argon2id, never in clear", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.username, username));
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.passwordHash).not.toContain(password);
  });

  it("refuses a wrong password and an unknown user alike with invalid_grant", async () => {
    const { username } = await t.stack.createAccount("CONSUMER");
    for (const attempt of [await passwordGrant(username, "wrong-password-123"), await passwordGrant("nobody-at-all", "whatever-password")]) {
      expect(attempt.status).toBe(400);
      expect(attempt.body).toEqual({ error: "invalid_grant", error_description: "Invalid user credentials" });
    }
  });

  it("refuses an unknown or missing client with invalid_client (401)", async () => {
    const unknown = await post(form({ client_id: "someone-else", grant_type: "password", username: "a", password: "b" }));
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    const missing = await post(form({ grant_type: "password", username: "a", password: "b" }));
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe("invalid_client");
  });

  describe("client authentication in Authorization: Basic (RFC 6749 section 2.3.1)", () => {
    const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString("base64")}`;
    const postWith = async (authorization: string, fields: Record<string, string>) => {
      const response = await fetch(t.stack.tokenUrl, { method: "POST", headers: { authorization }, body: form(fields) });
      return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
    };

    it("grants a token to the public client with its empty password, form-encoded as the RFC says, for either grant", async () => {
      const { username, password } = await t.stack.createAccount("CONSUMER");
      const signedIn = await postWith(basic("content-partner-api:"), { grant_type: "password", username, password });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.token_type).toBe("Bearer");
      expect((await me(signedIn.body.access_token)).body.username).toBe(username);
      // Each part is form-encoded before base64 (Appendix B): %2D is "-".
      const encoded = await postWith(basic("content%2Dpartner%2Dapi:"), { grant_type: "refresh_token", refresh_token: signedIn.body.refresh_token });
      expect(encoded.status).toBe(200);
      // Named in the form too, as the same client: one client, identified twice.
      const both = await postWith(basic("content-partner-api:"), { client_id: "content-partner-api", grant_type: "password", username, password });
      expect(both.status).toBe(200);
      // Another scheme is no client authentication: the form's client_id decides, as before.
      const bearer = await postWith(`Bearer ${signedIn.body.access_token}`, { client_id: "content-partner-api", grant_type: "password", username, password });
      expect(bearer.status).toBe(200);
    });

    it("refuses another client, a password, or credentials that are not id:password in base64, with 401 and a Basic challenge", async () => {
      for (const authorization of [
        basic("someone-else:"),
        basic("content-partner-api:a-secret"),
        basic("content-partner-api"),
        basic("content-partner-api%:"),
        "Basic not*base64",
        "Basic",
      ]) {
        const refused = await postWith(authorization, { grant_type: "password", username: "a", password: "b" });
        expect(refused.status, authorization).toBe(401);
        expect(refused.body.error, authorization).toBe("invalid_client");
        expect(refused.headers.get("www-authenticate"), authorization).toBe('Basic realm="content-partner-api"');
      }
    });

    it("refuses two different clients, or a client_secret beside the header, as a malformed request", async () => {
      const { username, password } = await t.stack.createAccount("CONSUMER");
      const other = await postWith(basic("content-partner-api:"), { client_id: "someone-else", grant_type: "password", username, password });
      expect(other).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "client_id in the body differs from the client in the Authorization header" } });
      const twice = await postWith(basic("content-partner-api:"), { client_id: "content-partner-api", client_secret: "also-here", grant_type: "password", username, password });
      expect(twice).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    });
  });

  it("refuses other grant types, a missing grant type and missing fields", async () => {
    const wrongGrant = await post(form({ client_id: "content-partner-api", grant_type: "client_credentials" }));
    expect(wrongGrant.status).toBe(400);
    expect(wrongGrant.body.error).toBe("unsupported_grant_type");
    const noGrant = await post(form({ client_id: "content-partner-api" }));
    expect(noGrant.status).toBe(400);
    expect(noGrant.body.error).toBe("invalid_request");
    const noPassword = await post(form({ client_id: "content-partner-api", grant_type: "password", username: "x" }));
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error).toBe("invalid_request");
    const noRefresh = await post(form({ client_id: "content-partner-api", grant_type: "refresh_token" }));
    expect(noRefresh.status).toBe(400);
    expect(noRefresh.body.error).toBe("invalid_request");
  });

  it("insists on a form-encoded body", async () => {
    const json = await post(JSON.stringify({ client_id: "content-partner-api", grant_type: "password" }), "application/json");
    expect(json.status).toBe(400);
    expect(json.body.error).toBe("invalid_request");
    // Bodies the parser refuses before the endpoint runs keep the OAuth shape too (found by the input fuzz).
    for (const [body, contentType] of [
      ["{", "application/json"],
      ["grant_type=password", "multipart/form-data; boundary=x"],
      ["<grant/>", "application/xml"],
    ]) {
      const refused = await post(body, contentType);
      expect(refused, contentType).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "The token request body must be application/x-www-form-urlencoded" } });
      expect(Object.keys(refused.body).sort()).toEqual(["error", "error_description"]);
    }
    const tooLarge = await post(`password=${"x".repeat(1_100_000)}`);
    expect(tooLarge).toMatchObject({ status: 413, body: { error: "invalid_request" } });
  });

  it("refuses a disabled account", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const before = await passwordGrant(username, password);
    await t.stack.service.identity.accounts.disableAccount(username);
    const after = await passwordGrant(username, password);
    expect(after.status).toBe(400);
    expect(after.body).toEqual({ error: "invalid_grant", error_description: "Account disabled" });
    const refresh = await refreshGrant(before.body.refresh_token);
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("stops accepting a revoked account's or session's tokens in the revoking process the moment the change commits, not when its notification returns", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const granted = (await passwordGrant(username, password)).body;
    const claims = decodeJwt(granted.access_token) as { sid: string; sub: string };
    const revocations = t.stack.service.identity.revocations;
    await t.stack.service.identity.accounts.disableAccount(username);
    // Asked with no await in between: the LISTEN notification cannot have arrived yet.
    expect(revocations.reasonAgainst({ sessionId: claims.sid, accountId: claims.sub })).toBe("account disabled");

    const other = await t.stack.createAccount("CONSUMER");
    const first = (await passwordGrant(other.username, other.password)).body;
    const session = decodeJwt(first.access_token) as { sid: string; sub: string };
    expect((await refreshGrant(first.refresh_token)).status).toBe(200);
    const replayed = await t.stack.service.identity.tokens.refreshGrant(first.refresh_token).catch((error: unknown) => error);
    expect(replayed).toMatchObject({ error: "invalid_grant" });
    expect(revocations.reasonAgainst({ sessionId: session.sid, accountId: session.sub })).toBe("session revoked");
  });

  it("lets an access token expire after 300 seconds", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const { body } = await passwordGrant(username, password);
    clock.advance(299);
    expect((await me(body.access_token)).status).toBe(200);
    clock.advance(2);
    const expired = await me(body.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ status: 401, code: "UNAUTHENTICATED", message: expect.stringContaining("expired") });
    expect(expired.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("extends by 300 seconds per refresh, never beyond 30 minutes after the password grant", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const first = await passwordGrant(username, password);
    let refreshToken = first.body.refresh_token;
    // Five refreshes, each just before the access token runs out: 25 minutes in.
    for (let i = 1; i <= 5; i++) {
      clock.advance(299);
      const refreshed = await refreshGrant(refreshToken);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.expires_in).toBe(300);
      expect(refreshed.body.refresh_token).not.toBe(refreshToken);
      expect(refreshed.body.refresh_expires_in).toBe(1800 - 299 * i);
      refreshToken = refreshed.body.refresh_token;
      expect((await me(refreshed.body.access_token)).status).toBe(200);
    }
    // 25:05 in: this refresh is cut to the 30-minute cap, 5 seconds short of the usual 300.
    clock.advance(10);
    const capped = await refreshGrant(refreshToken);
    expect(capped.status).toBe(200);
    expect(capped.body.expires_in).toBe(295);
    const claims = decodeJwt(capped.body.access_token);
    expect(claims.exp).toBe((claims.auth_time as number) + 1800);
    // At 30 minutes the session is over: no more refreshes, and the last token is dead.
    clock.advance(295);
    const over = await refreshGrant(capped.body.refresh_token);
    expect(over.status).toBe(400);
    expect(over.body.error).toBe("invalid_grant");
    expect(over.body.error_description).toMatch(/30 minutes/);
    expect((await me(capped.body.access_token)).status).toBe(401);
  });

  it("rotates refresh tokens: a reused one is refused and ends the session", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const first = await passwordGrant(username, password);
    const second = await refreshGrant(first.body.refresh_token);
    expect(second.status).toBe(200);
    const reuse = await refreshGrant(first.body.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already been used/) });
    // The legitimate successor dies with the session, so a stolen chain cannot continue.
    const successor = await refreshGrant(second.body.refresh_token);
    expect(successor.status).toBe(400);
    expect(successor.body.error_description).toMatch(/revoked/);
  });

  it("lets only one of two concurrent refreshes with the same token succeed", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const first = await passwordGrant(username, password);
    const results = await Promise.all([refreshGrant(first.body.refresh_token), refreshGrant(first.body.refresh_token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const rows = await t.database.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, decodeJwt(first.body.access_token).sid as string));
    expect(rows.filter((r) => !r.usedAt && !r.revoked)).toHaveLength(0);
  });

  it("refuses an unknown refresh token", async () => {
    const response = await refreshGrant("not-a-token-we-issued");
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("invalid_grant");
  });

  describe("forged tokens", () => {
    let good: string;
    beforeAll(async () => {
      const { username, password } = await t.stack.createAccount("CONSUMER");
      good = (await passwordGrant(username, password)).body.access_token;
    });
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

    it("refuses a tampered signature", async () => {
      const [h, p, s] = good.split(".");
      const flipped = s.slice(0, -2) + (s.endsWith("AA") ? "BB" : "AA");
      const response = await me(`${h}.${p}.${flipped}`);
      expect(response.status).toBe(401);
    });

    it("refuses a tampered payload (roles raised) under the original signature", async () => {
      const [h, p, s] = good.split(".");
      const claims = JSON.parse(Buffer.from(p, "base64url").toString());
      claims.realm_access.roles = ["OPERATOR"];
      expect((await me(`${h}.${b64(claims)}.${s}`)).status).toBe(401);
    });

    it("refuses alg:none", async () => {
      const [h, p] = good.split(".");
      const unsignedHeader = { ...JSON.parse(Buffer.from(h, "base64url").toString()), alg: "none" };
      const response = await me(`${b64(unsignedHeader)}.${p}.`);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("UNAUTHENTICATED");
    });

    it("refuses an HMAC token keyed with the published public key", async () => {
      const jwks = (await getJson(`${t.stack.url}/auth/realms/activities/protocol/openid-connect/certs`)).body;
      const claims = decodeJwt(good);
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", kid: jwks.keys[0].kid, typ: "at+jwt" })
        .sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])));
      expect((await me(forged)).status).toBe(401);
    });

    it("refuses a token signed by a key the service does not hold", async () => {
      const { generateKeyPair } = await import("jose");
      const { privateKey } = await generateKeyPair("ES256");
      const forged = await new SignJWT(decodeJwt(good))
        .setProtectedHeader({ alg: "ES256", kid: decodeProtectedHeader(good).kid!, typ: "at+jwt" })
        .sign(privateKey);
      expect((await me(forged)).status).toBe(401);
    });
  });

  it("publishes its signing keys and a discovery document without a token", async () => {
    const discovery = await getJson(`${t.stack.url}/auth/realms/activities/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(discovery.body).toMatchObject({
      issuer: `${t.stack.url}/auth/realms/activities`,
      token_endpoint: `${t.stack.url}/auth/realms/activities/protocol/openid-connect/token`,
      jwks_uri: `${t.stack.url}/auth/realms/activities/protocol/openid-connect/certs`,
      grant_types_supported: ["password", "refresh_token"],
    });
    const jwks = await getJson(discovery.body.jwks_uri);
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys.length).toBeGreaterThan(0);
    for (const key of jwks.body.keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
      expect(key.d).toBeUndefined();
    }
  });
});

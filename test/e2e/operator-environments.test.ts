import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOperatorCommand } from "../../server/operator-cli.js";
import { openOwnTestDatabase, startStack, type Stack } from "../support/stack.js";

/**
 * The operator CLI makes and finds accounts of the environment ENVIRONMENT names, as the service
 * does: on one database shared by a sandbox and a production service, each command reaches its
 * own environment's accounts only.
 *
 * It runs with the PostgreSQL run only (vitest.config.ts): two services sharing a database is a
 * deployment on PostgreSQL, where the embedded database serves one process at a time. The CLI on
 * an embedded folder is held by test/e2e/password-setup.test.ts.
 */
describe("operator CLI on a database shared by both environments", { timeout: 120_000 }, () => {
  /** A database of this file's own, which the CLI opens by its URL. */
  let own: Awaited<ReturnType<typeof openOwnTestDatabase>>;
  const publicUrl = { sandbox: "https://sandbox.activities.test", production: "https://api.activities.test" };
  const cli = async (environment: "sandbox" | "production", ...argv: string[]) => run({ ENVIRONMENT: environment, PUBLIC_URL: publicUrl[environment] }, argv);
  /** As an operator who does not know, or forgot, the service's address. */
  const cliWithoutAddress = async (environment: "sandbox" | "production", ...argv: string[]) => run({ ENVIRONMENT: environment }, argv);
  const run = async (settings: Record<string, string>, argv: string[]) => {
    const env = { ...process.env, ...settings, LOG_LEVEL: "silent", DATABASE_URL: own.url };
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOperatorCommand(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  /** Both services on the database, for as long as `use` runs. */
  const withServices = async (use: (services: { sandbox: Stack; production: Stack }) => Promise<void>) => {
    const sandbox = await startStack({ database: own.database, env: { ENVIRONMENT: "sandbox" } });
    const production = await startStack({ database: own.database, env: { ENVIRONMENT: "production" } });
    try {
      await use({ sandbox, production });
    } finally {
      await sandbox.close();
      await production.close();
    }
  };
  const signIn = async (stack: Stack, username: string, password: string) => {
    const response = await fetch(stack.tokenUrl, { method: "POST", body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }) });
    return { status: response.status, error: response.status === 200 ? undefined : ((await response.json()) as { error_description: string }).error_description };
  };

  const suffix = randomUUID().slice(0, 8);
  const both = `partner-${suffix}`;
  const invited = `invited-${suffix}`;
  const misplaced = `misplaced-${suffix}`;
  const organisation = `Shared Org ${suffix}`;
  let link: URL;

  beforeAll(async () => {
    own = await openOwnTestDatabase();
  });
  afterAll(async () => {
    await own?.database.close();
    await own?.drop();
  });

  it("creates each account in the CLI's environment, a username once per environment", async () => {
    const inSandbox = await cli("sandbox", "create-account", "--username", both, "--role", "CONTENT_PARTNER", "--organisation", organisation, "--country", "NL", "--model", "agent", "--password", "the sandbox password");
    expect(inSandbox).toMatchObject({ code: 0, err: "" });
    expect(inSandbox.out).toBe(`Created sandbox account ${both} (CONTENT_PARTNER) in ${organisation}.`);
    // The same name in production is another account, of the same organisation.
    const inProduction = await cli("production", "create-account", "--username", both, "--role", "CONTENT_PARTNER", "--organisation", organisation, "--password", "the production password");
    expect(inProduction).toMatchObject({ code: 0, err: "" });
    expect(inProduction.out).toBe(`Created production account ${both} (CONTENT_PARTNER) in ${organisation}.`);
    expect(await cli("sandbox", "create-account", "--username", both.toUpperCase(), "--role", "OPERATOR")).toMatchObject({ code: 1, err: `the sandbox environment already has an account named ${both.toUpperCase()}` });

    const withLink = await cli("production", "create-account", "--username", invited, "--role", "OPERATOR");
    expect(withLink.code).toBe(0);
    link = new URL(withLink.out.match(/https:\/\/\S+/)![0]);
    expect(link.origin).toBe(publicUrl.production);
    expect((await cli("sandbox", "create-account", "--username", misplaced, "--role", "OPERATOR", "--password", "placed in the sandbox")).code).toBe(0);
  });

  it("finds only the accounts of its environment", async () => {
    const listed = async (environment: "sandbox" | "production") => {
      const result = await cli(environment, "list-accounts", "--json");
      expect(result.code).toBe(0);
      return (JSON.parse(result.out) as { username: string; environment: string }[]).filter((item) => item.username.endsWith(suffix));
    };
    expect((await listed("sandbox")).map(({ username, environment }) => [username, environment]).sort()).toEqual([
      [misplaced, "sandbox"],
      [both, "sandbox"],
    ].sort());
    expect((await listed("production")).map(({ username, environment }) => [username, environment]).sort()).toEqual([
      [invited, "production"],
      [both, "production"],
    ].sort());
    expect(await cli("production", "password-link", "--username", misplaced)).toMatchObject({ code: 1, out: "", err: `the production environment has no account named ${misplaced}` });
    expect(await cli("sandbox", "disable-account", "--username", invited)).toMatchObject({ code: 1, out: "", err: `the sandbox environment has no account named ${invited}` });
  });

  it("made accounts that sign in, and set passwords, in their own environment only", async () => {
    await withServices(async ({ sandbox, production }) => {
      expect(await signIn(sandbox, both, "the sandbox password")).toEqual({ status: 200 });
      expect(await signIn(production, both, "the production password")).toEqual({ status: 200 });
      expect(await signIn(production, both, "the sandbox password")).toEqual({ status: 400, error: "Invalid user credentials" });
      expect(await signIn(sandbox, both, "the production password")).toEqual({ status: 400, error: "Invalid user credentials" });
      expect(await signIn(production, misplaced, "placed in the sandbox")).toEqual({ status: 400, error: "Invalid user credentials" });

      expect((await fetch(`${sandbox.url}${link.pathname}${link.search}`)).status).toBe(404);
      const set = await fetch(`${production.url}${link.pathname}`, { method: "POST", body: new URLSearchParams({ token: link.searchParams.get("token")!, password: "chosen by the invited", confirmation: "chosen by the invited" }) });
      expect(set.status).toBe(200);
      expect(await signIn(production, invited, "chosen by the invited")).toEqual({ status: 200 });
    });
  });

  it("disables the account of its environment, and moves the other environment's account into it", async () => {
    expect(await cli("production", "disable-account", "--username", both)).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^The production account ${both} is disabled \\(since `)) });
    expect(await cli("production", "move-account", "--username", misplaced)).toMatchObject({ code: 0, out: `${misplaced} is now a production account; its sessions in the other environment have ended.` });
    expect(await cli("production", "move-account", "--username", misplaced)).toMatchObject({ code: 1, err: `the sandbox environment has no account named ${misplaced}` });
    expect(await cli("production", "move-account")).toMatchObject({ code: 2, err: "--username is required for move-account" });

    await withServices(async ({ sandbox, production }) => {
      expect(await signIn(production, both, "the production password")).toEqual({ status: 400, error: "Account disabled" });
      expect(await signIn(sandbox, both, "the sandbox password")).toEqual({ status: 200 });
      expect(await signIn(production, misplaced, "placed in the sandbox")).toEqual({ status: 200 });
      expect(await signIn(sandbox, misplaced, "placed in the sandbox")).toEqual({ status: 400, error: "Invalid user credentials" });
    });
  });

  it("links to the address its environment's service started with when run without PUBLIC_URL, and never to localhost in production", async () => {
    const late = `late-${suffix}`;
    // No production service has started with a PUBLIC_URL yet: a link would reach nobody.
    const refused = await cliWithoutAddress("production", "create-account", "--username", late, "--role", "OPERATOR");
    expect(refused).toMatchObject({ code: 2, out: "", err: expect.stringMatching(/^PUBLIC_URL is not set, and no production service has started with one on this database: .* Nothing was changed\.$/) });
    expect(JSON.parse((await cli("production", "list-accounts", "--json")).out).map((item: { username: string }) => item.username)).not.toContain(late);
    // An account with a password prints no link, so it needs no address.
    expect((await cliWithoutAddress("production", "create-account", "--username", `pw-${suffix}`, "--role", "OPERATOR", "--password", "chosen by the operator")).code).toBe(0);

    const inSandbox = await cliWithoutAddress("sandbox", "create-account", "--username", late, "--role", "OPERATOR");
    expect(inSandbox.code).toBe(0);
    expect(inSandbox.out).toContain("No PUBLIC_URL is known for the sandbox: links assume the service at http://localhost:4000; set PUBLIC_URL for another.");
    expect(new URL(inSandbox.out.match(/http:\/\/localhost:4000\/\S+/)![0]).origin).toBe("http://localhost:4000");

    // A production service starts with its address: the CLI links there from then on, and says so.
    const production = await startStack({ database: own.database, env: { ENVIRONMENT: "production", PUBLIC_URL: publicUrl.production } });
    await production.close();
    const created = await cliWithoutAddress("production", "create-account", "--username", late, "--role", "OPERATOR");
    expect(created.code).toBe(0);
    expect(created.out).toMatch(new RegExp(`^Links use ${publicUrl.production}, the PUBLIC_URL the production service last started with \\(`));
    expect(new URL(created.out.match(/https:\/\/\S+token=\S+/)![0]).origin).toBe(publicUrl.production);
    const again = await cliWithoutAddress("production", "password-link", "--username", late);
    expect(new URL(again.out.match(/https:\/\/\S+token=\S+/)![0]).origin).toBe(publicUrl.production);
    // Each environment its own: the sandbox still knows none.
    expect((await cliWithoutAddress("sandbox", "password-link", "--username", late)).out).toContain("links assume the service at http://localhost:4000");
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOperatorCommand } from "../../server/operator-cli.js";
import { openDatabase, type Database } from "../../drizzle/database.js";
import { startStack, type Stack } from "../support/stack.js";

/**
 * The operator CLI against the service's own database, then the user's side: the one-time link
 * to a page that sets the password, used once and refused after.
 */
// Every CLI call opens the embedded database anew: seconds each on a loaded machine.
describe("operator CLI and the password-setup link", { timeout: 90_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "activities-cli-"));
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", PUBLIC_URL: "https://sandbox.activities.test" };
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOperatorCommand(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };
  const username = `cli-user-${Date.now().toString(36)}`;
  let link: URL;
  let database: Database;
  let stack: Stack;

  afterAll(async () => {
    await stack?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe("the CLI", () => {
    it("creates an account without a password and prints a one-time, expiring link", async () => {
      const result = await run("create-account", "--username", username, "--role", "CONTENT_PARTNER", "--organisation", `CLI Org ${username}`, "--country", "it", "--model", "reseller", "--booking-engine", "CLI_ENGINE");
      expect(result.err).toBe("");
      expect(result.code).toBe(0);
      expect(result.out).toContain(`Created sandbox account ${username} (CONTENT_PARTNER) in CLI Org ${username}.`);
      const url = result.out.match(/https:\/\/\S+/)?.[0];
      expect(url).toMatch(/^https:\/\/sandbox\.activities\.test\/auth\/realms\/activities\/password-setup\?token=[A-Za-z0-9_-]{43}$/);
      link = new URL(url!);
      expect(result.out).toMatch(/valid until \d{4}-\d\d-\d\dT/);
    });

    it.each([
      [["create-account", "--role", "CONSUMER"], /--username is required/],
      [["create-account", "--username", "x-user", "--role", "CHEF"], /--role must be one of/],
      [["create-account", "--username", "x-user", "--role", "CONSUMER"], /--organisation is required/],
      [["create-account", "--username", "x-user", "--role", "CONSUMER", "--organisation", "New Org X", "--model", "agent"], /--country and --model are required/],
      [["create-account", "--username", "x-user", "--role", "CONSUMER", "--organisation", "New Org Y", "--country", "XX", "--model", "agent"], /ISO 3166-1/],
      [["create-account", "--username", "x-user", "--role", "CONSUMER", "--organisation", "New Org Z", "--country", "FR", "--model", "broker"], /--model must be agent or reseller/],
      [["create-account", "--username", "x-user", "--role", "OPERATOR", "--password", "short"], /at least 12/],
      [["create-account", "--username", "x-user", "--role", "OPERATOR", "--bogus"], /Unknown option/],
      [["make-coffee"], /Unknown command/],
    ])("refuses %j with a message naming the problem", async (argv, message) => {
      const result = await run(...argv);
      expect(result.code).not.toBe(0);
      expect(result.err).toMatch(message);
    });

    it("answers a missing option before it opens the database, and a database it cannot open in one line", async () => {
      // Nothing listens on port 1: a command that got as far as the database would fail there.
      const unreachable = { ...env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/nothing" };
      const cases: [string[], string[]][] = [
        [["create-account"], ["--username is required for create-account", "--role is required for create-account"]],
        [["disable-account"], ["--username is required for disable-account"]],
        [["password-link", "--username", ""], ["--username is required for password-link"]],
        [["set-tracking", "--enabled", "true"], ["--organisation is required for set-tracking"]],
        [["set-tracking", "--organisation", "Some Org", "--enabled", "yes"], ["--enabled must be true or false"]],
        [["register-octo-engine", "--name", "X"], ["--base-url is required for register-octo-engine", "--country is required for register-octo-engine"]],
      ];
      for (const [argv, messages] of cases) {
        const err: string[] = [];
        const code = await runOperatorCommand(argv, unreachable, { out: () => {}, err: (line) => err.push(line) });
        expect({ argv, code, err }).toEqual({ argv, code: 2, err: messages });
      }
      // A command that is right, against that database: the cause in one line, no stack trace.
      const err: string[] = [];
      expect(await runOperatorCommand(["list-accounts"], unreachable, { out: () => {}, err: (line) => err.push(line) })).toBe(1);
      expect(err).toEqual([expect.stringMatching(/^Cannot open the database: .*ECONNREFUSED/)]);
      // An embedded database's folder it cannot make, named by its setting: nothing spins, nothing is thrown.
      const embedded: NodeJS.ProcessEnv = { ...env, DATA_DIR: "/proc/activities-cli" };
      delete embedded.DATABASE_URL;
      const folderErr: string[] = [];
      expect(await runOperatorCommand(["list-accounts"], embedded, { out: () => {}, err: (line) => folderErr.push(line) })).toBe(1);
      expect(folderErr).toEqual(['Cannot open the database: DATA_DIR="/proc/activities-cli": /proc/activities-cli cannot be created (/proc takes no new folders, ENOENT)']);
    });

    it("refuses a second account with the same name, whatever its case", async () => {
      const result = await run("create-account", "--username", username.toUpperCase(), "--role", "OPERATOR");
      expect(result.code).toBe(1);
      expect(result.err).toBe(`the sandbox environment already has an account named ${username.toUpperCase()}`);
    });

    it("lists accounts with their state", async () => {
      const result = await run("list-accounts", "--json");
      expect(result.code).toBe(0);
      const items = JSON.parse(result.out) as { username: string; state: string; country: string | null }[];
      expect(items.find((i) => i.username === username)).toMatchObject({ environment: "sandbox", state: "awaiting password", country: "IT" });
    });
  });

  describe("the page behind the link", () => {
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
      stack = await startStack({ database, env: { PUBLIC_URL: "https://sandbox.activities.test" } });
    });
    const pageUrl = () => `${stack.url}${link.pathname}${link.search}`;
    const submit = (fields: Record<string, string>) =>
      fetch(`${stack.url}${link.pathname}`, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
    const token = () => link.searchParams.get("token")!;
    const newPassword = "correct horse battery staple";

    it("shows a form for a valid link, without spending it", async () => {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(pageUrl());
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toMatch(/text\/html/);
        expect(response.headers.get("cache-control")).toBe("no-store");
        const html = await response.text();
        expect(html).toContain(username);
        expect(html).toContain('type="password"');
      }
    });

    it("keeps the link usable when the password is refused", async () => {
      const mismatch = await submit({ token: token(), password: newPassword, confirmation: "something else entirely" });
      expect(mismatch.status).toBe(400);
      expect(await mismatch.text()).toContain("The two passwords differ.");
      const short = await submit({ token: token(), password: "short", confirmation: "short" });
      expect(short.status).toBe(400);
      expect(await short.text()).toContain("at least 12 characters");
    });

    it("sets the password once; the account can then sign in", async () => {
      const response = await submit({ token: token(), password: newPassword, confirmation: newPassword });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("Password set");
      const tokens = await stack.login(username, newPassword);
      expect(tokens.access_token).toEqual(expect.any(String));
    });

    it("refuses the link the second and third time", async () => {
      const again = await submit({ token: token(), password: "another password 123", confirmation: "another password 123" });
      expect(again.status).toBe(410);
      expect(await again.text()).toContain("already been used");
      const view = await fetch(pageUrl());
      expect(view.status).toBe(410);
      // The first password still holds.
      await expect(stack.login(username, "another password 123")).rejects.toThrow(/400/);
      expect((await stack.login(username, newPassword)).access_token).toBeTruthy();
    });

    it("refuses a link that never existed", async () => {
      const response = await fetch(`${stack.url}${link.pathname}?token=made-up-token`);
      expect(response.status).toBe(404);
    });

    it("refuses an expired link", async () => {
      const other = `cli-expiring-${Date.now().toString(36)}`;
      const { passwordSetupUrl } = await stack.service.identity.accounts.createAccount({ username: other, role: "OPERATOR" });
      const expiring = new URL(passwordSetupUrl!);
      const { passwordSetupTokens } = await import("../../drizzle/schema.js");
      const { secretHash } = await import("../../identity/tokens.js");
      const { eq } = await import("drizzle-orm");
      await database.db
        .update(passwordSetupTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(passwordSetupTokens.tokenHash, secretHash(expiring.searchParams.get("token")!)));
      const response = await fetch(`${stack.url}${expiring.pathname}${expiring.search}`);
      expect(response.status).toBe(410);
      expect(await response.text()).toContain("expired");
    });
  });

  describe("disabling", () => {
    it("stops the account from signing in", async () => {
      await stack.close();
      await database.close();
      const result = await run("disable-account", "--username", username);
      expect(result.code).toBe(0);
      expect(result.out).toContain(`The sandbox account ${username} is disabled`);
      database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
      stack = await startStack({ database, env: { PUBLIC_URL: "https://sandbox.activities.test" } });
      await expect(stack.login(username, "correct horse battery staple")).rejects.toThrow(/Account disabled/);
    });
  });
});

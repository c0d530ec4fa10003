import { toGlobalId } from "../../core/global-id.js";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionsPerProcess, readConnectionLimit } from "../../drizzle/connection-budget.js";
import { migrationsFolder, openDatabase, rows } from "../../drizzle/database.js";
import { sql } from "drizzle-orm";
import { builtServiceCommand } from "../support/built-service.js";
import { freePort, login, npmStartCommand, ready, startProcess, stopAndWait, until, type Running } from "../support/child-process.js";
import { validAnswers } from "../support/booking.js";
import { openOwnTestDatabase } from "../support/stack.js";

/**
 * The real entry point in child processes: `npm start` for the first start below; the compiled
 * build (the same code, loaded without the TypeScript loader: seconds of CPU less a start) for the
 * many starts and stops after it.
 */
let built: { file: string; args: string[] };
beforeAll(async () => {
  built = await builtServiceCommand();
}, 180_000);
const start = (env: Record<string, string>, args: string[] = [], user?: { uid: number; gid: number }) => startProcess(env, args, built, user);
const npmStart = (env: Record<string, string>) => startProcess(env, [], npmStartCommand);

// The child runs on the embedded database whatever DATABASE_URL says, so the PostgreSQL run of
// the suite would repeat it unchanged; it runs with the embedded run only.
if (!process.env.DATABASE_URL) describe("the service's start: one process on the embedded database", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "activities-start-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("seeds demo accounts on first start, prints URLs and credentials, stops on SIGTERM, and keeps tokens valid across a restart", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // The stop is judged by its exit code, not its speed: a busy machine gets time to answer in flight.
    const env = { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, SHUTDOWN_GRACE_SECONDS: "120" };
    const first = npmStart(env);
    await ready(base);
    const printed = await until("credentials printed", async () => (first.output().includes("demo-reseller") ? first.output() : undefined));
    expect(printed).toContain(`GraphQL (HTTP and graphql-ws): ${base}/graphql (a browser gets the GraphiQL IDE there)`);
    expect(printed).toContain(`Console (Swagger UI):          ${base}/api/content-partner/swagger-ui/index.html`);
    expect(printed).toContain(`Token endpoint:                ${base}/auth/realms/activities/protocol/openid-connect/token`);
    const roles = ["PLATFORM_CATALOG_MANAGEMENT", "OPERATOR", "CONTENT_PARTNER", "CONSUMER"];
    for (const role of roles) expect(printed).toMatch(new RegExp(`${role}\\s+demo-\\S+\\s+sandbox-\\S+`));

    const [, username, password] = printed.match(/CONTENT_PARTNER\s+(demo-\S+)\s+(sandbox-\S+)/)!;
    const token = await login(base, username, password);
    const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ username: "demo-partner", organisation: { bookingEngine: "ACTIVITIES_INVENTORY" } });
    expect((await fetch(`${base}/api/content-partner/swagger-ui/index.html`)).status).toBe(200);
    expect(printed).toMatch(/Demo catalogue created: 8 suppliers, 252 products/);
    const demoSuppliers = (await (await fetch(`${base}/api/suppliers?bookingEngineName=ACTIVITIES_INVENTORY`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { id: number }[] };
    expect(demoSuppliers).toMatchObject({ totalResults: 8, pageNumber: 1 });
    const firstProducts = (await (await fetch(`${base}/api/supplier/${demoSuppliers.items[0].id}/products/`, { headers: { authorization: `Bearer ${token}` } })).json()) as unknown[];
    expect(firstProducts.length).toBeGreaterThan(20);

    // The one place the two commercial models differ: an agent sees the commission, a reseller the net price.
    const importAs = async (role: "agent" | "reseller") => {
      const [, user, secret] = printed.match(role === "agent" ? /CONSUMER\s+(demo-consumer)\s+(sandbox-\S+)/ : /CONSUMER\s+(demo-reseller)\s+(sandbox-\S+)/)!;
      const consumerToken = await login(base, user, secret);
      const page = await fetch(`${base}/content/v0/import/activities/active?page%5Blimit%5D=300`, { headers: { authorization: `Bearer ${consumerToken}` } });
      expect(page.status).toBe(200);
      return ((await page.json()) as { data: { retailPrice?: number; estimatedCommissionRate?: number; estimatedNetPrice?: number }[] }).data;
    };
    const agentView = (await importAs("agent")).filter((a) => a.retailPrice !== undefined);
    expect(agentView.length).toBeGreaterThan(50);
    expect(agentView.every((a) => a.estimatedCommissionRate! >= 0.15 && a.estimatedCommissionRate! <= 0.3 && a.estimatedNetPrice === undefined)).toBe(true);
    const resellerView = (await importAs("reseller")).filter((a) => a.retailPrice !== undefined);
    expect(resellerView.length).toBe(agentView.length);
    expect(resellerView.every((a) => a.estimatedCommissionRate === undefined && a.estimatedNetPrice! > 0 && a.estimatedNetPrice! < a.retailPrice!)).toBe(true);

    // The second engine: the local OCTO supplier, registered and imported by the demo.
    expect(printed).toMatch(/Demo OCTO supplier: +http:\/\/127\.0\.0\.1:\d+ \(the local OCTO supplier\), registered as booking engine PARIS_DISCOVERY_OCTO: 3 products imported/);
    const [, platformUser, platformSecret] = printed.match(/PLATFORM_CATALOG_MANAGEMENT\s+(demo-\S+)\s+(sandbox-\S+)/)!;
    const platformToken = await login(base, platformUser, platformSecret);
    const octoSuppliers = (await (await fetch(`${base}/api/suppliers?bookingEngineName=PARIS_DISCOVERY_OCTO`, { headers: { authorization: `Bearer ${platformToken}` } })).json()) as { totalResults: number; items: { id: number }[] };
    expect(octoSuppliers.totalResults).toBe(1);
    const octoProducts = (await (await fetch(`${base}/api/supplier/${octoSuppliers.items[0].id}/products/`, { headers: { authorization: `Bearer ${platformToken}` } })).json()) as { id: number; externalId: string; title: Record<string, string> }[];
    expect(octoProducts.map((product) => product.externalId).sort()).toEqual(["louvre-highlights", "seine-day-pass", "seine-private-cruise"]);
    expect(Object.keys(octoProducts[0].title).sort()).toEqual(["de", "en", "fr"]);

    expect(await stopAndWait(first)).toBe(0);

    // The demo supplier's port pinned this time, as an operator behind a firewall would.
    const supplierPort = await freePort();
    const second = npmStart({ ...env, DEMO_OCTO_SUPPLIER_PORT: String(supplierPort) });
    try {
      await ready(base);
      expect(second.output()).not.toContain("Demo accounts created");
      // Registered again on the port asked for, with the products the first start imported.
      await until("the demo OCTO supplier registered again", async () => (second.output().includes("PARIS_DISCOVERY_OCTO: 3 products imported") ? true : undefined));
      expect(second.output()).toContain(`Demo OCTO supplier:            http://127.0.0.1:${supplierPort} (the local OCTO supplier)`);
      // A newcomer books one of its products, held and confirmed in the supplier's system.
      const [, buyerUser, buyerSecret] = printed.match(/CONSUMER\s+(demo-consumer)\s+(sandbox-\S+)/)!;
      const buyer = await login(base, buyerUser, buyerSecret);
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${buyer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as any };
      };
      const seine = octoProducts.find((product) => product.externalId === "seine-day-pass")!;
      const flow = `/booking-flow/v1/products/${seine.id}/availabilities`;
      const availability = (await call("GET", `${flow}/${new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10)}/options`)).body;
      expect(availability.isOptionStepCompleted).toBe(true);
      await call("GET", `${flow}/${availability.id}/prices?currencyCode=EUR`);
      expect((await call("PUT", `${flow}/${availability.id}/prices?currencyCode=EUR`, [{ unitId: "adult", value: 2 }])).body.totalPrice).toEqual({ retail: 44, currency: "EUR" });
      const booking = await call("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: "DEMO1" });
      expect(booking.status).toBe(201);
      expect((await call("PUT", `/booking-flow/v1/bookings/${booking.body.id}/questions`, validAnswers(booking.body))).body.isQuestionStepComplete).toBe(true);
      await call("POST", `/booking-flow/v1/bookings/${booking.body.id}/confirm`, {});
      const confirmed = await until("the OCTO booking confirmed", async () => {
        const current = (await call("GET", `/booking-flow/v1/bookings/${booking.body.id}`)).body;
        return current.status === "CONFIRMED" ? current : undefined;
      });
      expect(confirmed.bookingEngineDetails.bookingCode).toMatch(/^PD-\d{6}$/);
      const again = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(again.status).toBe(200);
    } finally {
      const code = await stopAndWait(second);
      // What the process said is the first thing to read when its stop goes wrong.
      expect(code, second.output().split("\n").slice(-20).join("\n")).toBe(0);
    }
  }, 240_000);

  describe("SIGTERM at each step of the start", () => {
    /** The steps a start logged (LOG_LEVEL=debug), in order. */
    const stepsOf = (output: string): string[] =>
      output.split("\n").flatMap((line) => {
        if (!line.startsWith("{")) return [];
        let entry: { msg?: string; step?: string };
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          // The last line, still arriving.
          return [];
        }
        return entry.msg === "start-up" && entry.step ? [entry.step] : [];
      });
    /** The steps a start logged before it took the signal (its "signal taken" line). */
    const stepsBeforeSignal = (output: string): string[] => {
      const taken = output.indexOf('"msg":"signal taken"');
      return stepsOf(taken < 0 ? output : output.slice(0, output.lastIndexOf("\n", taken) + 1));
    };
    /**
     * A start stopped by SIGTERM as soon as it logs `step`. A parent that reads the line late (a
     * busy machine) may signal a child already past the step: a try counts when the child took the
     * signal in `step`, as its own log tells, or within the `within` steps after it where the
     * step's work cannot take a signal (a synchronous composition, a step logged right after).
     * Another is run again, up to three times, each with the environment `envOf` makes anew (its
     * own data folder: a late signal may have let the first try finish the step). `alongside`: the
     * steps of work that runs beside `step` (the database opens while the graph composes), which
     * may log at any time and are not steps after it.
     */
    const stoppedAt = async (step: string, envOf: () => Record<string, string> | Promise<Record<string, string>>, within = 0, alongside: string[] = []) => {
      for (let attempt = 1; ; attempt++) {
        const env = await envOf();
        const starting = start({ PORT: String(await freePort()), LOG_LEVEL: "debug", ...env });
        // Signalled as the step's line arrives, not at the next poll: some steps last about a second.
        const signalled = new Promise<void>((resolve) => {
          const look = () => {
            if (!stepsOf(starting.output()).includes(step)) return;
            starting.child.stdout!.off("data", look);
            starting.child.kill("SIGTERM");
            resolve();
          };
          starting.child.stdout!.on("data", look);
        });
        await until(`the start-up step "${step}"`, async () => (stepsOf(starting.output()).includes(step) ? true : undefined), 150_000);
        await signalled;
        const code = await starting.exited;
        const before = stepsBeforeSignal(starting.output()).filter((logged) => !alongside.includes(logged));
        const stepsAfter = before.length - 1 - before.indexOf(step);
        if ((stepsAfter >= 0 && stepsAfter <= within) || attempt === 3) {
          expect(before.indexOf(step), `"${step}" logged before the signal was taken`).toBeGreaterThanOrEqual(0);
          expect(stepsAfter, "steps logged after it before the signal was taken").toBeLessThanOrEqual(within);
          return { code, output: starting.output(), steps: stepsOf(starting.output()), dataDir: env.DATA_DIR };
        }
      }
    };
    const scratch = mkdtempSync(path.join(tmpdir(), "activities-stop-"));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it("while the service's modules load: exits 0 without waiting for them", async () => {
      const { code, output, steps } = await stoppedAt("loading the service's modules", () => ({ DATA_DIR: "memory" }), 1);
      expect(code).toBe(0);
      expect(output).toContain("stopped during start-up (SIGTERM)");
      expect(steps).not.toContain("waiting for the database");
      expect(output).not.toContain("GraphQL (HTTP and graphql-ws)");
    }, 180_000);

    it("while a new embedded database is made and migrated: abandons it, leaving its folder as it was", async () => {
      // No template: the database is made by initdb and every migration, seconds of work.
      const { code, output, steps, dataDir } = await stoppedAt("migrating the database", () => ({
        DATA_DIR: path.join(mkdtempSync(path.join(scratch, "new-")), "database"),
        TMPDIR: mkdtempSync(path.join(scratch, "tmp-")),
      }));
      expect(code).toBe(0);
      expect(output).toContain("stopped during start-up (SIGTERM)");
      expect(steps).not.toContain("loading the signing key");
      expect(readdirSync(dataDir)).toEqual([]);
    }, 180_000);

    it("while an embedded database that exists opens: opens it to the end and closes it, undamaged", async () => {
      const { code, output, steps, dataDir } = await stoppedAt("opening the database", async () => {
        const dataDir = mkdtempSync(path.join(scratch, "existing-"));
        const made = await openDatabase({ dataDir });
        await made.db.execute(sql`insert into organisations (name, country_code, commercial_model) values ('Kept Through A Stop', 'NL', 'AGENT')`);
        await made.close();
        return { DATA_DIR: dataDir };
      }, 1);
      expect(code).toBe(0);
      expect(output).toContain("stopped during start-up (SIGTERM)");
      expect(steps).not.toContain("loading the signing key");
      const reopened = await openDatabase({ dataDir });
      try {
        expect(await rows(reopened.db, sql`select name from organisations`)).toEqual([{ name: "Kept Through A Stop" }]);
      } finally {
        await reopened.close();
      }
    }, 180_000);

    it("while the graph is composed: exits 0 before the database is used", async () => {
      const { code, output, steps } = await stoppedAt("composing the graph", () => ({ DATA_DIR: "memory" }), 1, ["opening the database", "migrating the database"]);
      expect(code).toBe(0);
      expect(output).toContain("stopped during start-up (SIGTERM)");
      expect(steps).not.toContain("loading the signing key");
    }, 180_000);

    it("while the demo catalogue is seeded: rolls the seed back, so that the next start seeds it whole", async () => {
      const { code, output, steps, dataDir } = await stoppedAt("seeding the demo catalogue", () => ({ DATA_DIR: mkdtempSync(path.join(scratch, "seeding-")) }));
      expect(code).toBe(0);
      expect(output).toContain("stopped during start-up (SIGTERM)");
      expect(steps).not.toContain("building the edge");
      const database = await openDatabase({ dataDir });
      try {
        const [{ accounts, suppliers }] = await rows<{ accounts: number; suppliers: number }>(
          database.db,
          sql`select (select count(*)::int from accounts) as accounts, (select count(*)::int from suppliers where channel = 'demo') as suppliers`,
        );
        expect({ accounts, suppliers }).toEqual({ accounts: 5, suppliers: 0 });
      } finally {
        await database.close();
      }
    }, 180_000);

    it("while it begins to listen: stops like a running service, exit 0", async () => {
      // Without the demo catalogue: its seed, seconds of CPU, comes before and is not the step here.
      const { code, output } = await stoppedAt("listening", () => ({ DATA_DIR: "memory", SEED_DEMO: "false" }));
      expect(code).toBe(0);
      expect(output).toMatch(/"signal":"SIGTERM","msg":"stopped"/);
    }, 180_000);
  });

  describe("an unusable DATA_DIR", () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "activities-data-dir-"));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it("exits 1 before anything starts, in one line naming DATA_DIR: under /proc, a file, a path through a file, a folder it may not write in", async () => {
      const file = path.join(scratch, "a-file");
      writeFileSync(file, "not a folder");
      const readOnly = path.join(scratch, "read-only");
      mkdirSync(readOnly, { mode: 0o555 });
      chmodSync(scratch, 0o755);
      // Root writes whatever the permissions say: the permission cases run as nobody then.
      const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
      const cases: [string, string, typeof user][] = [
        ["/proc/activities-data", "/proc/activities-data cannot be created (/proc takes no new folders, ENOENT)", undefined],
        ["/proc/self", "files cannot be written in /proc/self (no such file or folder, ENOENT)", undefined],
        [file, `${file} is a file, not a folder`, undefined],
        [path.join(file, "database"), `${file} is a file, not a folder`, undefined],
        [path.join(readOnly, "database"), `${path.join(readOnly, "database")} cannot be created (permission denied, EACCES)`, user],
        [readOnly, `files cannot be written in ${readOnly} (permission denied, EACCES)`, user],
      ];
      const runs = cases.map(([dataDir, , as]) => start({ DATA_DIR: dataDir, PORT: "0" }, [], as));
      for (const [index, [dataDir, reason]] of cases.entries()) {
        expect({ dataDir, code: await runs[index].exited, output: runs[index].output() }).toEqual({ dataDir, code: 1, output: `DATA_DIR=${JSON.stringify(dataDir)}: ${reason}\n` });
      }
    }, 120_000);

    it("exits 1 in one line naming DATA_DIR when the folder holds files that are no database of ours", async () => {
      const foreign = path.join(scratch, "foreign");
      mkdirSync(foreign);
      writeFileSync(path.join(foreign, "PG_VERSION"), "9.6\n");
      const refused = start({ DATA_DIR: foreign, PORT: "0" });
      expect(await refused.exited).toBe(1);
      const lines = refused.output().trim().split("\n");
      expect(lines.at(-1)).toMatch(new RegExp(`^DATA_DIR="${foreign}": the embedded database in ${foreign} cannot be opened \\(.+\\)$`));
      expect(refused.output()).not.toMatch(/\n\s+at /);
    }, 120_000);
  });

  it("refuses to start on a wrong setting, naming the variable", async () => {
    const bad = start({ DATA_DIR: "memory", PORT: "not-a-port" });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/PORT="not-a-port": must be a port number/);
  });

  it("refuses a single role on the embedded database", async () => {
    const bad = start({ DATA_DIR: "memory" }, ["--role", "booking"]);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/ROLE=booking: running one role needs DATABASE_URL/);
  });
});

if (process.env.DATABASE_URL) {
  describe("scale-out: each role its own process against PostgreSQL", () => {
    it("serves the graph through an edge whose subgraphs run as separate processes", async () => {
      // Its own database, migrated here once: other test files' workers share the suite's
      // database and would otherwise confirm this test's booking in place of its worker process.
      const own = await openOwnTestDatabase();
      await own.database.close();
      const databaseUrl = own.url!;
      const ports = { catalogue: await freePort(), booking: await freePort(), reporting: await freePort(), edge: await freePort(), worker: await freePort() };
      const url = (role: keyof typeof ports) => `http://127.0.0.1:${ports[role]}`;
      const processes: Running[] = [];
      try {
        for (const role of ["catalogue", "booking", "reporting", "worker"] as const) {
          // Every role names the same public address: it is the token issuer they all check.
          // Booking and the worker read the catalogue's facts of a product through the catalogue subgraph.
          processes.push(start({ DATABASE_URL: databaseUrl, WEB_CONCURRENCY: "1", PORT: String(ports[role]), PUBLIC_URL: url("edge"), CATALOGUE_URL: `${url("catalogue")}/graphql` }, ["--role", role]));
        }
        const edgeEnv = {
          DATABASE_URL: databaseUrl,
          WEB_CONCURRENCY: "1",
          PORT: String(ports.edge),
          PUBLIC_URL: url("edge"),
          CATALOGUE_URL: `${url("catalogue")}/graphql`,
          BOOKING_URL: `${url("booking")}/graphql`,
          REPORTING_URL: `${url("reporting")}/graphql`,
        };
        processes.push(start(edgeEnv, ["--role", "edge"]));
        for (const role of Object.keys(ports) as (keyof typeof ports)[]) await ready(url(role));

        // Accounts are made by the operator CLI in production; here through the edge's own database.
        const { runOperatorCommand } = await import("../../server/operator-cli.js");
        const username = `scale-${Date.now().toString(36)}`;
        const code = await runOperatorCommand(
          ["create-account", "--username", username, "--role", "CONTENT_PARTNER", "--organisation", `Scale ${username}`, "--country", "ES", "--model", "agent", "--booking-engine", "SCALE_ENGINE", "--password", "scale-out password 1"],
          { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
          { out: () => {}, err: () => {} },
        );
        expect(code).toBe(0);
        const token = await login(url("edge"), username, "scale-out password 1");
        const response = await fetch(`${url("edge")}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: "{ me { organisation { countryCode bookingEngine { name } } } bookingEngines { name } }" }),
        });
        const answer = (await response.json()) as { data: { me: unknown; bookingEngines: { name: string }[] } };
        expect(answer.data.me).toEqual({ organisation: { countryCode: "ES", bookingEngine: { name: "SCALE_ENGINE" } } });
        expect(answer.data.bookingEngines.map((engine) => engine.name)).toContain("SCALE_ENGINE");
        // The subgraph processes answer nobody but the gateway, a valid token notwithstanding.
        const direct = await fetch(`${url("booking")}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: "{ bookingEngines { id } }" }),
        });
        expect(direct.status).toBe(403);
        expect(await direct.json()).toMatchObject({ code: "FORBIDDEN", message: "This subgraph answers only the gateway" });

        // A booking through the edge, confirmed by the worker process, seen by a subscription at the
        // edge: the event crosses processes through PostgreSQL. The first worker is killed before it
        // runs the job; a new one takes the job over.
        const rest = (bearer: string) => async (method: string, path: string, body?: unknown) => {
          const r = await fetch(`${url("edge")}${path}`, {
            method,
            headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await r.text();
          return { status: r.status, body: text ? JSON.parse(text) : undefined };
        };
        const partner = rest(token);
        const { productRequest, supplierRequest } = await import("../support/catalogue.js");
        const { everyDay, familySetup, validAnswers, newRef } = await import("../support/booking.js");
        const supplier = (await partner("POST", "/api/supplier", supplierRequest())).body;
        const product = (await partner("POST", `/api/supplier/${supplier.id}/product`, productRequest({ availabilityPeriods: everyDay() }))).body;
        expect((await partner("PUT", `/api/supplier/${supplier.id}/product/${product.id}/booking-setup`, familySetup({ confirmationDelaySeconds: 2, startTimes: ["10:00"] }))).status).toBe(200);
        const buyerName = `scale-buyer-${Date.now().toString(36)}`;
        await runOperatorCommand(
          ["create-account", "--username", buyerName, "--role", "CONSUMER", "--organisation", `Buyer ${buyerName}`, "--country", "NL", "--model", "reseller", "--password", "scale-out password 2"],
          { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
          { out: () => {}, err: () => {} },
        );
        const buyerToken = await login(url("edge"), buyerName, "scale-out password 2");
        const buyer = rest(buyerToken);
        const date = new Date(Date.now() + 5 * 86400_000).toISOString().slice(0, 10);
        const base = `/booking-flow/v1/products/${product.id}/availabilities`;
        let availability = (await buyer("GET", `${base}/${date}/options`)).body;
        while (!availability.isOptionStepCompleted) {
          const next = availability.availabilityOptions.find((o: { selectedOptionId?: string }) => o.selectedOptionId === undefined);
          availability = (await buyer("PUT", `${base}/${availability.id}/options`, { optionId: next.id, value: next.dataType === "BOOLEAN" ? "true" : Object.keys(next.optionChoices)[0] })).body;
        }
        await buyer("GET", `${base}/${availability.id}/prices`);
        await buyer("PUT", `${base}/${availability.id}/prices`, [{ unitId: "adult", value: 2 }]);
        let booking = (await buyer("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() })).body;
        while (!booking.isQuestionStepComplete) booking = (await buyer("PUT", `/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking))).body;

        const { createClient } = await import("graphql-ws");
        const { default: WebSocket } = await import("ws");
        const client = createClient({ url: `${url("edge").replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { Authorization: `Bearer ${buyerToken}` } });
        const statuses: string[] = [];
        let first: () => void;
        const subscribed = new Promise<void>((resolve) => (first = resolve));
        const done = new Promise<void>((resolve, reject) =>
          client.subscribe(
            { query: "subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { status product { cityName } } }", variables: { id: toGlobalId("Booking", booking.id) } },
            { next: (m) => (statuses.push((m.data as { bookingStatusChanged: { status: string } }).bookingStatusChanged.status), first()), error: reject, complete: resolve },
          ),
        );
        await subscribed;
        const worker = processes[3];
        worker.child.kill("SIGKILL");
        await worker.exited;
        expect((await buyer("POST", `/booking-flow/v1/bookings/${booking.id}/confirm`)).body.status).toBe("PENDING_CONFIRM");
        processes[3] = start({ DATABASE_URL: databaseUrl, PORT: String(ports.worker), PUBLIC_URL: url("edge"), CATALOGUE_URL: `${url("catalogue")}/graphql` }, ["--role", "worker"]);
        await done;
        await client.dispose();
        expect(statuses).toEqual(["ON_HOLD", "PENDING_CONFIRM", "CONFIRMED"]);
        // The reporting process reports it, with the booking and catalogue processes' fields.
        const report = (await buyer("GET", `/reporting/v1/bookings/${booking.id}`)).body;
        expect(report).toMatchObject({ id: booking.id, status: "CONFIRMED", isCancellable: true, product: { id: product.id, title: "Matterhorn glacier hike" } });
      } finally {
        const codes = await Promise.all(processes.map(stopAndWait));
        // Each role stops cleanly on SIGTERM; the logs of any that did not say why.
        const roles = ["catalogue", "booking", "reporting", "worker", "edge"];
        const unclean = processes.flatMap((p, i) => (codes[i] === 0 ? [] : [`${roles[i]} exit ${codes[i]} (${p.child.signalCode}):\n${p.output().slice(-3000)}`]));
        await own.drop();
        expect(unclean, unclean.join("\n---\n")).toEqual([]);
      }
    }, 180_000);
  });

  describe("WEB_CONCURRENCY: several processes on one port against PostgreSQL", () => {
    it("serves from every process, prints its start-up lines once, replaces a process that dies, and stops them all on SIGTERM with exit 0", async () => {
      const own = await openOwnTestDatabase();
      await own.database.close();
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const primary = start({ DATABASE_URL: own.url!, WEB_CONCURRENCY: "2", PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: "info" });
      try {
        const listening = () => new Set([...primary.output().matchAll(/"pid":(\d+),"msg":"Server listening at/g)].map((m) => m[1]));
        await until("both processes listening", async () => (listening().size === 2 ? true : undefined));
        expect(primary.output()).toContain("activities service starting: 2 processes (WEB_CONCURRENCY)");
        await until("the start-up lines", async () => (primary.output().includes("activities service: role all") ? true : undefined));
        expect(primary.output()).toMatch(/activities service: role all, sandbox, postgres \(two pools of \d+ connections a process\), 2 processes/);
        expect(primary.output().match(/Demo accounts created/g)).toHaveLength(1);
        // The cluster hands each new connection to the next process.
        for (let i = 0; i < 12; i++) expect((await fetch(`${base}/api/me`, { headers: { connection: "close" } })).status).toBe(401);
        const answered = await until("requests logged by both processes", async () => {
          const pids = new Set([...primary.output().matchAll(/"pid":(\d+),[^\n]*"url":"\/api\/me"/g)].map((m) => m[1]));
          return pids.size === 2 ? pids : undefined;
        });
        expect([...answered].sort()).toEqual([...listening()].sort());
        // Whichever process takes a scrape, it answers every process's series, each under its pid.
        for (let i = 0; i < 3; i++) {
          const scraped = await (await fetch(`${base}/metrics`, { headers: { connection: "close" } })).text();
          const pids = new Set([...scraped.matchAll(/^activities_http_request_duration_seconds_count\{[^}]*pid="(\d+)"/gm)].map((m) => m[1]));
          expect([...pids].sort()).toEqual([...listening()].sort());
        }
        // A process that dies is replaced. (A connection the cluster handed it just before it died
        // is lost with it: node's cluster cannot take back a handle it sent.)
        const [victim] = [...listening()];
        process.kill(Number(victim), "SIGKILL");
        await until("a replacement listening", async () => (listening().size === 3 ? true : undefined));
        for (let i = 0; i < 4; i++) expect((await fetch(`${base}/health/live`, { headers: { connection: "close" } })).status).toBe(200);
        expect(primary.output()).toMatch(new RegExp(`process \\d \\(pid ${victim}\\) exited \\(SIGKILL\\); starting another`));
      } finally {
        expect(await stopAndWait(primary)).toBe(0);
        await own.drop();
      }
      for (const pid of new Set([...primary.output().matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1])))) {
        expect(() => process.kill(pid, 0), `process ${pid} is still running`).toThrow();
      }
    }, 120_000);

    it("exits 1, naming the cause, when the first process cannot start", async () => {
      const missing = new URL(process.env.DATABASE_URL!);
      missing.pathname = `/no_such_database_${Date.now().toString(36)}`;
      const primary = start({ DATABASE_URL: missing.toString(), WEB_CONCURRENCY: "2", PORT: String(await freePort()) });
      expect(await primary.exited).toBe(1);
      expect(primary.output()).toContain("activities service: the first process exited before listening (code 1)");
      expect(primary.output()).not.toContain("starting another");
      // The cause in one line naming the setting, without a stack.
      expect(primary.output()).toContain(`DATABASE_URL: cannot open the PostgreSQL database at ${missing.hostname}:${missing.port || "5432"}, database ${missing.pathname.slice(1)}: database "${missing.pathname.slice(1)}" does not exist (3D000)`);
      expect(primary.output()).not.toMatch(/^\s+at /m);
    }, 60_000);

    it("exits 1 in one line naming DATABASE_URL, never its password, when the server cannot be reached", async () => {
      const port = await freePort();
      const process1 = start({ DATABASE_URL: `postgres://operator:not-to-be-shown@127.0.0.1:${port}/activities`, WEB_CONCURRENCY: "1", PORT: String(await freePort()) });
      expect(await process1.exited).toBe(1);
      expect(process1.output()).toContain(`DATABASE_URL: cannot open the PostgreSQL database at 127.0.0.1:${port}, database activities: connect ECONNREFUSED 127.0.0.1:${port} (ECONNREFUSED)`);
      expect(process1.output()).not.toContain("not-to-be-shown");
      expect(process1.output()).not.toMatch(/^\s+at /m);
    }, 60_000);

    it("exits 1 with the numbers, no stack trace, when its pools would take more connections than PostgreSQL allows", async () => {
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      const limit = await readConnectionLimit(admin).finally(() => admin.end());
      const usable = limit.maxConnections - limit.reservedConnections;
      const processes = Math.max(2, Math.floor(usable / connectionsPerProcess(100)) + 1);
      const primary = start({ DATABASE_URL: process.env.DATABASE_URL!, DATABASE_POOL_SIZE: "100", WEB_CONCURRENCY: String(processes), PORT: String(await freePort()) });
      expect(await primary.exited).toBe(1);
      expect(primary.output()).toContain(`DATABASE_POOL_SIZE=100 in each of ${processes} processes (WEB_CONCURRENCY) needs up to ${processes * connectionsPerProcess(100)} connections`);
      expect(primary.output()).toContain(`PostgreSQL allows ${usable} (max_connections ${limit.maxConnections}`);
      expect(primary.output()).not.toMatch(/\n\s+at /);
      expect(primary.output()).toContain("activities service: the first process exited before listening (code 1)");
    }, 60_000);
  });

  describe("SIGTERM while PostgreSQL migrates", () => {
    it("exits 0, and leaves the database migrated wholly or not at all", async () => {
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      const name = `start_stop_${Date.now().toString(36)}`;
      await admin.unsafe(`create database ${name}`);
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      try {
        const starting = start({ DATABASE_URL: url.toString(), WEB_CONCURRENCY: "1", LOG_LEVEL: "debug", PORT: String(await freePort()) });
        await until("the migrations", async () => (starting.output().includes('"step":"migrating the database"') ? true : undefined), 120_000);
        starting.child.kill("SIGTERM");
        expect(await starting.exited).toBe(0);
        expect(starting.output()).toContain("stopped during start-up (SIGTERM)");
        const migrations = readdirSync(migrationsFolder).filter((file) => file.endsWith(".sql")).length;
        const database = postgres(url.toString(), { max: 1, onnotice: () => {} });
        try {
          // Stopped before the first migration committed, not even drizzle's own table is there.
          const [{ journal }] = await database<{ journal: string | null }[]>`select to_regclass('drizzle.__drizzle_migrations')::text as journal`;
          const applied = journal ? (await database<{ applied: number }[]>`select count(*)::int as applied from drizzle.__drizzle_migrations`)[0].applied : 0;
          expect([0, migrations]).toContain(applied);
          const [{ tables }] = await database<{ tables: number }[]>`select count(*)::int as tables from pg_tables where schemaname = 'public'`;
          // Wholly or not at all: the schema's tables are all there with every migration, none without.
          if (applied === 0) expect(tables).toBe(0);
          else expect(tables).toBeGreaterThan(20);
        } finally {
          await database.end();
        }
      } finally {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }, 180_000);
  });
}

import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase, rows } from "../../drizzle/database.js";
import { RemotePglite } from "../../drizzle/pglite-thread/remote.js";
import { pgliteTemplatePath } from "../../drizzle/pglite-thread/template.js";

const journal = (folder: string) => readdirSync(path.join(folder, "meta")).filter((file) => file.endsWith("_journal.json"));
const migrationCount = readdirSync(migrationsFolder).filter((file) => file.endsWith(".sql")).length;

const filesUnder = (folder: string) => (readdirSync(folder, { recursive: true }) as string[]).sort();

/** What a database started from a template holds: every migration applied, the tables empty. */
async function migrationsApplied(client: RemotePglite): Promise<number> {
  const { rows: applied } = await client.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
  return applied[0].n;
}

/**
 * The two tests below boot several embedded databases each (initdb, template loads, opens): about
 * 20 s on an idle two-core machine, past 30 s on a busy one (a fresh-clone `.ci/run` timed out
 * there). Their limit is set well clear of that work, so that they fail on a fault, not on load.
 */
const SEVERAL_BOOTS = 120_000;

// PGlite only: the PostgreSQL run of the suite leaves this file out (vitest.config.ts).
describe("new databases start from a migrated template", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "pglite-template-test-"));
  const clients: RemotePglite[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close();
    rmSync(folder, { recursive: true, force: true });
  });
  const remote = (template: string, dataDir = "memory") => {
    const client = new RemotePglite({ dataDir, template });
    clients.push(client);
    return client;
  };

  /** A template the service wrote: the first test's, or one made now when it ran alone. */
  const goodTarball = async (): Promise<Buffer> => {
    const templates = path.join(folder, "first");
    const template = pgliteTemplatePath(migrationsFolder, templates)!;
    if (!existsSync(template) || statSync(template).size < 1_000_000) await (await openDatabase({ dataDir: "memory", templateFolder: templates })).close();
    return readFileSync(template);
  };

  it("the first open writes the template, private to its user; the next starts from it with every migration applied", async () => {
    const templates = path.join(folder, "first");
    const template = pgliteTemplatePath(migrationsFolder, templates)!;
    // A template that does not load (here, one cut short) is no template: the open makes the database afresh.
    writeFileSync(template, "not a tarball", { mode: 0o600 });
    // Templates of older migrations, and a partial one a process died writing: only the newest three old ones stay.
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    for (const [name, hours] of [["old-1.tar", 1], ["old-2.tar", 2], ["old-3.tar", 3], ["old-4.tar", 4], ["old-5.tar", 5], ["dead.tar.1.1.partial", 2], ["live.tar.2.1.partial", 0]] as const) {
      writeFileSync(path.join(templates, name), "old");
      utimesSync(path.join(templates, name), hoursAgo(hours), hoursAgo(hours));
    }
    const first = await openDatabase({ dataDir: "memory", templateFolder: templates });
    await first.close();
    expect(readdirSync(templates).sort()).toEqual([path.basename(template), "live.tar.2.1.partial", "old-1.tar", "old-2.tar", "old-3.tar"].sort());
    expect(statSync(template).mode & 0o777).toBe(0o600);
    expect(statSync(template).size).toBeGreaterThan(1_000_000);

    const client = remote(template);
    expect(await client.waitReady).toEqual({ fromTemplate: true });
    expect(await migrationsApplied(client)).toBe(migrationCount);

    // The service's own open on the template: migrated, working, and nothing of another database's rows.
    const second = await openDatabase({ dataDir: "memory", templateFolder: templates });
    try {
      const [{ n }] = await rows<{ n: number }>(second.db, sql`select count(*)::int as n from accounts`);
      expect(n).toBe(0);
    } finally {
      await second.close();
    }
  }, SEVERAL_BOOTS);

  it("a new data folder starts from it too; a template that fails to load there takes back only what it put in the folder", async () => {
    const templates = path.join(folder, "folders");
    const template = pgliteTemplatePath(migrationsFolder, templates)!;
    const good = await goodTarball();
    writeFileSync(template, good, { mode: 0o600 });

    const fresh = path.join(folder, "data-fresh");
    mkdirSync(fresh);
    const client = remote(template, fresh);
    expect(await client.waitReady).toEqual({ fromTemplate: true });
    expect(await migrationsApplied(client)).toBe(migrationCount);
    await client.close();
    // The folder is an ordinary database now: the service opens it as it opens any.
    const reopened = await openDatabase({ dataDir: fresh, templateFolder: templates });
    const [{ n }] = await rows<{ n: number }>(reopened.db, sql`select count(*)::int as n from accounts`);
    expect(n).toBe(0);
    await reopened.close();

    // Cut short near its end: the load fails after writing most of the folder, tables of the
    // migrations included, which initdb would leave where they are.
    writeFileSync(template, good.subarray(0, Math.floor(good.length * 0.95)), { mode: 0o600 });
    const broken = path.join(folder, "data-broken");
    mkdirSync(broken);
    writeFileSync(path.join(broken, "notes.txt"), "the operator's own file");
    // Beside it, a folder made by initdb alone, to compare with.
    const initdb = path.join(folder, "data-initdb");
    mkdirSync(initdb);
    const afresh = remote(template, broken);
    const plain = new RemotePglite({ dataDir: initdb });
    clients.push(plain);
    expect(await afresh.waitReady).toEqual({ fromTemplate: false });
    await plain.waitReady;
    const { rows: one } = await afresh.query<{ one: number }>("select 1 as one");
    expect(one).toEqual([{ one: 1 }]);
    await afresh.close();
    await plain.close();
    expect(readFileSync(path.join(broken, "notes.txt"), "utf8")).toBe("the operator's own file");
    // Nothing of the half-loaded template is left beside what initdb made.
    rmSync(path.join(broken, "notes.txt"));
    expect(filesUnder(broken)).toEqual(filesUnder(initdb));
  }, SEVERAL_BOOTS);

  it("is named by PGlite's version and every migration file: a changed migration never loads an old template", () => {
    const copy = path.join(folder, "migrations");
    cpSync(migrationsFolder, copy, { recursive: true });
    const templates = path.join(folder, "keys");
    const before = pgliteTemplatePath(copy, templates);
    expect(pgliteTemplatePath(migrationsFolder, templates)).toBe(before);
    writeFileSync(path.join(copy, "meta", journal(copy)[0]), "{}");
    // Keys are remembered per folder for a process's life: a fresh folder name reads the files again.
    const changed = path.join(folder, "migrations-changed");
    cpSync(copy, changed, { recursive: true });
    expect(pgliteTemplatePath(changed, templates)).not.toBe(before);
  });
});

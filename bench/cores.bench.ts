import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, rows } from "../drizzle/database.js";
import { renderBookingCoresSection, renderCoresSection, runBookingCores, runCores } from "./cores/cores-core.js";
import { writeRunResults } from "./results-file.js";

/**
 * Does a second core add throughput? REST search through the service as `npm start` runs it:
 *
 *   npm run bench:cores -- [--scenario search|booking] [--processes 1,2] [--concurrency 1,4,16] [--seconds 5] [--profile-dir DIR] [--no-append]
 *
 * `--scenario booking` runs booking flows (dates to CONFIRMED) instead of search pages, the
 * concurrency being flows at once (default 1,8,32); the lanes run in a process of their own.
 * `--profile-dir DIR` writes a V8 CPU profile of each service process there when it stops.
 * Against DATABASE_URL (PostgreSQL; fill it first with `npm run seed -- --products N`), or a fresh
 * PGlite with the demo catalogue (one process only). Writes its section to a new file,
 * bench/results/<date>-cores-<scenario>.md, unless --no-append.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    processes: { type: "string" },
    scenario: { type: "string", default: "search" },
    concurrency: { type: "string" },
    seconds: { type: "string", default: "5" },
    "profile-dir": { type: "string" },
    "no-append": { type: "boolean", default: false },
  },
});

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? "memory" : mkdtempSync(path.join(os.tmpdir(), "bench-cores-"));
  const processes = (values.processes ?? (databaseUrl ? "1,2" : "1")).split(",").map(Number);
  const loadAtStart = os.loadavg()[0];
  const booking = values.scenario === "booking";
  if (!booking && values.scenario !== "search") throw new Error(`--scenario is search or booking, not ${values.scenario}`);
  const concurrencies = (values.concurrency ?? (booking ? "1,8,32" : "1,4,16")).split(",").map(Number);
  const seconds = Number(values.seconds);
  const meta = {
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    date: new Date().toISOString().slice(0, 10),
    commit: execSync("git rev-parse --short HEAD").toString().trim(),
    load: loadAtStart.toFixed(1),
    seconds,
  };
  try {
    let section: string;
    if (booking) {
      const runs = await runBookingCores({ databaseUrl, dataDir, processes, concurrencies, seconds, warmUpFlows: 4, profileDir: values["profile-dir"] });
      section = renderBookingCoresSection(runs, { ...meta, database: databaseUrl ? await postgresVersion(databaseUrl) : "PGlite (worker thread)" });
    } else {
      const runs = await runCores({ databaseUrl, dataDir, processes, concurrencies, seconds, profileDir: values["profile-dir"] });
      const database = await openDatabase({ databaseUrl, dataDir, migrate: false });
      const [{ products, version }] = await rows<{ products: number; version: string }>(database.db, sql`select count(*)::int as products, split_part(version(), ' on ', 1) as version from products`);
      await database.close();
      section = renderCoresSection(runs, {
        ...meta,
        title: `Cores: REST search by WEB_CONCURRENCY (${databaseUrl ? "PostgreSQL" : "PGlite on its own thread"})`,
        database: databaseUrl ? version : "PGlite (worker thread)",
        products,
      });
    }
    console.log(section);
    if (!values["no-append"]) console.log(`Written to ${writeRunResults(`cores-${values.scenario}`, section, { date: meta.date })}`);
  } finally {
    if (!databaseUrl) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresVersion(databaseUrl: string): Promise<string> {
  const database = await openDatabase({ databaseUrl, migrate: false });
  try {
    const [{ version }] = await rows<{ version: string }>(database.db, sql`select split_part(version(), ' on ', 1) as version`);
    return version;
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { execSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, rows } from "../drizzle/database.js";
import { renderCoresSection, runCores } from "./cores/cores-core.js";

/**
 * Does a second core add throughput? REST search through the service as `npm start` runs it:
 *
 *   npm run bench:cores -- [--processes 1,2] [--concurrency 1,4,16] [--seconds 5] [--no-append]
 *
 * Against DATABASE_URL (PostgreSQL; fill it first with `npm run seed -- --products N`), or a fresh
 * PGlite with the demo catalogue (one process only). Appends its section to docs/benchmarks.md.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    processes: { type: "string" },
    concurrency: { type: "string", default: "1,4,16" },
    seconds: { type: "string", default: "5" },
    "no-append": { type: "boolean", default: false },
  },
});

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? "memory" : mkdtempSync(path.join(os.tmpdir(), "bench-cores-"));
  const processes = (values.processes ?? (databaseUrl ? "1,2" : "1")).split(",").map(Number);
  const loadAtStart = os.loadavg()[0];
  try {
    const runs = await runCores({ databaseUrl, dataDir, processes, concurrencies: values.concurrency.split(",").map(Number), seconds: Number(values.seconds) });
    const database = await openDatabase({ databaseUrl, dataDir, migrate: false });
    const [{ products, version }] = await rows<{ products: number; version: string }>(database.db, sql`select count(*)::int as products, split_part(version(), ' on ', 1) as version from products`);
    await database.close();
    const section = renderCoresSection(runs, {
      title: `Cores: REST search by WEB_CONCURRENCY (${databaseUrl ? "PostgreSQL" : "PGlite on its own thread"})`,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
      date: new Date().toISOString().slice(0, 10),
      commit: execSync("git rev-parse --short HEAD").toString().trim(),
      database: databaseUrl ? version : "PGlite (worker thread)",
      products,
      load: loadAtStart.toFixed(1),
      seconds: Number(values.seconds),
    });
    console.log(section);
    if (!values["no-append"]) appendFileSync(fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url)), `\n${section}`);
  } finally {
    if (!databaseUrl) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import "reflect-metadata";
import { execSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "../core/config.js";
import { createLogger } from "../core/logger.js";
import { openDatabase, rows } from "../drizzle/database.js";
import { createService } from "../server/service.js";
import { sql } from "drizzle-orm";
import { runPaths } from "./paths/paths-core.js";
import { renderPathsSection } from "./paths/report.js";
import { writeRunResults } from "./results-file.js";
import { NO_ACCOUNT_LIMITS, ONE_CLIENT_ADDRESS } from "./service-settings.js";

/**
 * Every client of the bench connects from 127.0.0.1, some in the service's own process: the cap
 * per client address and load shedding would measure their refusals, not the service.
 */

/**
 * Every page through REST, the gateway, the subgraph and the physical limit, side by side:
 *
 *   npm run bench:paths -- [--seconds 5] [--concurrency 1,4,16] [--fresh 40] [--profile-seconds 10]
 *     [--profile-concurrency 4] [--pool 10] [--rounds 5] [--warm-up 1] [--only search,booking,...] [--cell-profiles DIR]
 *     [--no-append] [--note TEXT]
 *
 * Against DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite), with the demo seed added on first start;
 * fill the catalogue first with `npm run seed -- --products N`. Writes its section to a new file,
 * bench/results/<date>-paths.md, unless --no-append. `--cell-profiles DIR` writes a CPU profile of the service
 * for every measured cell there (each profile slows its cell a little): compare a page's gateway
 * and subgraph cells to see what the gateway adds.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seconds: { type: "string", default: "5" },
    concurrency: { type: "string", default: "1,4,16" },
    fresh: { type: "string", default: "40" },
    rounds: { type: "string", default: "5" },
    "warm-up": { type: "string", default: "1" },
    "profile-seconds": { type: "string", default: "10" },
    "profile-concurrency": { type: "string", default: "4" },
    pool: { type: "string", default: "10" },
    only: { type: "string", default: "" },
    "cell-profiles": { type: "string" },
    "no-append": { type: "boolean", default: false },
    note: { type: "string", default: "" },
  },
});

async function main() {
  const poolSize = Number(values.pool);
  if (values["cell-profiles"]) mkdirSync(values["cell-profiles"], { recursive: true });
  const config = loadConfig({ ...process.env, PORT: "0", HOST: "127.0.0.1", ROLE: "all", SEED_DEMO: "true", LOG_LEVEL: "silent", ...NO_ACCOUNT_LIMITS, WORKER_LOOPS: "false", ...ONE_CLIENT_ADDRESS });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, maxConnections: poolSize });
  const service = await createService(config, { database, logger: createLogger("silent") });
  await service.listen();
  config.publicUrl = service.url!;
  const loadAtStart = os.loadavg()[0];
  const concurrencies = values.concurrency.split(",").filter(Boolean).map(Number);
  try {
    let version = "PGlite";
    if (database.driver === "postgres") [{ version }] = await rows<{ version: string }>(database.db, sql`select split_part(version(), ' on ', 1) as version`);
    const result = await runPaths({
      service,
      database,
      databaseUrl: config.databaseUrl,
      concurrencies,
      seconds: Number(values.seconds),
      fresh: Number(values.fresh),
      rounds: Number(values.rounds),
      warmUpSeconds: Number(values["warm-up"]),
      profileSeconds: Number(values["profile-seconds"]),
      profileConcurrency: Number(values["profile-concurrency"]),
      cellProfiles: values["cell-profiles"],
      poolSize,
      only: values.only.split(",").filter(Boolean),
      log: (line) => console.log(line),
    });
    const repo = fileURLToPath(new URL("..", import.meta.url));
    const commit = execSync("git rev-parse --short HEAD", { cwd: repo }).toString().trim();
    const dirty = execSync("git status --porcelain -- core drizzle gateway identity rest-compat server subgraphs schema bench", { cwd: repo }).toString().trim();
    const date = new Date().toISOString().slice(0, 10);
    const section = renderPathsSection(result, {
      date,
      // Other work on the machine changes every number: the 1-minute load average says how much there was.
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.type()} ${os.release()}; load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`,
      commit: `${commit}${dirty ? " plus uncommitted changes" : ""}`,
      driver: database.driver === "postgres" ? `postgres.js on ${version}, same machine` : "PGlite",
      command: `npm run bench:paths -- ${process.argv.slice(2).join(" ")}`.trim(),
      note: values.note,
      concurrencies,
      seconds: Number(values.seconds),
      fresh: Number(values.fresh),
      rounds: Number(values.rounds),
      warmUpSeconds: Number(values["warm-up"]),
      poolSize,
    });
    console.log(section);
    if (!values["no-append"]) console.log(`Written to ${writeRunResults("paths", section, { date })}`);
  } finally {
    await service.close();
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

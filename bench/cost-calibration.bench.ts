import "reflect-metadata";
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "../core/config.js";
import { createLogger } from "../core/logger.js";
import { openDatabase } from "../drizzle/database.js";
import { createService } from "../server/service.js";
import { renderCostRun, runCostCalibration } from "./cost/cost-core.js";
import { writeRunResults } from "./results-file.js";
import { NO_ACCOUNT_LIMITS, ONE_CLIENT_ADDRESS } from "./service-settings.js";

/**
 * Calibrates the cost model (gateway/operation-limits.ts) against measured time:
 *
 *   npm run bench:cost -- [--repetitions 15] [--warm-up 3]
 *
 * against DATABASE_URL (PostgreSQL) or a fresh embedded database, with the demo catalogue. Rerun
 * it whenever the graph changes and set ROOT_FIELD_COSTS and SEARCH_CRITERION_COSTS from its
 * table. Writes the run to a new file, bench/results/<date>-cost-calibration-<database>.md;
 * docs/performance.md ("Cost model calibration") names the runs the numbers in force come from.
 */
const { values } = parseArgs({ args: process.argv.slice(2), options: { repetitions: { type: "string", default: "15" }, "warm-up": { type: "string", default: "3" } } });


async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? undefined : mkdtempSync(path.join(os.tmpdir(), "bench-cost-"));
  const config = loadConfig({
    ...process.env,
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    PORT: "0",
    HOST: "127.0.0.1",
    ROLE: "all",
    SEED_DEMO: "true",
    LOG_LEVEL: "silent",
    WORKER_LOOPS: "false",
    // One account sends every operation, faster than its cost budget refills on a quiet machine.
    ...NO_ACCOUNT_LIMITS,
    ...ONE_CLIENT_ADDRESS,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, maxConnections: 10 });
  const service = await createService(config, { database, logger: createLogger("silent") });
  await service.listen();
  config.publicUrl = service.url!;
  const loadAtStart = os.loadavg()[0];
  try {
    const repetitions = Number(values.repetitions);
    const warmUp = Number(values["warm-up"]);
    const run = await runCostCalibration({ service, repetitions, warmUp, log: (line) => console.log(line) });
    const repo = fileURLToPath(new URL("..", import.meta.url));
    const commit = execSync("git rev-parse --short HEAD", { cwd: repo }).toString().trim();
    const dirty = execSync("git status --porcelain -- core drizzle gateway identity rest-compat server subgraphs schema bench", { cwd: repo }).toString().trim();
    const date = new Date().toISOString().slice(0, 10);
    const database = databaseUrl ? "PostgreSQL" : "embedded";
    const section = renderCostRun(run, {
      date,
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`,
      commit: `${commit}${dirty ? " plus uncommitted changes" : ""}`,
      database,
      command: `npm run bench:cost${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
      repetitions,
      warmUp,
    });
    console.log(section);
    console.log(`Written to ${writeRunResults(`cost-calibration-${database.toLowerCase()}`, section, { date })}`);
  } finally {
    await service.close();
    await database.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

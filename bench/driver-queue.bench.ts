import { execSync } from "node:child_process";
import os from "node:os";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { installedQueue, renderDriverQueueSection, runDriverQueueRounds } from "./driver-queue/driver-queue-core.js";
import { writeRunResults } from "./results-file.js";

/**
 * Does a statement cost more the longer the process has run? (drizzle/driver-queue/queue.js)
 *
 *   DATABASE_URL=… npm run bench:driver-queue -- [--rounds 8] [--statements 20000] [--concurrency 4] [--pool 10] [--no-append]
 *
 * PostgreSQL only: the queue belongs to postgres.js. Writes its section to a new file,
 * bench/results/<date>-driver-queue.md, unless --no-append.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    rounds: { type: "string", default: "8" },
    statements: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "4" },
    pool: { type: "string", default: "10" },
    "no-append": { type: "boolean", default: false },
  },
});

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("bench:driver-queue needs DATABASE_URL (PostgreSQL)");
  const settings = { statements: Number(values.statements), concurrency: Number(values.concurrency), pool: Number(values.pool) };
  const rounds = await runDriverQueueRounds({ databaseUrl, rounds: Number(values.rounds), ...settings });
  const sql = postgres(databaseUrl, { max: 1 });
  const [{ version }] = await sql<{ version: string }[]>`select split_part(version(), ' on ', 1) as version`;
  await sql.end();
  const date = new Date().toISOString().slice(0, 10);
  const section = renderDriverQueueSection(rounds, {
    ...settings,
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    date,
    commit: execSync("git rev-parse --short HEAD").toString().trim(),
    version,
    queue: installedQueue(),
  });
  console.log(section);
  if (!values["no-append"]) console.log(`Written to ${writeRunResults("driver-queue", section, { date })}`);
}

await main();

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import postgres from "postgres";

/** The installed postgres.js package's directory: its exports map hides package.json, and its CommonJS entry sits in cjs/src. */
export const driverRoot = (): string => path.resolve(path.dirname(createRequire(import.meta.url).resolve("postgres")), "../..");

/** Which queue the installed postgres.js runs: ours, once `npm ci` has run its postinstall step, or the driver's own. */
export function installedQueue(): string {
  const text = readFileSync(path.join(driverRoot(), "src/queue.js"), "utf8");
  return text.includes("COMPACT_AFTER") ? "the bounded queue (drizzle/driver-queue)" : "postgres.js's own queue";
}

export interface DriverQueueRound {
  round: number;
  /** Statements the client had run before this round. */
  before: number;
  ms: number;
}

/**
 * Rounds of `select 1` through one postgres.js client whose pool holds idle connections: the case
 * where its connection queue never runs empty (drizzle/driver-queue/queue.js). With the driver's
 * own queue each round took longer than the last; with the bounded one they stay level.
 */
export async function runDriverQueueRounds(options: { databaseUrl: string; rounds: number; statements: number; concurrency: number; pool: number }): Promise<DriverQueueRound[]> {
  const sql = postgres(options.databaseUrl, { max: options.pool, onnotice: () => {} });
  try {
    // Open every connection of the pool, so that some stay idle at the lower concurrency.
    await Promise.all(Array.from({ length: options.pool }, () => sql`select pg_sleep(0.05)`));
    const rounds: DriverQueueRound[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const started = performance.now();
      let sent = 0;
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (sent < options.statements) {
            sent++;
            await sql`select 1`;
          }
        }),
      );
      rounds.push({ round, before: (round - 1) * options.statements, ms: performance.now() - started });
    }
    return rounds;
  } finally {
    await sql.end();
  }
}

export function renderDriverQueueSection(rounds: DriverQueueRound[], meta: { machine: string; date: string; commit: string; version: string; queue: string; statements: number; concurrency: number; pool: number }): string {
  return [
    `## ${meta.date}: postgres.js connection queue, statements in a row: ${meta.queue} (${meta.version})`,
    "",
    `${meta.machine}; commit ${meta.commit}. \`npm run bench:driver-queue\`: rounds of ${meta.statements.toLocaleString("en")} \`select 1\` at concurrency ${meta.concurrency} through one client with a pool of ${meta.pool}, every connection opened first, so that some stay idle (drizzle/driver-queue/queue.js says why that matters). Level rounds mean a statement costs the same however many ran before it.`,
    "",
    "| round | statements before it | ms | µs a statement |",
    "|---|---|---|---|",
    ...rounds.map((r) => `| ${r.round} | ${r.before.toLocaleString("en")} | ${r.ms.toFixed(0)} | ${((r.ms * 1000) / meta.statements).toFixed(1)} |`),
    "",
  ].join("\n");
}

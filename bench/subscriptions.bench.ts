import "reflect-metadata";
import { execSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openDatabase } from "../drizzle/database.js";
import { freshBenchDatabase } from "./bench-database.js";
import { writeRunResults } from "./results-file.js";
import { formatSubscriptionBench, runSubscriptionBench } from "./subscriptions.js";

/**
 * Subscription fan-out on PostgreSQL (bench/subscriptions.ts says what is measured):
 *
 *   npm run bench:subscriptions -- [--levels 10000x1,100000x10] [--events 200] [--idle-bookings 1000]
 *     [--gap 20] [--pool 10] [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--no-append] [--keep-database] [--note TEXT]
 *
 * A level `NxK` holds N idle subscribers, K subscriptions per graphql-ws connection (graphql-ws
 * multiplexes subscriptions on a socket). Each process may hold `ulimit -n` descriptors and the
 * loopback about 28,000 ephemeral ports to one address: 100,000 subscribers need several per
 * connection unless both limits are raised. Creates a fresh database bench_subscriptions_<timestamp>
 * on the admin URL's server, drops it at the end, and writes its results to a new file,
 * bench/results/<date>-subscriptions.md, unless --no-append.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    levels: { type: "string", default: "10000x1,100000x10" },
    events: { type: "string", default: "200" },
    "idle-bookings": { type: "string", default: "1000" },
    gap: { type: "string", default: "20" },
    pool: { type: "string", default: "10" },
    "admin-url": { type: "string", default: process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    "no-append": { type: "boolean", default: false },
    "keep-database": { type: "boolean", default: false },
    note: { type: "string", default: "" },
  },
});

const levels = values.levels
  .split(",")
  .filter(Boolean)
  .map((level) => {
    const [subscribers, perConnection = "1"] = level.split("x");
    return { subscribers: Number(subscribers), perConnection: Number(perConnection) };
  });

async function main() {
  const loadBefore = os.loadavg()[0];
  const benchDatabase = await freshBenchDatabase(values["admin-url"], "bench_subscriptions");
  const database = await openDatabase({ databaseUrl: benchDatabase.url, maxConnections: Number(values.pool) });
  try {
    const result = await runSubscriptionBench({
      database,
      levels,
      events: Number(values.events),
      idleBookings: Number(values["idle-bookings"]),
      gapMs: Number(values.gap),
      log: (line) => console.log(line),
    });
    const root = fileURLToPath(new URL("..", import.meta.url));
    const commit = execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim();
    const dirty = execSync("git status --porcelain -- core drizzle gateway identity server subgraphs", { cwd: root }).toString().trim();
    const date = new Date().toISOString().slice(0, 10);
    const section = formatSubscriptionBench(result, {
      date,
      machine: `${os.availableParallelism()} CPUs (${os.cpus()[0]?.model.trim() ?? "cpu"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${benchDatabase.version} on the same machine, \`ulimit -n\` ${execSync("sh -c 'ulimit -n'").toString().trim()}, load average ${loadBefore.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end (other work shared the machine when above 2)`,
      commit: `${commit}${dirty ? " plus uncommitted changes" : ""}`,
      database: `pool of ${values.pool} connections, fresh database \`${benchDatabase.name}\`${values["keep-database"] ? "" : " (dropped afterwards)"}`,
      command: `npm run bench:subscriptions -- --levels ${values.levels} --events ${values.events} --idle-bookings ${values["idle-bookings"]} --gap ${values.gap}`,
      note: values.note || undefined,
    });
    console.log(section);
    console.log(JSON.stringify(result.levels.map(({ deliveryMs, ...level }) => level)));
    if (!values["no-append"]) console.log(`Written to ${writeRunResults("subscriptions", section, { date })}`);
  } finally {
    await database.close();
    await benchDatabase.close(values["keep-database"]);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

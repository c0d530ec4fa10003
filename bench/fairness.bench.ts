import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../core/config.js";
import { ATTACKS, renderFairness, runFairness } from "./fairness/fairness-core.js";
import { writeRunResults } from "./results-file.js";

/**
 * What one caller's attack costs everybody else (issue 41's targets):
 *
 *   npm run bench:fairness -- [--seconds 10] [--slow-sockets 5000] [--heavy 8] [--subscriptions 2000] [--sign-ins 48] [--only slow-bodies,stop] [--profile-dir DIR]
 *
 * against DATABASE_URL (PostgreSQL) or a fresh embedded database. The service runs as `npm start`
 * runs it, with its default limits. Writes the run to a new file, bench/results/<date>-fairness-<database>.md;
 * docs/performance.md says where each target stands.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seconds: { type: "string", default: "10" },
    "slow-sockets": { type: "string", default: "5000" },
    heavy: { type: "string", default: "8" },
    subscriptions: { type: "string", default: "2000" },
    "sign-ins": { type: "string", default: "48" },
    only: { type: "string", default: "" },
    "profile-dir": { type: "string" },
  },
});

const only = values.only ? values.only.split(",") : [];
for (const name of only) if (!(ATTACKS as readonly string[]).includes(name)) throw new Error(`--only takes ${ATTACKS.join(", ")}, not ${name}`);
const databaseUrl = process.env.DATABASE_URL;
const dataDir = databaseUrl ? "memory" : mkdtempSync(path.join(os.tmpdir(), "bench-fairness-"));
const load = os.loadavg()[0].toFixed(1);
try {
  const run = await runFairness({
    databaseUrl,
    dataDir,
    seconds: Number(values.seconds),
    slowSockets: Number(values["slow-sockets"]),
    heavyInFlight: Number(values.heavy),
    subscriptions: Number(values.subscriptions),
    signIns: Number(values["sign-ins"]),
    // What the service under test reads from the same environment (HTTP_REQUEST_TIMEOUT_SECONDS).
    bodyTimeoutSeconds: loadConfig({ ...process.env, DATA_DIR: "memory" }).http.requestTimeoutMs / 1000,
    only,
    profileDir: values["profile-dir"],
  });
  const date = new Date().toISOString().slice(0, 10);
  const database = databaseUrl ? "PostgreSQL" : "embedded";
  const section = renderFairness(run, {
    date,
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    commit: execSync("git rev-parse --short HEAD").toString().trim(),
    database,
    load,
    seconds: Number(values.seconds),
    command: `npm run bench:fairness${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
  });
  console.log(section);
  // Each run to a file of its own (-2, -3, … for a second run of the day): a second run must not touch the first.
  console.log(`Written to ${writeRunResults(`fairness-${database.toLowerCase()}`, section, { date })}`);
} finally {
  if (!databaseUrl) rmSync(dataDir, { recursive: true, force: true });
}

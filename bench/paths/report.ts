import { PATHS, type Cell, type PathsResult } from "./paths-core.js";

export interface ReportMeta {
  date: string;
  machine: string;
  commit: string;
  driver: string;
  command: string;
  note?: string;
  concurrencies: number[];
  seconds: number;
  fresh: number;
  rounds: number;
  warmUpSeconds: number;
  poolSize: number;
}

const ms = (value: number | undefined) => (value !== undefined && Number.isFinite(value) ? value.toFixed(1) : "—");
const rate = (value: number | undefined) => (value !== undefined && Number.isFinite(value) ? (value >= 100 ? value.toFixed(0) : value.toFixed(1)) : "—");

/** The markdown of one run, for its file in bench/results/. */
export function renderPathsSection(result: PathsResult, meta: ReportMeta): string {
  const top = Math.max(...meta.concurrencies);
  const lines = [
    `\n## ${meta.date}: every page through REST, gateway, subgraph and the physical limit (${meta.driver}, ${result.liveProducts.toLocaleString("en")} live products)${meta.note ? ` (${meta.note})` : ""}`,
    "",
    `Machine: ${meta.machine}. Commit ${meta.commit}. Driver: ${meta.driver}; catalogue: ${result.liveProducts.toLocaleString("en")} live products (\`npm run seed -- --products N\` plus the demo seed). \`${meta.command}\``,
    "",
    "How it is measured (bench/paths.bench.ts, bench/paths/): the service runs in the benchmark's process with `npm start`'s node flags (role `all`, worker loops off, rate limit off, " +
      `pool of ${meta.poolSize}); autocannon runs in a child process and drives four HTTP paths to the same page: **REST** (the documented route), **gateway** (\`POST /graphql\` with the operation and variables the REST route sent to the gateway), ` +
      "**subgraph** (a bench-only route that makes the gateway's subgraph calls on the in-process subgraphs as the gateway makes them (`executeInProcess`), one after the other, with no gateway in front; a subgraph's own calls to another run inside them) and **limit** (a bench-only plain Fastify route that replays the SQL statements the REST request ran, in order and in their transactions, through its own postgres.js pool, or PGlite, and answers the REST body with `JSON.stringify`; mapping rows to records is not in it, so it is a floor, not a design). " +
      `Read-only pages run ${meta.seconds} s per cell at concurrency ${meta.concurrencies.join(", ")}, after ${meta.warmUpSeconds} s of unmeasured load on each path (a slice that completed fewer than max(3, concurrency) requests in its time runs again for exactly that many); latency is concurrency 1. Steps that change what they act on (marked *fresh*) get one fresh state per request, made before the timed part, and run ${meta.fresh} requests at concurrency 1 on each path ` +
      "(the limit replays their SQL on its own fresh states, so it commits the same changes). Every path is checked once before it is measured (2xx, no GraphQL errors; the limit's body equals REST's). " +
      `Each cell is measured in up to ${meta.rounds} rounds that take the four paths in turn, in an order rotated each round (a read-only cell's time and a fresh step's states split between them), so that the machine's drift falls on every path alike; a read-only cell is split only as far as each slice still expects 20 times its concurrency in answers at the slowest path's warm-up rate, since a timed slice's first latency has no answer and its last requests are cut off. The bench's statement capture is switched off while cells run (an enabled AsyncLocalStorage would hook every promise). ` +
      `"× limit" is the path's p50 over the limit's; "of limit" is the path's req/s at concurrency ${top} as a share of the limit's (at concurrency 1 for fresh steps).`,
    "",
    `| page | path | p50 ms | p95 ms | p99 ms | ${meta.concurrencies.map((c) => `req/s c${c}`).join(" | ")} | × limit (p50) | of limit (req/s) |`,
    `|---|---|---|---|---|${meta.concurrencies.map(() => "---|").join("")}---|---|`,
  ];
  for (const scenario of result.scenarios) {
    const limit = scenario.paths.limit;
    const limitC1 = limit.find((c) => c.concurrency === 1);
    const limitTop = scenario.fresh ? limitC1 : limit.find((c) => c.concurrency === top);
    for (const path of PATHS) {
      const cells = scenario.paths[path];
      const at = (concurrency: number): Cell | undefined => cells.find((c) => c.concurrency === concurrency);
      const c1 = at(1);
      const topCell = scenario.fresh ? c1 : at(top);
      const failures = cells.reduce((n, c) => n + c.failures, 0);
      lines.push(
        `| ${path === "REST" ? `${scenario.name}${scenario.fresh ? " *fresh*" : ""}` : ""} | ${path}${failures ? ` (${failures} failed)` : ""} | ${ms(c1?.p50)} | ${ms(c1?.p95)} | ${ms(c1?.p99)} | ${meta.concurrencies.map((c) => rate(at(c)?.rps)).join(" | ")} | ${
          c1 && limitC1 ? `${(c1.p50 / limitC1.p50).toFixed(2)}×` : "—"
        } | ${topCell && limitTop ? `${Math.round((100 * topCell.rps) / limitTop.rps)} %` : "—"} |`,
      );
    }
  }
  lines.push("", "| page | request | REST body bytes | SQL statements | subgraph calls |", "|---|---|---|---|---|");
  for (const scenario of result.scenarios) lines.push(`| ${scenario.name} | \`${scenario.request}\` | ${scenario.restBytes.toLocaleString("en")} | ${scenario.statements} | ${scenario.subgraphCalls} |`);
  const { profile } = result;
  const busy = profile.totalMs - profile.idleMs;
  lines.push(
    "",
    `CPU profile of the REST search page \`${profile.request}\` at concurrency ${profile.concurrency} (${profile.requests} requests), the service's process profiled with node:inspector (100 µs sampling): ${(profile.totalMs / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy (${Math.round((100 * busy) / profile.totalMs)} %). Top 15 functions by self time, % of busy time:`,
    "",
    "| file:function:line | self ms | % |",
    "|---|---|---|",
    ...profile.top.map((row) => `| \`${row.location}\` | ${row.selfMs.toFixed(0)} | ${row.percent.toFixed(1)} |`),
  );
  return `${lines.join("\n")}\n`;
}

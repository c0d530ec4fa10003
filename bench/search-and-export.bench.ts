import "reflect-metadata";
import os from "node:os";
import { parseArgs } from "node:util";
import { and, asc, gt, sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { loadConfig } from "../core/config.js";
import { createLogger } from "../core/logger.js";
import { openDatabase, rows, type Db } from "../drizzle/database.js";
import * as schema from "../drizzle/schema.js";
import { products } from "../drizzle/schema.js";
import { productColumns } from "../subgraphs/catalogue/product/product.repository.js";
import { parseSearch } from "../subgraphs/catalogue/search/search.expression.js";
import { productSearchRepository, visibleToConsumers } from "../subgraphs/catalogue/search/product-search.repository.js";
import { compileSearch } from "../subgraphs/catalogue/search/search.sql.js";
import { searchProductsRoute } from "../rest-compat/routes/api-consumer/search-products.route.js";
import { createService } from "../server/service.js";
import { exportInOwnProcess } from "./export-client.js";
import { writeRunResults } from "./results-file.js";
import { NO_ACCOUNT_LIMITS, ONE_CLIENT_ADDRESS } from "./service-settings.js";

/**
 * Every client of the bench connects from 127.0.0.1, some in the service's own process: the cap
 * per client address and load shedding would measure their refusals, not the service.
 */

/**
 * Search latency (p50, p95, p99) through REST, the gateway and the subgraph directly, beside the
 * same page as raw SQL; and the full export through the import endpoint beside a raw keyset scan.
 * Run on demand: `npm run bench -- [--requests 200] [--export] [--skip-search] [--explain]`, against DATABASE_URL or DATA_DIR.
 * Writes its results to a new file, bench/results/<date>-search-<driver>-<catalogue size>.md (100k, 1m, …);
 * `--explain` (PostgreSQL) adds the EXPLAIN (ANALYZE, BUFFERS)
 * of every statement the raw SQL path runs for each expression.
 */
const { values } = parseArgs({ args: process.argv.slice(2), options: { requests: { type: "string", default: "200" }, export: { type: "boolean", default: false }, "skip-search": { type: "boolean", default: false }, explain: { type: "boolean", default: false }, note: { type: "string", default: "" } } });
const requests = Number(values.requests);

const expressions = {
  text: "title:museum",
  taxonomy: "taxonomy:activities-tours-walking-tours",
  combined: "title:tour AND countryCode:FR AND rating:>4",
};

/**
 * The plans of the statements one raw SQL page runs: the repository is run on a client that
 * records each statement with its parameters, then each is run again under EXPLAIN.
 */
async function explainPage(url: string, page: (db: Db) => Promise<unknown>): Promise<string[]> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  const statements: { query: string; params: unknown[] }[] = [];
  try {
    const db = drizzle(client, { schema, logger: { logQuery: (query, params) => statements.push({ query, params }) } }) as unknown as Db;
    await page(db);
    const plans: string[] = [];
    // In one transaction, with the page's own settings (work_mem, similarity threshold) made first.
    await client.begin(async (tx) => {
      for (const { query, params } of statements) {
        if (/^select set_config/i.test(query.trim())) await tx.unsafe(query, params as never[]);
        // The planner's own estimate reads no row.
        if (/^(explain|select set_config)/i.test(query.trim())) continue;
        const plan = await tx.unsafe(`explain (analyze, buffers) ${query}`, params as never[]);
        plans.push(`-- ${query.replace(/\s+/g, " ")}\n-- parameters: ${JSON.stringify(params)}\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
      }
    });
    return plans;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** The page the REST path asks for, as the bench's consumer (a French organisation) sees it. */
const rawPage = (where: SQL) => ({ where, sortingField: "title" as const, descending: false, preferredCountry: "FR", language: "en", offset: 0, limit: 100 });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (value: number) => value.toFixed(1);

async function measure(concurrency: number, total: number, run: () => Promise<void>) {
  const durations: number[] = [];
  let next = 0;
  await run(); // warm-up
  const worker = async () => {
    while (next < total) {
      next++;
      const started = performance.now();
      await run();
      durations.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  durations.sort((a, b) => a - b);
  return { p50: percentile(durations, 50), p95: percentile(durations, 95), p99: percentile(durations, 99) };
}

async function main() {
  // One account makes every request: the per-account request limit would stop a faster run.
  const config = loadConfig({ ...process.env, PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "false", LOG_LEVEL: "error", ...NO_ACCOUNT_LIMITS, ...ONE_CLIENT_ADDRESS });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, maxConnections: 20 });
  const service = await createService(config, { database, logger: createLogger("error") });
  await service.listen();
  config.publicUrl = service.url!;
  const username = `bench-${Date.now()}`;
  await service.identity.accounts.createAccount({ username, role: "CONSUMER", organisation: `Bench ${username}`, country: "FR", model: "agent", password: "benchmark password 1" });
  // Tokens live 300 s and sessions 30 minutes: each measurement signs in afresh.
  const headers: Record<string, string> = { "content-type": "application/json" };
  const signIn = async () => {
    headers.authorization = `Bearer ${(await service.identity.tokens.passwordGrant(username, "benchmark password 1", undefined, "127.0.0.1")).access_token}`;
  };
  const [{ count: total }] = await rows<{ count: number }>(database.db, sql`select count(*)::int as count from products where deleted_at is null`);

  const lines: string[] = [];
  const date = new Date().toISOString().slice(0, 10);
  const header = `\n## ${date}: ${database.driver}, ${total.toLocaleString("en")} live products${values.note ? ` (${values.note})` : ""}\n\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}. ${requests} requests per cell, page of 100, after one warm-up request.\n`;
  lines.push(header);
  if (!values["skip-search"]) lines.push("| expression | path | concurrency | p50 ms | p95 ms | p99 ms |", "|---|---|---|---|---|---|");
  // The gateway and the subgraph answer the REST route's own operation, so the paths differ only by their layers.
  const graphQuery = searchProductsRoute.operation;
  const subgraphQuery = graphQuery.replace("bookingEngine { name displayName }", "bookingEngine { id }");
  const variablesFor = (s: string) => ({ query: s, orderBy: { field: "TITLE", direction: "ASC" }, first: 100, after: null, externalClientId: null });
  const planLines: string[] = [];
  for (const [name, expression] of values["skip-search"] ? [] : Object.entries(expressions)) {
    const where = and(visibleToConsumers, compileSearch(parseSearch(expression), { language: "en" }))!;
    const paths: Record<string, () => Promise<void>> = {
      REST: async () => {
        const response = await fetch(`${service.url}/api/consumer/products?Search=${encodeURIComponent(expression)}`, { headers });
        if (response.status !== 200) throw new Error(`REST ${response.status}`);
        await response.arrayBuffer();
      },
      gateway: async () => {
        const response = await fetch(`${service.url}/graphql`, { method: "POST", headers, body: JSON.stringify({ query: graphQuery, variables: variablesFor(expression) }) });
        const body = (await response.json()) as { errors?: unknown[] };
        if (response.status !== 200 || body.errors) throw new Error(`gateway ${response.status} ${JSON.stringify(body.errors)}`);
      },
      // Subgraphs are not on HTTP in the single process: the subgraph is called as the gateway calls it.
      subgraph: async () => {
        const catalogue = service.edge!.subgraphs.catalogue!;
        const { errors } = await catalogue.executeInProcess({ query: subgraphQuery, variables: variablesFor(expression) }, await catalogue.createContext(headers));
        if (errors) throw new Error(`subgraph ${JSON.stringify(errors)}`);
      },
      "raw SQL": async () => {
        await productSearchRepository.page(database.db, rawPage(where));
      },
    };
    if (values.explain && config.databaseUrl) {
      const plans = await explainPage(config.databaseUrl, (db) => productSearchRepository.page(db, rawPage(where)));
      planLines.push("", `EXPLAIN (ANALYZE, BUFFERS) of ${name} \`${expression}\`, each statement of the raw SQL page:`, "", "```", ...plans, "```", "");
      console.log(plans.join("\n\n"));
    }
    for (const concurrency of [1, 16]) {
      for (const [path, run] of Object.entries(paths)) {
        await signIn();
        const result = await measure(concurrency, requests, run);
        lines.push(`| ${name} \`${expression}\` | ${path} | ${concurrency} | ${ms(result.p50)} | ${ms(result.p95)} | ${ms(result.p99)} |`);
        console.log(lines.at(-1));
      }
    }
  }

  lines.push(...planLines);

  if (values.export) {
    lines.push("", "| export | records | seconds | records per second |", "|---|---|---|---|");
    let started = performance.now();
    let url: string | null = `${service.url}/content/v0/import/activities/active?page[limit]=1000`;
    let exported = 0;
    await signIn();
    let signedInAt = Date.now();
    while (url) {
      if (Date.now() - signedInAt > 240_000) {
        await signIn();
        signedInAt = Date.now();
      }
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`import ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { data: unknown[]; meta: { links: { next: string } } };
      exported += body.data.length;
      url = body.meta.links.next || null;
    }
    let seconds = (performance.now() - started) / 1000;
    lines.push(`| import endpoint, page[limit]=1000, consumer in the service's process | ${exported} | ${seconds.toFixed(1)} | ${Math.round(exported / seconds)} |`);
    console.log(lines.at(-1));
    await signIn();
    const own = await exportInOwnProcess({ url: `${service.url}/content/v0/import/activities/active?page[limit]=1000`, token: headers.authorization.slice("Bearer ".length) });
    lines.push(`| import endpoint, page[limit]=1000, consumer in its own process (bench/export-client.ts) | ${own.records} | ${own.seconds.toFixed(1)} | ${Math.round(own.records / own.seconds)} |`);
    console.log(lines.at(-1));
    started = performance.now();
    let lastId = 0;
    let scanned = 0;
    for (;;) {
      const page = await database.db.select(productColumns).from(products).where(and(visibleToConsumers, gt(products.id, lastId))).orderBy(asc(products.id)).limit(1000);
      if (!page.length) break;
      JSON.stringify({ data: page });
      scanned += page.length;
      lastId = page.at(-1)!.id;
    }
    seconds = (performance.now() - started) / 1000;
    lines.push(`| raw keyset scan, 1000 rows a page, JSON | ${scanned} | ${seconds.toFixed(1)} | ${Math.round(scanned / seconds)} |`);
    console.log(lines.at(-1));
  }

  const size = total >= 1_000_000 ? `${Math.round(total / 1_000_000)}m` : total >= 1_000 ? `${Math.round(total / 1_000)}k` : `${total}`;
  console.log(`Written to ${writeRunResults(`search-${database.driver}-${size}`, lines.join("\n"), { date })}`);
  await service.close();
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import "reflect-metadata";
import os from "node:os";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, type Database } from "../drizzle/database.js";
import { freshBenchDatabase } from "./bench-database.js";
import { writeRunResults } from "./results-file.js";
import { accountOf, templateBooking } from "../test/support/reporting.js";
import { startStack, type Stack } from "../test/support/stack.js";

/**
 * Booking reports on PostgreSQL with generated bookings: REST list latency (p50/p95/p99) for each
 * documented filter at the maximum page size (500), for a consumer (one organisation's share) and
 * for a platform role (every organisation), then the CSV export rate in rows per second beside a
 * raw `COPY … TO STDOUT` of the same rows.
 *
 *   npm run bench:reporting -- [--bookings 1000000] [--organisations 20] [--requests 40]
 *     [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--no-append] [--keep-database] [--note TEXT]
 *
 * Writes its report to a new file, bench/results/<date>-reporting.md, unless --no-append.
 *
 * The bookings are copies of one booking made through the REST flow (real setup snapshot,
 * selections and answers), written by SQL into the booking table in slices of 100,000; the
 * reporting projection fills through its trigger as it would in service. Creation times are one
 * minute apart from 2025-01-01; statuses 70 % CONFIRMED, 15 % CANCELLED (confirmed, cancelled
 * 0 to 29 days later), 5 % PENDING_CONFIRM, 7 % REJECTED, 3 % REDEEMED; every tenth booking is a
 * sandbox one; 8 booking engines; 50,000 client ids; organisations in turn.
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    bookings: { type: "string", default: "1000000" },
    organisations: { type: "string", default: "20" },
    requests: { type: "string", default: "40" },
    "admin-url": { type: "string", default: process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    "no-append": { type: "boolean", default: false },
    "keep-database": { type: "boolean", default: false },
    note: { type: "string" },
  },
});

const TOTAL = Number(values.bookings);
const ORGANISATIONS = Number(values.organisations);
const REQUESTS = Number(values.requests);
const SLICE = 100_000;
const START = Date.parse("2025-01-01T00:00:00Z");
const MINUTE = 60_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
/** A month (30 days) starting on a random day of the generated span. */
function month(prefix: string): string {
  const from = START + Math.floor(Math.random() * (TOTAL * MINUTE - 30 * 86_400_000));
  return `${prefix}StartDate=${day(from)}&${prefix}EndDate=${day(from + 29 * 86_400_000)}`;
}

/** Each documented filter with a value drawn per request; codes and ids are the caller's own. */
const filters = (samples: Samples): [string, () => string][] => [
  ["(none)", () => ""],
  ["status=CONFIRMED", () => "status=CONFIRMED"],
  ["status=PENDING_CONFIRM", () => "status=PENDING_CONFIRM"],
  ["cancelled, a month", () => month("cancelled")],
  ["confirmed, a month", () => month("confirmed")],
  ["booked, a month", () => month("booked")],
  ["testMode=true", () => "testMode=true"],
  ["testMode=false", () => "testMode=false"],
  ["bookingCode", () => `bookingCode=${pick(samples.codes)}`],
  ["bookingExternalId", () => `bookingExternalId=${pick(samples.externalIds)}`],
  ["externalClientId", () => `externalClientId=${pick(samples.clients)}`],
  ["bookingEngineName", () => `bookingEngineName=ENGINE_${Math.floor(Math.random() * 8)}`],
];

interface Samples {
  codes: string[];
  externalIds: string[];
  clients: string[];
}

interface Caller {
  name: string;
  token: () => Promise<string>;
  /** The caller's view of booking_reports in SQL, for samples and the raw export. */
  visibility: string;
}

async function samplesOf(bench: postgres.Sql, visibility: string): Promise<Samples> {
  const rows = await bench.unsafe<{ booking_code: string; booking_external_id: string; external_client_id: string }[]>(
    `select booking_code, booking_external_id, external_client_id from booking_reports where ${visibility} and booking_code is not null order by random() limit 500`,
  );
  return { codes: rows.map((r) => r.booking_code), externalIds: rows.map((r) => r.booking_external_id), clients: rows.map((r) => r.external_client_id) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function generate(database: Database, templateId: string, consumers: { organisationId: number; accountId: string }[]) {
  const organisations = consumers.map((c, i) => `(${i}, ${c.organisationId}, '${c.accountId}'::uuid)`).join(", ");
  for (let from = 0; from < TOTAL; from += SLICE) {
    const to = Math.min(TOTAL, from + SLICE) - 1;
    const started = performance.now();
    await database.db.execute(
      sql.raw(`
      insert into bookings (
        id, availability_id, product_id, organisation_id, account_id, environment, reseller_ref, external_client_id,
        status, payment_status, language, currency, availability_date, starts_at, starts_at_local, engine_name, setup,
        selections, quantities, participants, total_retail, commission_rate, ends_at, answers, hold_expires_at,
        booking_code, booking_external_id, product_external_id, confirmed_at, voucher_created_at, cancelled_at,
        cancellation_reason, creation_date, update_date)
      select gen_random_uuid(), t.availability_id, t.product_id, o.organisation_id, o.account_id,
        (case when i % 10 = 0 then 'sandbox' else 'production' end)::environment_name, 'GEN' || i, 'client' || (i % 50000),
        g.status::booking_status, (case when g.status in ('CANCELLED', 'REJECTED') then 'REFUND' else 'PAID' end)::payment_status,
        t.language, t.currency, (g.booked + interval '20 days')::date, g.booked + interval '20 days', t.starts_at_local,
        'ENGINE_' || (i % 8), t.setup, t.selections, t.quantities, t.participants, 40 + (i % 200), 0.2,
        g.booked + interval '20 days 6 hours', '{}'::jsonb, g.booked + interval '1 hour',
        case when g.confirmed then 'BC' || lpad(i::text, 8, '0') end, case when g.confirmed then 'EX' || i end, t.product_external_id,
        case when g.confirmed then g.booked + interval '5 seconds' end, case when g.confirmed then g.booked + interval '5 seconds' end,
        case when g.status = 'CANCELLED' then g.booked + (i % 30) * interval '1 day' end,
        case when g.status = 'CANCELLED' then 'Generated' end, g.booked, g.booked
      from generate_series(${from}, ${to}) as i
      cross join (select * from bookings where id = '${templateId}') as t
      join (values ${organisations}) as o(n, organisation_id, account_id) on o.n = abs(hashint4(i)) % ${consumers.length}
      cross join lateral (
        select
          timestamptz '2025-01-01 00:00:00+00' + i * interval '1 minute' as booked,
          case when i % 100 < 70 then 'CONFIRMED' when i % 100 < 85 then 'CANCELLED' when i % 100 < 90 then 'PENDING_CONFIRM'
               when i % 100 < 97 then 'REJECTED' else 'REDEEMED' end as status,
          (i % 100 < 85 or i % 100 >= 97) as confirmed
      ) as g`),
    );
    console.log(`generated ${to + 1} bookings (${Math.round(performance.now() - started)} ms for this slice)`);
  }
}

async function listLatency(stack: Stack, caller: Caller, bench: postgres.Sql) {
  const rows: string[] = [];
  for (const [name, query] of filters(await samplesOf(bench, caller.visibility))) {
    const token = await caller.token();
    const times: number[] = [];
    let matched = 0;
    for (let i = 0; i < REQUESTS + 5; i++) {
      const started = performance.now();
      const response = await fetch(`${stack.url}/reporting/v1/bookings?page[limit]=500&${query()}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { meta: { count: number } };
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`${name}: ${response.status} ${JSON.stringify(body)}`);
      if (i >= 5) {
        times.push(elapsed);
        matched += body.meta.count;
      }
    }
    times.sort((a, b) => a - b);
    const line = `| ${caller.name} | ${name} | ${Math.round(matched / REQUESTS).toLocaleString("en")} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${percentile(times, 99).toFixed(1)} |`;
    console.log(line);
    rows.push(line);
  }
  return rows;
}

async function csvRate(stack: Stack, caller: Caller, databaseUrl: string) {
  const token = await caller.token();
  const started = performance.now();
  const response = await fetch(`${stack.url}/reporting/v1/bookings`, { headers: { authorization: `Bearer ${token}`, accept: "text/csv" } });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const restSeconds = (performance.now() - started) / 1000;
  // Its own connection, opened before the clock starts, as a client tool would hold one.
  const raw = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await raw`select 1`;
  const rawStarted = performance.now();
  const stream = await raw
    .unsafe(
      `copy (select booking_id, booking_code, booking_external_id, external_client_id, booking_engine_name, test_mode, status,
        to_char(booked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(confirmed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        to_char(voucher_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), to_char(cancelled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        to_char(activity_start_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), price_gross, currency, 'quick-connect', partner_channel_name, product_id
        from booking_reports where ${caller.visibility} order by booked_at, booking_id) to stdout with (format csv, header)`,
    )
    .readable();
  let rawLines = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) for (const byte of chunk) if (byte === 10) rawLines++;
  const rawSeconds = (performance.now() - rawStarted) / 1000;
  await raw.end();
  const rows = lines - 1;
  const line = `| ${caller.name} | ${rows.toLocaleString("en")} | ${(bytes / 1e6).toFixed(1)} MB | ${restSeconds.toFixed(1)} s | ${Math.round(rows / restSeconds).toLocaleString("en")} | ${(rawLines - 1).toLocaleString("en")} | ${rawSeconds.toFixed(1)} s | ${Math.round((rawLines - 1) / rawSeconds).toLocaleString("en")} |`;
  console.log(line);
  return line;
}

async function main() {
  const benchDatabase = await freshBenchDatabase(values["admin-url"], "bench_reporting");
  const { name: databaseName, url, version } = benchDatabase;
  let database: Database | undefined;
  let stack: Stack | undefined;
  const bench = postgres(url, { max: 1, onnotice: () => {} });
  try {
    database = await openDatabase({ databaseUrl: url, maxConnections: 10 });
    stack = await startStack({ database, env: { ENVIRONMENT: "production", WORKER_LOOPS: "false", DATABASE_URL: url } });
    const { bookingId } = await templateBooking(stack);
    const consumers: { organisationId: number; accountId: string }[] = [];
    const credentials: { username: string; password: string }[] = [];
    for (let i = 0; i < ORGANISATIONS; i++) {
      const account = await stack.createAccount("CONSUMER");
      const { id, organisationId } = await accountOf(database, account.username);
      credentials.push(account);
      consumers.push({ organisationId: organisationId!, accountId: id });
    }
    const generationStarted = performance.now();
    await generate(database, bookingId, consumers);
    const generationSeconds = (performance.now() - generationStarted) / 1000;
    await bench.unsafe("vacuum analyze bookings");
    await bench.unsafe("vacuum analyze booking_reports");
    const [{ reports, size }] = await bench<{ reports: string; size: string }[]>`
      select count(*)::text as reports, pg_size_pretty(pg_total_relation_size('booking_reports')) as size from booking_reports`;

    const operator = await stack.createAccount("OPERATOR");
    const s = stack;
    const consumerCaller: Caller = {
      name: "consumer (1 organisation)",
      token: async () => (await s.login(credentials[0].username, credentials[0].password)).access_token,
      visibility: `organisation_id = ${consumers[0].organisationId}`,
    };
    const platformCaller: Caller = { name: "platform (all)", token: async () => (await s.login(operator.username, operator.password)).access_token, visibility: "true" };
    const latency = [...(await listLatency(stack, consumerCaller, bench)), ...(await listLatency(stack, platformCaller, bench))];
    const exports = [await csvRate(stack, consumerCaller, url), await csvRate(stack, platformCaller, url)];

    const cpus = os.cpus();
    const date = new Date().toISOString().slice(0, 10);
    const report = [
      "",
      `## Booking reports (${date})`,
      "",
      `Machine: ${cpus.length} CPUs (${cpus[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${version} on the same machine. ` +
        `Service: role \`all\` in the bench's process (clients too), pool of 10 connections, fresh database \`${databaseName}\`${values["keep-database"] ? "" : " (dropped afterwards)"}.`,
      "",
      `\`npm run bench:reporting -- --bookings ${TOTAL} --organisations ${ORGANISATIONS} --requests ${REQUESTS}\``,
      "",
      `${Number(reports).toLocaleString("en")} reported bookings (of ${TOTAL.toLocaleString("en")} generated in ${generationSeconds.toFixed(0)} s through the projection trigger); booking_reports with its indexes: ${size}. ` +
        `The consumer's organisation holds 1/${ORGANISATIONS} of them. Each filter: ${REQUESTS} sequential requests after 5 warm-ups, values drawn per request; \`page[limit]=500\`; latency at the client, REST through the gateway to the reporting subgraph and back.`,
      ...(values.note ? ["", values.note] : []),
      "",
      "| Caller | Filter | Matches (mean) | p50 ms | p95 ms | p99 ms |",
      "|---|---|---:|---:|---:|---:|",
      ...latency,
      "",
      "CSV export (`Accept: text/csv`, every row, slices of 5,000 through the gateway, each slice one CSV string written by the reporting subgraph) beside `COPY (the same columns, visibility and order) TO STDOUT` read by one postgres.js connection:",
      "",
      "| Caller | Rows | Size | REST time | REST rows/s | Raw rows | Raw time | Raw rows/s |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      ...exports,
      "",
    ].join("\n");
    console.log(report);
    if (!values["no-append"]) console.log(`Written to ${writeRunResults("reporting", report, { date })}`);
  } finally {
    await stack?.close();
    await database?.close();
    await bench.end();
    await benchDatabase.close(values["keep-database"]);
  }
}

await main();

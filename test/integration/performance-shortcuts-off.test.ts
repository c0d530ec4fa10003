import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Config } from "../../core/config.js";
import { toGlobalId } from "../../core/global-id.js";
import { allShortcutsOff, allShortcutsOn, parseShortcutsOff } from "../../core/performance-shortcuts.js";
import { compiledStatementCounts } from "../../drizzle/compiled-select.js";
import { rows, type Database } from "../../drizzle/database.js";
import { driverQueueCounts } from "../../drizzle/driver-queue/choice.js";
import { rowMappingCounts } from "../../drizzle/row-mapping.js";
import { gatewayOperationCounts } from "../../gateway/operation-cache.js";
import { fastShapingCounts } from "../../gateway/result-shaping.js";
import { bookableAvailability, bookableProduct, consumer, newRef, validAnswers } from "../support/booking.js";
import { graphql, ManualClock, startStack, testConfig, type Stack } from "../support/stack.js";

/**
 * Every performance shortcut off (PERFORMANCE_SHORTCUTS_OFF=all): the same REST booking flow,
 * catalogue search and GraphQL reads as with them on give the same answers, and each shortcut's
 * own count shows it never ran, while the same counts move with the shortcuts on
 * (docs/performance-machinery.md). Each run's service opens its database from its configuration,
 * as `npm start` does, so the database's switches arrive through the same wiring; on PostgreSQL with
 * one connection a pool, so that pg_prepared_statements sees every statement of each pool.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
// Behind a transaction pooler nothing is ever prepared, shortcut or not.
const preparesStatements = onPostgres && !process.env.DATABASE_DIRECT_URL;

interface Counts {
  operations: { built: number; reused: number };
  shaping: { planned: number; shaped: number; handedBack: number };
  mapped: number;
  statements: { compiled: number; plain: number };
  queues: { bounded: number; original: number };
}

const counts = (): Counts => ({ operations: gatewayOperationCounts(), shaping: fastShapingCounts(), mapped: rowMappingCounts().mapped, statements: compiledStatementCounts(), queues: driverQueueCounts() });

interface Run {
  answers: Record<string, unknown>;
  /** What each process-wide count moved by over the run, the service's start included. */
  moved: Counts;
  edge: { pipeline: number; direct: number; clientDirect: number };
  subgraphs: { pipeline: number; direct: number };
  /** PostgreSQL: statements on the service's tables the pools' connections hold prepared. */
  prepared: string[];
}

/**
 * A service of its own, with its own database, on the configuration's switches, through the
 * scenario; stopped before the next run starts, so that no work of one shows in the other's counts.
 */
async function run(env: Record<string, string>): Promise<Run & { shortcuts: Config["performanceShortcuts"] }> {
  const before = counts();
  const clock = new ManualClock(new Date("2027-03-01T08:00:00Z"));
  // No database handed over: the service opens one from its configuration, as `npm start` does.
  const stack = await startStack({ database: undefined as unknown as Database, clock, env: { WORKER_LOOPS: "false", DATABASE_POOL_SIZE: "1", ...env } });
  try {
    const answers = await scenario(stack, clock);
    const after = counts();
    const edge = stack.service.edge!;
    const subgraphs = Object.values(edge.subgraphs).map((subgraph) => subgraph!.inProcessCounts);
    return {
      answers,
      shortcuts: stack.config.performanceShortcuts,
      moved: difference(after, before) as Counts,
      edge: { ...edge.graph.executeCounts, clientDirect: edge.graph.clientCounts.direct },
      subgraphs: { pipeline: subgraphs.reduce((sum, c) => sum + c.pipeline, 0), direct: subgraphs.reduce((sum, c) => sum + c.direct, 0) },
      prepared: preparesStatements ? await preparedStatements(stack.service.database) : [],
    };
  } finally {
    await stack.close();
  }
}

/** The booking flow through REST (booking-flow-rest.test.ts's first case), a catalogue search through REST, and two reads through GraphQL; each text twice where a second run takes another path. */
async function scenario(stack: Stack, clock: ManualClock): Promise<Record<string, unknown>> {
  const { productId, partner } = await bookableProduct(stack);
  const buyer = await consumer(stack);
  const base = `/booking-flow/v1/products/${productId}/availabilities`;
  const answers: Record<string, unknown> = {};
  answers.dates = (await buyer.rest.get(`${base}?startDate=2027-03-09&endDate=2027-03-12`)).body;
  answers.options = (await buyer.rest.get(`${base}/2027-03-10/options`)).body;
  const availability = await bookableAvailability(buyer.rest, productId, "2027-03-10", { time: "14:00", adults: 2, children: 1 });
  answers.availability = availability;
  const created = await buyer.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() }, { externalClientId: "traveller42" });
  answers.created = { status: created.status, body: created.body };
  const bookingId = created.body.id as string;
  const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${bookingId}/questions`, validAnswers(created.body));
  answers.answered = answered.body;
  answers.complete = (await buyer.rest.put(`/booking-flow/v1/bookings/${bookingId}/questions`, validAnswers(answered.body))).body;
  answers.confirmed = (await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`)).body;
  clock.advance(3);
  await stack.service.worker!.runOnce();
  answers.read = (await buyer.rest.get(`/booking-flow/v1/bookings/${bookingId}`)).body;

  const search = `/api/consumer/products?Search=${encodeURIComponent(`(title:matterhorn) AND bookingEngine:${partner.engineName}`)}`;
  answers.search = [(await buyer.rest.get(search)).body, (await buyer.rest.get(search)).body];
  const reads = [
    [`query ($id: ID!) { booking(id: $id) { status paymentStatus product { title { text } cityName rating } } }`, { id: toGlobalId("Booking", bookingId) }],
    [`query ($q: String!) { searchProducts(query: $q, first: 5) { totalCount { count precision } nodes { title { language text } cityName rating supplier { name } } } }`, { q: `bookingEngine:${partner.engineName}` }],
  ] as const;
  const gql = (query: string, variables: Record<string, unknown>) => graphql(`${stack.url}/graphql`, buyer.token, query, variables);
  answers.graphql = [];
  for (const [query, variables] of reads) (answers.graphql as unknown[]).push(await gql(query, variables), await gql(query, variables));
  return answers;
}

async function preparedStatements(database: Database): Promise<string[]> {
  const list = async (on: Database) => (await rows<{ statement: string }>(on.db, sql`select statement from pg_prepared_statements`)).map((row) => row.statement);
  const statements = [...(await list(database)), ...(await list(database.forKeyLookups))];
  return statements.filter((statement) => /"(bookings|availabilities|products|suppliers)"/.test(statement));
}

function difference(after: unknown, before: unknown): unknown {
  if (typeof after === "number") return after - (before as number);
  return Object.fromEntries(Object.entries(after as Record<string, unknown>).map(([key, value]) => [key, difference(value, (before as Record<string, unknown>)[key])]));
}

/**
 * Keys whose values each run makes anew (ids, references, links, codes, the made-up engines'
 * names, moments the database stamps, and what the account's cost bucket held, which refills
 * with the time between requests): the same value must come back under the same name wherever it
 * appeared first, so answers are compared up to a renaming of these, never of prices, statuses,
 * dates or texts.
 */
const MADE_PER_RUN = /^(id|.*Id|.*Ref|.*Url|bookingCode|resellerReference|bookingEngine|bookingEngineName|.*[Dd]ate[Tt]ime|createdAt|updatedAt|creationDate|updateDate|lastModified|currentlyAvailable)$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function canonical(value: unknown, names = new Map<unknown, string>(), key = ""): unknown {
  const nameOf = (made: unknown) => {
    if (!names.has(made)) names.set(made, `<made ${names.size + 1}>`);
    return names.get(made)!;
  };
  if (Array.isArray(value)) return value.map((item) => canonical(item, names, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonical(v, names, k)]));
  if (MADE_PER_RUN.test(key) && (typeof value === "string" || typeof value === "number")) return nameOf(value);
  // A UUID inside a text (a question's id, a link) is the run's too.
  if (typeof value === "string") return value.replace(UUID, (uuid) => nameOf(uuid.toLowerCase()));
  return value;
}

describe("the service with every performance shortcut off", () => {
  let on: Awaited<ReturnType<typeof run>>;
  let off: Awaited<ReturnType<typeof run>>;

  it("reads PERFORMANCE_SHORTCUTS_OFF: all, some by name, none; an unknown name is a problem", () => {
    expect(testConfig({ PERFORMANCE_SHORTCUTS_OFF: "all" }).performanceShortcuts).toEqual(allShortcutsOff);
    expect(testConfig().performanceShortcuts).toEqual(allShortcutsOn);
    expect(testConfig({ PERFORMANCE_SHORTCUTS_OFF: "row-mapping, driver-queue" }).performanceShortcuts).toEqual({ ...allShortcutsOn, "row-mapping": false, "driver-queue": false });
    expect(parseShortcutsOff("row-mapping,jit")).toEqual({ problem: expect.stringContaining("(not jit)") });
    expect(() => testConfig({ PERFORMANCE_SHORTCUTS_OFF: "everything" })).toThrow(/PERFORMANCE_SHORTCUTS_OFF="everything": must be all, or/);
  });

  it("answers the booking flow, the search and the GraphQL reads as it does with them on", async () => {
    on = await run({});
    off = await run({ PERFORMANCE_SHORTCUTS_OFF: "all" });
    expect(on.shortcuts).toEqual(allShortcutsOn);
    expect(off.shortcuts).toEqual(allShortcutsOff);
    expect((on.answers.read as { status: string }).status).toBe("CONFIRMED");
    expect((on.answers.search as { items: unknown[] }[])[0].items).toHaveLength(1);
    expect(canonical(off.answers)).toEqual(canonical(on.answers));
  }, 60_000);

  it("ran each shortcut with them on, and none of them with them off", () => {
    expect(on.moved.operations.reused).toBeGreaterThan(0);
    expect(on.moved.shaping.shaped).toBeGreaterThan(0);
    expect(on.edge.direct).toBeGreaterThan(0);
    expect(on.edge.clientDirect).toBeGreaterThan(0);
    expect(on.subgraphs.direct).toBeGreaterThan(0);
    expect(on.moved.mapped).toBeGreaterThan(0);
    expect(on.moved.statements.compiled).toBeGreaterThan(0);

    // The gateway's own Operation and shaping, Apollo Server's pipeline, drizzle's mapping and building.
    expect(off.moved.operations).toEqual({ built: 0, reused: 0 });
    expect(off.moved.shaping).toEqual({ planned: 0, shaped: 0, handedBack: 0 });
    expect(off.edge).toEqual({ pipeline: expect.any(Number), direct: 0, clientDirect: 0 });
    expect(off.edge.pipeline).toBeGreaterThan(0);
    expect(off.subgraphs.direct).toBe(0);
    expect(off.subgraphs.pipeline).toBeGreaterThan(0);
    expect(off.moved.mapped).toBe(0);
    expect(off.moved.statements.compiled).toBe(0);
    expect(off.moved.statements.plain).toBeGreaterThan(0);
  });

  // PGlite runs no statement prepared and has no postgres.js pool: those two shortcuts are PostgreSQL's.
  if (onPostgres) {
    it("on PostgreSQL, prepared no statement and built its pools with the driver's own queue", () => {
      expect(off.moved.queues.original).toBeGreaterThan(0);
      expect(on.moved.queues.original).toBe(0);
      expect(on.moved.queues.bounded).toBeGreaterThan(0);
      if (preparesStatements) {
        expect(on.prepared.length).toBeGreaterThan(0);
        expect(off.prepared).toEqual([]);
      }
    });
  } else {
    it("on the embedded database, built no postgres.js pool either way, so no queue of either kind", () => {
      expect(off.moved.queues).toEqual({ original: 0, bounded: 0 });
      expect(on.moved.queues).toEqual({ original: 0, bounded: 0 });
    });
  }
});

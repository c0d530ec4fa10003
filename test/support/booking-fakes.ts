import { randomUUID } from "node:crypto";
import DataLoader from "dataloader";
import type { Caller } from "../../core/caller.js";
import { ManualClock } from "../../core/clock.js";
import { instantOf, zonedText } from "../../core/local-time.js";
import type { Database, Executor } from "../../drizzle/database.js";
import type { Notice } from "../../drizzle/events.js";
import type { OctoEngines } from "../../subgraphs/common/octo/octo.engines.js";
import type { WebhookTargets } from "../../subgraphs/common/webhooks/webhook-endpoint.rules.js";
import type { AvailabilityRow } from "../../subgraphs/booking/availability/availability.repository.js";
import type { AvailabilityStore, BookingStore, BookingStores } from "../../subgraphs/booking/booking.stores.js";
import type { BookingRow } from "../../subgraphs/booking/booking/booking.repository.js";
import type { ProductFacts } from "../../subgraphs/booking/catalogue.facts.js";
import type { BookingEngineAdapter, ConfirmationOutcome, EngineBooking, HoldRequest, Slot, UpstreamHolds } from "../../subgraphs/booking/engines/booking.engine.js";
import { parseBookingSetup, type BookingSetup, type BookingSetupDocument } from "../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import type { BookingContext, BookingLoaders } from "../../subgraphs/booking/booking.loaders.js";

/*
 * The booking flow's world in memory, for the service tier: the stores (availabilities, bookings,
 * announcements), one engine that sells from a setup and a table of places, the catalogue's facts
 * and a manual clock, all passed to the real services through the request context. No database,
 * no graph: a step's every refusal is judged in milliseconds.
 */

/** A transaction handle nothing reads: the in-memory stores ignore it, as they ignore locks. */
const NO_SQL = new Proxy({}, { get: () => { throw new Error("the service tier runs no SQL: a step reached the database past its stores"); } }) as Executor;

const fakeDatabase = {
  db: { transaction: async <T>(work: (tx: Executor) => Promise<T>) => work(NO_SQL) },
} as unknown as Database;

/** Copies in and out, as a database does: a step that changes a row it read changes nothing stored. */
const copy = <T>(row: T): T => structuredClone(row);

export class MemoryAvailabilities implements AvailabilityStore {
  readonly rows = new Map<string, AvailabilityRow>();

  async insert(_db: Executor, row: Parameters<AvailabilityStore["insert"]>[1]): Promise<AvailabilityRow> {
    const stored: AvailabilityRow = { selections: {}, quantities: {}, currency: null, quotedTotal: null, createdAt: new Date(), organisationId: null, ...row } as AvailabilityRow;
    this.rows.set(stored.id, copy(stored));
    return copy(stored);
  }
  async byId(_db: Executor, id: string) {
    const row = this.rows.get(id);
    return row && copy(row);
  }
  async forUpdate(db: Executor, id: string) {
    return this.byId(db, id);
  }
  async update(_db: Executor, id: string, patch: Parameters<AvailabilityStore["update"]>[2]): Promise<AvailabilityRow> {
    const row = { ...this.rows.get(id)!, ...patch };
    this.rows.set(id, copy(row));
    return copy(row);
  }
}

export class MemoryBookings implements BookingStore {
  readonly rows = new Map<string, BookingRow>();
  readonly jobs: { bookingId: string; kind: string; runAt: Date }[] = [];

  async insert(_db: Executor, row: Parameters<BookingStore["insert"]>[1]): Promise<BookingRow> {
    const defaults = Object.fromEntries(
      ["commissionRate", "exchangeRates", "endsAt", "answersUpdatedAt", "answersRedactedAt", "bookingCode", "bookingExternalId", "confirmRequestedAt", "confirmedAt", "voucherCreatedAt", "supplierVoucherUrl", "supplierVoucherCode", "rejectedAt", "rejectionReason", "cancelledAt", "cancellationReason", "refundPercentage", "expiredAt", "externalClientId", "organisationId"].map((column) => [column, null]),
    );
    const stored = { ...defaults, answers: {}, ...row } as BookingRow;
    this.rows.set(stored.id, copy(stored));
    return copy(stored);
  }
  async byIds(_db: Executor, ids: readonly string[]) {
    return ids.flatMap((id) => (this.rows.has(id) ? [copy(this.rows.get(id)!)] : []));
  }
  async forUpdate(_db: Executor, id: string) {
    const row = this.rows.get(id);
    return row && copy(row);
  }
  async onAvailability(_db: Executor, availabilityId: string) {
    return [...this.rows.values()].filter((row) => row.availabilityId === availabilityId).map(copy);
  }
  async update(_db: Executor, id: string, patch: Parameters<BookingStore["update"]>[2]): Promise<BookingRow> {
    const row = { ...this.rows.get(id)!, ...patch } as BookingRow;
    this.rows.set(id, copy(row));
    return copy(row);
  }
  async transition(db: Executor, id: string, from: BookingRow["status"], patch: Parameters<BookingStore["update"]>[2]) {
    return this.rows.get(id)?.status === from ? this.update(db, id, patch) : undefined;
  }
  async addJob(_db: Executor, bookingId: string, kind: string, runAt: Date): Promise<void> {
    this.jobs.push({ bookingId, kind, runAt });
  }
}

/**
 * An engine that sells each product from its setup, its start times every day, with a table of
 * places per start; a supplier's hold (`upstream`) when the world is made with one.
 */
export class TableEngine implements BookingEngineAdapter {
  readonly name = "table";
  readonly setups = new Map<number, BookingSetup>();
  /** Places left by product and start instant; a start not listed has the setup's capacity. */
  readonly places = new Map<string, number>();
  readonly cancelled: { bookingId: string; reason: string }[] = [];
  /** What the supplier answers a cancellation: nothing (done), or the refusal it throws. */
  cancelRefusal: Error | undefined;
  upstream?: UpstreamHolds;

  private key = (productId: number, startsAt: Date) => `${productId}@${startsAt.toISOString()}`;
  placesLeft(productId: number, startsAt: Date): number {
    return this.places.get(this.key(productId, startsAt)) ?? this.setups.get(productId)!.capacityPerSlot;
  }

  async setupOf(_db: Executor, product: ProductFacts) {
    return this.setups.get(product.id);
  }
  async slots(_db: Executor, product: ProductFacts, setup: BookingSetup, date: string, now: Date): Promise<Slot[]> {
    return (setup.startTimes ?? ["00:00"])
      .map((time) => {
        const startsAt = instantOf(date, time, setup.timeZone);
        return { startsAt, time, local: zonedText(startsAt, setup.timeZone), remaining: this.placesLeft(product.id, startsAt) };
      })
      .filter((slot) => slot.startsAt > now);
  }
  async availableDates(db: Executor, product: ProductFacts, setup: BookingSetup, from: string, to: string, now: Date): Promise<string[]> {
    const dates: string[] = [];
    for (let day = new Date(`${from}T00:00:00Z`); day.toISOString().slice(0, 10) <= to; day = new Date(day.getTime() + 86_400_000)) {
      const date = day.toISOString().slice(0, 10);
      if ((await this.slots(db, product, setup, date, now)).some((slot) => slot.remaining >= setup.minParticipants)) dates.push(date);
    }
    return dates;
  }
  async reserve(_tx: Executor, product: ProductFacts, _setup: BookingSetup, startsAt: Date, places: number): Promise<boolean> {
    const left = this.placesLeft(product.id, startsAt);
    if (left < places) return false;
    this.places.set(this.key(product.id, startsAt), left - places);
    return true;
  }
  async release(_tx: Executor, productId: number, startsAt: Date, places: number): Promise<void> {
    this.places.set(this.key(productId, startsAt), this.placesLeft(productId, startsAt) + places);
  }
  async confirm(): Promise<ConfirmationOutcome> {
    return { outcome: "CONFIRMED", bookingCode: `T${randomUUID().slice(0, 8)}`, bookingExternalId: randomUUID() };
  }
  async cancel(_db: Executor, booking: EngineBooking, reason: string): Promise<void> {
    if (this.cancelRefusal) throw this.cancelRefusal;
    this.cancelled.push({ bookingId: booking.id, reason });
  }
}

/**
 * A supplier that holds places in its own system (as an OCTO engine's does): it holds for as long
 * as `holdFor` says, and answers holds and extensions as the test scripts them.
 */
export class SupplierHolds implements UpstreamHolds {
  holdFor = 3600_000;
  /** What the next hold throws instead of holding. */
  holdRefusal: Error | undefined;
  /** What the next extension throws instead of extending. */
  extendRefusal: Error | undefined;
  readonly held: string[] = [];
  readonly released: string[] = [];

  async hold(request: HoldRequest): Promise<{ expiresAt: Date }> {
    if (this.holdRefusal) throw this.holdRefusal;
    this.held.push(request.bookingId);
    return { expiresAt: new Date(request.now.getTime() + this.holdFor) };
  }
  async extend(_booking: EngineBooking, until: Date): Promise<{ expiresAt: Date }> {
    if (this.extendRefusal) throw this.extendRefusal;
    return { expiresAt: until };
  }
  async release(booking: Pick<EngineBooking, "id">): Promise<void> {
    this.released.push(booking.id);
  }
  async settle(): Promise<ConfirmationOutcome | undefined> {
    return undefined;
  }
}

export interface BookingWorld {
  clock: ManualClock;
  engine: TableEngine;
  availabilities: MemoryAvailabilities;
  bookings: MemoryBookings;
  /** Every status announced, in order: `${bookingId} ${status}`. */
  announced: string[];
  products: Map<number, ProductFacts>;
  stores: BookingStores;
  /** A request's context for a caller of this organisation (a consumer with the booking scope unless told otherwise). */
  ctx(caller?: Partial<Caller>, languages?: string[]): BookingContext;
  /** Sells a product from this setup; its id. */
  product(setup: BookingSetupDocument, facts?: Partial<ProductFacts>): number;
}

const VOUCHER_SECRET = Buffer.alloc(32, 7);

export function bookingWorld(start = new Date("2026-12-01T08:00:00Z")): BookingWorld {
  const clock = new ManualClock(start);
  const engine = new TableEngine();
  const availabilities = new MemoryAvailabilities();
  const bookings = new MemoryBookings();
  const announced: string[] = [];
  const products = new Map<number, ProductFacts>();
  const stores: BookingStores = {
    availabilities,
    bookings,
    engine: () => engine,
    announce: async (_tx: Executor, row: BookingRow, _also?: readonly Notice[]) => {
      announced.push(`${row.id} ${row.status}`);
    },
    voucherSecret: async () => VOUCHER_SECRET,
  };
  let nextProduct = 1000;
  const world: BookingWorld = {
    clock,
    engine,
    availabilities,
    bookings,
    announced,
    products,
    stores,
    product(document, facts = {}) {
      const parsed = parseBookingSetup(document);
      if (!parsed.setup) throw new Error(`the test's setup is refused: ${JSON.stringify(parsed.problems)}`);
      const id = nextProduct++;
      engine.setups.set(id, parsed.setup);
      products.set(id, {
        id,
        supplierId: 1,
        externalId: `P${id}`,
        title: { en: `Product ${id}` },
        supplierName: "Supplier",
        scopeEngineId: 1,
        bookingEngineName: "table",
        bookingEngineKind: "INVENTORY",
        availabilityPeriods: null,
        deprecated: false,
        duration: "PT2H",
        estCommFrpricePerc: null,
        estCommNet: null,
        minPrice: null,
        ...facts,
      });
      return id;
    },
    ctx(caller = {}, languages = ["en"]) {
      const who: Caller = {
        accountId: "00000000-0000-4000-8000-000000000001",
        username: "consumer",
        roles: ["CONSUMER"],
        scopes: ["booking"],
        organisationId: 1,
        environment: "sandbox",
        sessionId: "session",
        authTime: clock.now(),
        expiresAt: new Date(clock.now().getTime() + 3600_000),
        ...caller,
      } as Caller;
      const loaders: BookingLoaders = {
        catalogue: {
          product: new DataLoader(async (ids) => ids.map((id) => products.get(id))),
          organisationEngine: new DataLoader(async (ids) => ids.map(() => null)),
        },
        announceBookingFlows: async () => {},
        booking: new DataLoader(async (ids) => bookings.byIds(NO_SQL, ids).then((rows) => ids.map((id) => rows.find((row) => row.id === id)))),
        octo: undefined as unknown as OctoEngines,
        webhookTargets: undefined as unknown as WebhookTargets,
        stores,
      };
      return { caller: who, requestId: randomUUID(), languages, database: fakeDatabase, loaders, clock, publicUrl: "https://activities.test", accountExists: async () => true };
    },
  };
  return world;
}

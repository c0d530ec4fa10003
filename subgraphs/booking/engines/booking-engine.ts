import type { Executor } from "../../../drizzle/database.js";
import type { ProductFacts } from "../catalogue-facts.js";
import type { BookingSetup } from "./inventory/booking-setup.js";

/** A start time of a product on a date, with the places left. */
export interface Slot {
  startsAt: Date;
  /** Local wall time, HH:MM. */
  time: string;
  /** "2026-12-01T09:00:00+01:00[Europe/Paris]" */
  local: string;
  remaining: number;
}

/** What a supplier is asked to confirm or cancel. */
export interface EngineBooking {
  id: string;
  productId: number;
  productExternalId: string;
  startsAt: Date;
  participants: number;
  quantities: Record<string, number>;
  selections: Record<string, string>;
}

export type ConfirmationOutcome =
  | { outcome: "CONFIRMED"; bookingCode: string; bookingExternalId: string }
  | { outcome: "REJECTED"; reason: string };

/** A failure worth retrying (timeouts, 5xx of a remote supplier): the job runs again later. */
export class TransientEngineError extends Error {
  override name = "TransientEngineError";
}

/**
 * One upstream system that books products: the built-in inventory or a remote supplier system.
 * The booking flow speaks only to this interface. A product's options, tickets, questions and
 * cancellation tiers come in the setup shape whichever engine sells it.
 */
export interface BookingEngineAdapter {
  readonly name: string;
  /** The product's setup, or undefined when this engine cannot sell the product. */
  setupOf(db: Executor, product: ProductFacts): Promise<BookingSetup | undefined>;
  /** Dates from `from` to `to` (inclusive, local) with at least one slot that can take the minimum party. */
  availableDates(db: Executor, product: ProductFacts, setup: BookingSetup, from: string, to: string, now: Date): Promise<string[]>;
  /** Slots on a local date that have not started yet. */
  slots(db: Executor, product: ProductFacts, setup: BookingSetup, date: string, now: Date): Promise<Slot[]>;
  /** Holds places in the caller's transaction; false when the slot has fewer left. */
  reserve(tx: Executor, product: ProductFacts, setup: BookingSetup, startsAt: Date, places: number): Promise<boolean>;
  /** Gives held places back, in the caller's transaction. */
  release(tx: Executor, productId: number, startsAt: Date, places: number): Promise<void>;
  /** Asks the supplier to confirm; idempotent per booking id, since a job may run it twice. `product` is undefined once the supplier deleted it. */
  confirm(db: Executor, booking: EngineBooking, product: ProductFacts | undefined): Promise<ConfirmationOutcome>;
  /** Tells the supplier a confirmed booking is cancelled; idempotent per booking id. */
  cancel(db: Executor, booking: EngineBooking): Promise<void>;
}

/** Adapters by booking engine name; the built-in inventory sells any product with a booking setup. */
export class EngineRegistry {
  constructor(
    private readonly fallback: BookingEngineAdapter,
    private readonly byName: Map<string, BookingEngineAdapter> = new Map(),
  ) {}

  for(engineName: string): BookingEngineAdapter {
    return this.byName.get(engineName) ?? this.fallback;
  }

  /** Tests route one engine name to a fault-injecting adapter. */
  register(engineName: string, adapter: BookingEngineAdapter): void {
    this.byName.set(engineName, adapter);
  }
}

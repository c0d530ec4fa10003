import type { FieldProblem } from "../../../core/errors.js";
import type { Executor } from "../../../drizzle/database.js";
import type { OctoEngines } from "../../common/octo/octo.engines.js";
import type { AvailabilitySetup } from "../availability/availability.view.js";
import type { BookingRefusal } from "../booking.errors.js";
import type { ProductFacts } from "../catalogue.facts.js";
import type { BookingSetup } from "./inventory/booking-setup.schema.js";

/** A start time of a product on a date, with the places left. */
export interface Slot {
  startsAt: Date;
  /** Local wall time, HH:MM. */
  time: string;
  /** "2026-12-01T09:00:00+01:00[Europe/Paris]" */
  local: string;
  remaining: number;
  /** The choice of the setup's `remote.optionKey` this slot belongs to (a supplier's option); absent: every choice. */
  choice?: string;
  /** The supplier's id of the slot (OCTO's availabilityId). */
  ref?: string;
  /** The supplier's price of one of each unit at this departure, in the setup's currency; absent: the setup's prices. */
  unitPrices?: Record<string, number>;
  /** The supplier's price of a booking at this departure (per-booking pricing) and its limits of one booking here. */
  terms?: { fee?: number; maxUnits?: number; maxPax?: number };
}

/** The lead traveller, from the answers to the customer questions of these keys (remote engines ask them). */
export interface EngineContact {
  firstName?: string;
  lastName?: string;
  emailAddress?: string;
  phoneNumber?: string;
  postalCode?: string;
  country?: string;
}

/** What a supplier is asked to confirm or cancel. */
export interface EngineBooking {
  id: string;
  engineName: string;
  productId: number;
  productExternalId: string;
  startsAt: Date;
  participants: number;
  quantities: Record<string, number>;
  selections: Record<string, string>;
  setup: AvailabilitySetup;
  resellerRef: string;
  contact: EngineContact;
  /**
   * The answers a supplier asks for, by question key: the booking's top-level ones, and per
   * ticket (in the order of the held tickets) its unit and its holder's.
   */
  questionAnswers: { booking: Record<string, string>; tickets: { unit: string; answers: Record<string, string> }[] };
}

export type ConfirmationOutcome =
  | {
      outcome: "CONFIRMED";
      bookingCode: string;
      bookingExternalId: string;
      /** The supplier's own voucher: a document's URL, and the code its ticket is scanned by. */
      voucher?: { url?: string; code?: string };
    }
  | { outcome: "REJECTED"; reason: string };

/** A failure worth retrying (timeouts, 5xx of a remote supplier): the job runs again later. */
export class TransientEngineError extends Error {
  override name = "TransientEngineError";
}

/**
 * The supplier refused in a way the flow has a refusal for (sold out, a price that changed, a
 * hold that lapsed): the caller answers with that refusal and changes nothing.
 */
export class EngineRefusal extends Error {
  override name = "EngineRefusal";
  constructor(
    readonly reason: BookingRefusal,
    message: string,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/** What an engine that holds places in its own system is asked to hold. */
export interface HoldRequest {
  /** Our booking id, which the supplier keeps as its uuid: a retried hold is the same hold. */
  bookingId: string;
  product: ProductFacts;
  /** The availability's setup: its departure's prices are the ones quoted. */
  setup: AvailabilitySetup;
  slot: Slot;
  selections: Record<string, string>;
  quantities: Record<string, number>;
  resellerRef: string;
  /** The end of our hold; the supplier may keep the places for less. */
  until: Date;
  now: Date;
}

/**
 * Places held in the supplier's own system. A network call must not run inside a database
 * transaction (the embedded database runs one at a time), so the flow calls these around its
 * transactions: hold before the booking is written, release when it is dropped.
 */
export interface UpstreamHolds {
  /** Holds the places; answers when the supplier lets them go. Throws EngineRefusal or TransientEngineError. */
  hold(request: HoldRequest): Promise<{ expiresAt: Date }>;
  /** Keeps the places until `until` (or as long as the supplier allows); EngineRefusal BOOKING_EXPIRED once the hold has lapsed. */
  extend(booking: EngineBooking, until: Date, now: Date): Promise<{ expiresAt: Date }>;
  /** Lets a hold go that no booking of ours will use; never throws (a hold lapses on its own). */
  release(booking: Pick<EngineBooking, "id" | "engineName">, reason: string): Promise<void>;
  /**
   * What became of a confirmation that kept failing: CONFIRMED if the supplier did confirm, REJECTED
   * once it certainly did not (a hold still open is released first), undefined while it cannot tell.
   */
  settle(booking: EngineBooking): Promise<ConfirmationOutcome | undefined>;
}

/**
 * One upstream system that books products: the built-in inventory or a remote supplier system.
 * The booking flow speaks only to this interface. A product's options, tickets, questions and
 * cancellation tiers come in the setup shape whichever engine sells it.
 */
export interface BookingEngineAdapter {
  readonly name: string;
  /** The product's setup, or undefined when this engine cannot sell the product; a supplier's texts in `language` where it has them. */
  setupOf(db: Executor, product: ProductFacts, language?: string): Promise<BookingSetup | undefined>;
  /** Dates from `from` to `to` (inclusive, local) with at least one slot that can take the minimum party. */
  availableDates(db: Executor, product: ProductFacts, setup: BookingSetup, from: string, to: string, now: Date): Promise<string[]>;
  /** Slots on a local date that have not started yet. */
  slots(db: Executor, product: ProductFacts, setup: BookingSetup, date: string, now: Date): Promise<Slot[]>;
  /** Present when places are held in the supplier's system; reserve and release then hold nothing. */
  readonly upstream?: UpstreamHolds;
  /** Holds places in the caller's transaction; false when the slot has fewer left. */
  reserve(tx: Executor, product: ProductFacts, setup: BookingSetup, startsAt: Date, places: number): Promise<boolean>;
  /** Gives held places back, in the caller's transaction. */
  release(tx: Executor, productId: number, startsAt: Date, places: number): Promise<void>;
  /** Asks the supplier to confirm; idempotent per booking id, since a job may run it twice. `product` is undefined once the supplier deleted it. */
  confirm(db: Executor, booking: EngineBooking, product: ProductFacts | undefined): Promise<ConfirmationOutcome>;
  /**
   * Tells the supplier a confirmed booking is cancelled, and why, before the flow records it
   * (EngineRefusal when the supplier will not); idempotent per booking id.
   */
  cancel(db: Executor, booking: EngineBooking, reason: string): Promise<void>;
}

/**
 * Adapters by booking engine: an OCTO engine's products are booked in the supplier's system
 * through its registered connection, every other engine's through the built-in inventory.
 */
export class EngineRegistry {
  private readonly remote = new WeakMap<OctoEngines, BookingEngineAdapter>();

  constructor(
    private readonly fallback: BookingEngineAdapter,
    private readonly octoAdapter: (octo: OctoEngines) => BookingEngineAdapter,
    private readonly byName: Map<string, BookingEngineAdapter> = new Map(),
  ) {}

  /** The adapter of an engine of this kind; `octo` is the service's OCTO connections. */
  for(engineName: string, kind: string, octo: OctoEngines | undefined): BookingEngineAdapter {
    const registered = this.byName.get(engineName);
    if (registered) return registered;
    if (kind !== "OCTO") return this.fallback;
    if (!octo) throw new Error(`Engine ${engineName} is an OCTO engine, and this process has no OCTO connections`);
    let adapter = this.remote.get(octo);
    if (!adapter) this.remote.set(octo, (adapter = this.octoAdapter(octo)));
    return adapter;
  }

  /** Tests route one engine name to a fault-injecting adapter. */
  register(engineName: string, adapter: BookingEngineAdapter): void {
    this.byName.set(engineName, adapter);
  }
}

import type { Database, Executor } from "../../drizzle/database.js";
import type { Notice } from "../../drizzle/events.js";
import { serviceSecret } from "../../drizzle/service-secret.js";
import type { OctoEngines } from "../common/octo/octo.engines.js";
import { availabilityRepository } from "./availability/availability.repository.js";
import { announceStatus, VOUCHER_SECRET } from "./booking/booking.view.js";
import { bookingRepository, type BookingRow } from "./booking/booking.repository.js";
import type { BookingEngineAdapter } from "./engines/booking.engine.js";
import { engineRegistry } from "./engines/engine.registry.js";

/** What the flow's steps do with availabilities: no more, so that a fake needs no more. */
export type AvailabilityStore = Pick<typeof availabilityRepository, "insert" | "byId" | "forUpdate" | "update">;
/** What the flow's steps do with bookings. */
export type BookingStore = Pick<typeof bookingRepository, "insert" | "byIds" | "forUpdate" | "onAvailability" | "update" | "transition" | "addJob">;

/**
 * Everything the booking flow's steps keep, call and tell, besides the catalogue's facts: the
 * tables they own, the engines that sell products, the news of a booking's new status, and the
 * secret voucher links are signed with. The subgraph's are the database's (`databaseStores`); the
 * service tests pass in-memory ones through the context, and so judge every refusal of every step
 * without a database.
 */
export interface BookingStores {
  availabilities: AvailabilityStore;
  bookings: BookingStore;
  /** The adapter of an engine of this kind: a supplier's system for OCTO engines, else the built-in inventory. */
  engine(engineName: string, kind: string): BookingEngineAdapter;
  /** Tells subscribers, webhook endpoints and jobs of a booking's status, in the step's transaction. */
  announce(tx: Executor, row: BookingRow, also?: readonly Notice[]): Promise<void>;
  voucherSecret(db: Executor): Promise<Buffer>;
}

export function databaseStores(database: Database, octo: OctoEngines | undefined): BookingStores {
  return {
    availabilities: availabilityRepository,
    bookings: bookingRepository,
    engine: (engineName, kind) => engineRegistry.for(engineName, kind, octo),
    announce: (tx, row, also) => announceStatus(database, tx, row, also),
    voucherSecret: (db) => serviceSecret(db, VOUCHER_SECRET),
  };
}

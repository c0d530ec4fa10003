import DataLoader from "dataloader";
import type { Database } from "../../drizzle/database.js";
import type { SubgraphContext } from "../common/context.js";
import { byKey } from "../common/loaders.js";
import { bookingRepository, type BookingRow } from "./booking/booking.repository.js";
import { bookingEngineRepository, type BookingEngineRow } from "./booking-engine/booking-engine.repository.js";

export interface BookingLoaders {
  bookingEngine: DataLoader<number, BookingEngineRow | undefined>;
  booking: DataLoader<string, BookingRow | undefined>;
}

export type BookingContext = SubgraphContext<BookingLoaders>;

export function bookingLoaders(database: Database): BookingLoaders {
  return {
    bookingEngine: new DataLoader(async (ids) =>
      byKey(ids, await bookingEngineRepository.byIds(database.db, ids), (row) => row.id),
    ),
    booking: new DataLoader(async (ids) => byKey(ids, await bookingRepository.byIds(database.db, ids), (row) => row.id)),
  };
}

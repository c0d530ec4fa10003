import DataLoader from "dataloader";
import type { OctoEngines } from "../common/octo/octo.engines.js";
import type { WebhookTargets } from "../common/webhooks/webhook-endpoint.rules.js";
import type { Database } from "../../drizzle/database.js";
import type { Caller } from "../../core/caller.js";
import type { LoaderDeps, SubgraphContext } from "../common/subgraph.context.js";
import { announceBookingFlows } from "./booking-flow/booking-flow.announcements.js";
import { catalogueFacts, type CatalogueFacts } from "./catalogue.facts.js";
import { byKey } from "../common/common.loaders.js";
import { bookingRepository, type BookingRow } from "./booking/booking.repository.js";
import { databaseStores, type BookingStores } from "./booking.stores.js";

export interface BookingLoaders {
  /** What the catalogue knows of products and organisations, asked through the graph. */
  catalogue: CatalogueFacts;
  /** Tells the catalogue, after commit, the booking flow changes this request made. */
  announceBookingFlows: (productIds: number[]) => Promise<void>;
  booking: DataLoader<string, BookingRow | undefined>;
  /** The service's OCTO connections: products of OCTO engines are booked in the supplier's system. */
  octo: OctoEngines;
  /** Which URLs webhook endpoints may name. */
  webhookTargets: WebhookTargets;
  /** The flow's tables, engines and announcements (in-memory ones in the service tests). */
  stores: BookingStores;
}

export type BookingContext = SubgraphContext<BookingLoaders>;

export function bookingLoaders(database: Database, _caller: Caller, deps: LoaderDeps): BookingLoaders {
  return {
    catalogue: catalogueFacts(deps.graphs("booking")),
    announceBookingFlows: async (productIds) => {
      // The worker tells whatever this could not: the change is already committed.
      await announceBookingFlows({ database, graphs: deps.graphs, logger: deps.logger, now: () => deps.clock.now() }, productIds).catch((error: unknown) =>
        deps.logger.warn({ err: error, productIds }, "could not tell the catalogue about a booking flow change now; the worker will"),
      );
    },
    booking: new DataLoader(async (ids) => byKey(ids, await bookingRepository.byIds(database.db, ids), (row) => row.id)),
    octo: deps.octo,
    webhookTargets: deps.webhookTargets,
    stores: databaseStores(database, deps.octo),
  };
}

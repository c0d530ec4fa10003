import type { GraphQLSchema } from "graphql";
import type { Caller } from "../core/caller.js";
import type { Database } from "../drizzle/database.js";
import type { LoaderDeps } from "./common/context.js";
import { bookingLoaders, buildBookingSchema } from "./booking/booking.subgraph.js";
import { buildCatalogueSchema, catalogueLoaders } from "./catalogue/catalogue.subgraph.js";
import { buildReportingSchema, reportingLoaders } from "./reporting/reporting.subgraph.js";

export const subgraphNames = ["catalogue", "booking", "reporting"] as const;
export type SubgraphName = (typeof subgraphNames)[number];

export interface SubgraphDefinition {
  name: SubgraphName;
  buildSchema: () => Promise<GraphQLSchema>;
  makeLoaders: (database: Database, caller: Caller, deps: LoaderDeps) => unknown;
  /**
   * Every statement of the subgraph finds its rows by key, so it runs on the database's
   * `forKeyLookups` connections, where PostgreSQL may reuse a generic plan. Not for a subgraph
   * with one statement whose plan depends on its values (search, report filters).
   */
  findsRowsByKey: boolean;
}

/** The three subgraphs; the gateway, the schema writer and the role launcher all read this list. */
export const subgraphDefinitions: Record<SubgraphName, SubgraphDefinition> = {
  catalogue: { name: "catalogue", buildSchema: buildCatalogueSchema, makeLoaders: catalogueLoaders, findsRowsByKey: false },
  booking: { name: "booking", buildSchema: buildBookingSchema, makeLoaders: bookingLoaders, findsRowsByKey: true },
  reporting: { name: "reporting", buildSchema: buildReportingSchema, makeLoaders: reportingLoaders, findsRowsByKey: false },
};

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
}

/** The three subgraphs; the gateway, the schema writer and the role launcher all read this list. */
export const subgraphDefinitions: Record<SubgraphName, SubgraphDefinition> = {
  catalogue: { name: "catalogue", buildSchema: buildCatalogueSchema, makeLoaders: catalogueLoaders },
  booking: { name: "booking", buildSchema: buildBookingSchema, makeLoaders: bookingLoaders },
  reporting: { name: "reporting", buildSchema: buildReportingSchema, makeLoaders: reportingLoaders },
};

import type { GraphQLSchema } from "graphql";
import type { Caller } from "../core/caller.js";
import type { Database } from "../drizzle/database.js";
import type { LoaderDeps } from "./common/subgraph.context.js";
import { bookingLoaders, bookingNodeTypes, buildBookingSchema } from "./booking/booking.subgraph.js";
import { buildCatalogueSchema, catalogueLoaders, catalogueNodeTypes } from "./catalogue/catalogue.subgraph.js";
import { buildReportingSchema, reportingLoaders, reportingNodeTypes } from "./reporting/reporting.subgraph.js";
import { nodeSubgraph } from "./node/node.subgraph.js";

export const subgraphNames = ["catalogue", "booking", "reporting", "node"] as const;
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
  /**
   * Root query fields whose answers may lag the primary by the replica's lag: a caller's query
   * selecting only these runs on the read replica (DATABASE_READ_URL) while it serves. Reads of
   * what the caller may just have written (a partner's own suppliers and products, booking setup),
   * change detection and cursors, the booking flow, and every call between subgraphs stay on
   * the primary (docs/operations.md, "Read replicas").
   */
  readsTolerateLag: ReadonlySet<string>;
}

/** The subgraphs; the gateway, the schema writer and the role launcher all read this list. */
export const subgraphDefinitions: Record<SubgraphName, SubgraphDefinition> = {
  catalogue: {
    name: "catalogue",
    buildSchema: buildCatalogueSchema,
    makeLoaders: catalogueLoaders,
    findsRowsByKey: false,
    readsTolerateLag: new Set(["searchProducts", "product", "taxonomy", "recommendations", "topActivities"]),
  },
  booking: { name: "booking", buildSchema: buildBookingSchema, makeLoaders: bookingLoaders, findsRowsByKey: true, readsTolerateLag: new Set() },
  reporting: {
    name: "reporting",
    buildSchema: buildReportingSchema,
    makeLoaders: reportingLoaders,
    findsRowsByKey: false,
    readsTolerateLag: new Set(["bookingReports", "bookingReport"]),
  },
  // Decodes global ids and answers which entities the caller may see; their owners answer the rest.
  node: { name: "node", ...nodeSubgraph([...catalogueNodeTypes, ...bookingNodeTypes, ...reportingNodeTypes]), findsRowsByKey: true, readsTolerateLag: new Set() },
};

import type { GraphQLSchema } from "graphql";
import { buildFederatedSchema } from "../common/build-subgraph.js";
import { ReportingAccessResolver } from "./reporting-access/reporting-access.resolver.js";

/** The reporting subgraph: the caller's reporting scope now; booking reports next. */
export function buildReportingSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([ReportingAccessResolver]);
}

export const reportingLoaders = (): Record<string, never> => ({});

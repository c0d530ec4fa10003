import type { GraphQLSchema } from "graphql";
import { buildFederatedSchema } from "../common/build-subgraph.js";
import type { CatalogueContext } from "./loaders.js";
import { toOrganisation } from "./organisation/organisation.service.js";
import { OrganisationResolver } from "./organisation/organisation.resolver.js";
import { notFound } from "../../core/errors.js";

export { catalogueLoaders } from "./loaders.js";

/** The catalogue subgraph: organisations and accounts now; suppliers, products and taxonomy next. */
export function buildCatalogueSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([OrganisationResolver], {
    Organisation: {
      async __resolveReference(reference: { id: number }, ctx: CatalogueContext) {
        const row = await ctx.loaders.organisation.load(reference.id);
        if (!row) throw notFound(`Organisation ${reference.id} not found`);
        return toOrganisation(row);
      },
    },
  });
}

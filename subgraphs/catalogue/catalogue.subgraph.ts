import type { GraphQLSchema } from "graphql";
import { notFound } from "../../core/errors.js";
import { buildFederatedSchema } from "../common/build-subgraph.js";
import { BookingEngineResolver } from "./booking-engine/booking-engine.resolver.js";
import { LocalizedTextResolver } from "./language/localized-text.js";
import type { CatalogueContext } from "./loaders.js";
import { OrganisationResolver } from "./organisation/organisation.resolver.js";
import { toOrganisation } from "./organisation/organisation.service.js";
import { ProductResolver } from "./product/product.resolver.js";
import { BookingProductFactsResolver } from "./product/booking-facts.js";
import { toProduct } from "./product/product.service.js";
import { ActiveActivityPageResolver, ActivityImportResolver } from "./import/activity-import.js";
import { OctoImportResolver } from "./import/octo-import.resolver.js";
import { RecommendationResolver } from "./recommendation/recommendation.resolver.js";
import { ProductChangesResolver } from "./search/product-changes.js";
import { CatalogueConsumerResolver } from "./search/search.resolver.js";
import { SupplierResolver } from "./supplier/supplier.resolver.js";
import { toSupplier } from "./supplier/supplier.service.js";

export { catalogueLoaders } from "./loaders.js";

/** The catalogue subgraph: organisations, booking engines, suppliers, products and their taxonomy. */
export function buildCatalogueSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([OrganisationResolver, BookingEngineResolver, SupplierResolver, ProductResolver, BookingProductFactsResolver, CatalogueConsumerResolver, ProductChangesResolver, ActivityImportResolver, ActiveActivityPageResolver, OctoImportResolver, RecommendationResolver, LocalizedTextResolver], {
    Organisation: {
      async __resolveReference(reference: { id: number }, ctx: CatalogueContext) {
        const row = await ctx.loaders.organisation.load(reference.id);
        if (!row) throw notFound(`Organisation ${reference.id} not found`);
        return toOrganisation(row);
      },
    },
    BookingEngine: {
      async __resolveReference(reference: { id: number }, ctx: CatalogueContext) {
        if (!(await ctx.loaders.bookingEngine.load(reference.id))) throw notFound(`Booking engine ${reference.id} not found`);
        return { id: reference.id };
      },
    },
    Supplier: {
      async __resolveReference(reference: { id: number }, ctx: CatalogueContext) {
        const row = await ctx.loaders.supplier.load(reference.id);
        if (!row) throw notFound(`Supplier ${reference.id} not found`);
        return toSupplier(row);
      },
    },
    Product: {
      // Bookings and reports refer to what was sold, even once its supplier deleted it.
      async __resolveReference(reference: { id: number }, ctx: CatalogueContext) {
        const row = await ctx.loaders.anyProduct.load(reference.id);
        if (!row) throw notFound(`Product ${reference.id} not found`);
        return toProduct(row);
      },
    },
  });
}

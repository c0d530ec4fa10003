import type { GraphQLSchema } from "graphql";
import { notFound } from "../../core/errors.js";
import { buildFederatedSchema } from "../common/subgraph.build.js";
import { BookingEngineResolver } from "./booking-engine/booking-engine.resolver.js";
import { LocalizedTextResolver } from "./language/localized-text.type.js";
import type { CatalogueContext } from "./catalogue.loaders.js";
import { OrganisationResolver } from "./organisation/organisation.resolver.js";
import { organisationService, toOrganisation } from "./organisation/organisation.service.js";
import { organisationKey } from "./organisation/organisation.resolver.js";
import { bookingEngineOf } from "./booking-engine/booking-engine.resolver.js";
import { bookingEngineRef } from "./booking-engine/booking-engine.type.js";
import { keyOfGlobalId } from "../../core/global-id.js";
import { ProductResolver } from "./product/product.resolver.js";
import { BookingProductFactsResolver } from "./product/product.booking-facts.js";
import { toProduct } from "./product/product.view.js";
import { productKey } from "./product/product.type.js";
import { ActiveActivityConnectionResolver, ActivityImportResolver } from "./import/activity-import.service.js";
import { OctoImportResolver } from "./import/octo-import.resolver.js";
import { RecommendationResolver } from "./recommendation/recommendation.resolver.js";
import { ProductChangesResolver } from "./search/product-changes.service.js";
import { CatalogueConsumerResolver } from "./search/search.resolver.js";
import { SupplierResolver } from "./supplier/supplier.resolver.js";
import { supplierKey } from "./supplier/supplier.type.js";
import { TaxonomyNodeResolver } from "./taxonomy/taxonomy.resolver.js";
import { toTaxonomyNode } from "./taxonomy/taxonomy.service.js";
import { toSupplier } from "./supplier/supplier.service.js";

export { catalogueLoaders } from "./catalogue.loaders.js";
/** The catalogue's types that `node(id)` finds. */
export { catalogueNodeTypes } from "./catalogue.nodes.js";

/** The catalogue subgraph: organisations, booking engines, suppliers, products and their taxonomy. */
export function buildCatalogueSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema([OrganisationResolver, BookingEngineResolver, SupplierResolver, ProductResolver, BookingProductFactsResolver, CatalogueConsumerResolver, ProductChangesResolver, TaxonomyNodeResolver, ActivityImportResolver, ActiveActivityConnectionResolver, OctoImportResolver, RecommendationResolver, LocalizedTextResolver], {
    // By the number other subgraphs hold, or by the global id (node).
    Organisation: {
      async __resolveReference(reference: { id?: string; legacyResourceId?: number }, ctx: CatalogueContext) {
        const key = reference.legacyResourceId ?? organisationKey(reference.id ?? "");
        const row = await ctx.loaders.organisation.load(key);
        if (!row) throw notFound(`Organisation ${key} not found`);
        return toOrganisation(row);
      },
    },
    BookingEngine: {
      async __resolveReference(reference: { id?: string; legacyResourceId?: number }, ctx: CatalogueContext) {
        const engine = reference.legacyResourceId === undefined ? await bookingEngineOf(ctx, reference.id ?? "") : bookingEngineRef(reference.legacyResourceId);
        if (!engine || !(await ctx.loaders.bookingEngine.load(engine.legacyResourceId))) throw notFound("Booking engine not found");
        return engine;
      },
    },
    Account: {
      // The caller's own account (node(id) checked it is the caller's).
      async __resolveReference(reference: { id: string }, ctx: CatalogueContext) {
        return keyOfGlobalId(reference.id, "Account") === ctx.caller.accountId ? organisationService.me(ctx) : null;
      },
    },
    Supplier: {
      // By the global id (node), which checked the caller may see it.
      async __resolveReference(reference: { id: string }, ctx: CatalogueContext) {
        const key = supplierKey(reference.id);
        const row = key === null ? undefined : await ctx.loaders.supplier.load(key);
        if (!row) throw notFound("Supplier not found");
        return toSupplier(row);
      },
    },
    TaxonomyNode: {
      // By the global id (node), which checked the node is current.
      async __resolveReference(reference: { id: string }, ctx: CatalogueContext) {
        const key = keyOfGlobalId(reference.id, "TaxonomyNode");
        const row = key === null ? undefined : (await ctx.loaders.taxonomy()).get(key);
        if (!row) throw notFound("Taxonomy node not found");
        return toTaxonomyNode(row);
      },
    },
    Product: {
      // Bookings and reports refer to what was sold by its number, even once its supplier deleted
      // it; node(id) by the global id, which it checked names a live product the caller may read.
      async __resolveReference(reference: { id?: string; legacyResourceId?: number }, ctx: CatalogueContext) {
        const key = reference.legacyResourceId ?? productKey(reference.id ?? "");
        const row = key === null ? undefined : reference.legacyResourceId === undefined ? await ctx.loaders.product.load(key) : await ctx.loaders.anyProduct.load(key);
        if (!row) throw notFound("Product not found");
        return toProduct(row);
      },
    },
  });
}

import { and, asc, desc, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../../drizzle/executor.js";
import { bookingEngines, products, productTaxonomies, taxonomyNodes } from "../../../drizzle/schema.js";
import { productColumns, type ProductRow } from "../product/product.repository.js";
import { visibleToConsumers } from "../search/product-search.repository.js";
import { tsQuery, type FullTextQuery } from "../search/search.full-text.js";

/** What narrows the catalogue to a recommendation's candidates, each part optional. */
export interface CandidateCriteria {
  /** The text search configuration of the caller's language. */
  config: string;
  /** In one of these countries; an empty list matches none. */
  countryCodes: string[] | null;
  /** In each of these cities (lower case compared). */
  cities: string[];
  /** Within this box of latitudes and longitudes (the exact distance is judged on the candidates). */
  box: { minLatitude: number; maxLatitude: number; minLongitude: number; maxLongitude: number } | null;
  /** Under one of these taxonomy slugs; their match's strength is answered too. */
  categories: string[];
  /** Matching one of these texts in title or description; how many matched is answered too. */
  interests: FullTextQuery[];
  /** Under none of these level-2 taxonomy codes. */
  excludedSubcategories: string[];
  /** Priced per none of these units (or per none at all). */
  excludedPricingUnits: string[];
  /** Booked through one of these engines, by name. */
  includedEngines: string[];
  /** Booked through none of these engines, by name. */
  excludedEngines: string[];
}

/** The candidates of a recommendation: live products matching every criterion, best rated first. */
export const recommendationRepository = {
  async candidates(db: Executor, criteria: CandidateCriteria, limit: number): Promise<{ row: ProductRow; categoryStrength: number; interestHits: number }[]> {
    const interestMatch = (interest: FullTextQuery) =>
      sql`(${products.titleDocument} @@ ${tsQuery(interest, criteria.config)} or ${products.descriptionDocument} @@ ${tsQuery(interest, criteria.config)} or ${products.titleDocument} @@ ${tsQuery(interest, "simple")})`;
    const underSlugs = sql`from ${productTaxonomies} join ${taxonomyNodes} on ${taxonomyNodes.uuid} = ${productTaxonomies.nodeUuid} where ${productTaxonomies.productId} = ${products.id}`;
    const engineIds = (names: string[]) => db.select({ id: bookingEngines.id }).from(bookingEngines).where(inArray(bookingEngines.name, names));
    const conditions: (SQL | undefined)[] = [visibleToConsumers];
    if (criteria.countryCodes) conditions.push(inArray(products.countryCode, criteria.countryCodes.length ? criteria.countryCodes : ["--"]));
    for (const city of criteria.cities) conditions.push(sql`lower(${products.cityName}) = ${city.toLowerCase()}`);
    const { box } = criteria;
    if (box) conditions.push(sql`${products.latitude} between ${box.minLatitude} and ${box.maxLatitude} and ${products.longitude} between ${box.minLongitude} and ${box.maxLongitude}`);
    if (criteria.categories.length) conditions.push(sql`exists (select 1 ${underSlugs} and ${inArray(taxonomyNodes.slug, criteria.categories)})`);
    if (criteria.interests.length) conditions.push(or(...criteria.interests.map(interestMatch)));
    if (criteria.excludedSubcategories.length) conditions.push(sql`not exists (select 1 ${underSlugs} and ${taxonomyNodes.level} = 2 and ${inArray(taxonomyNodes.code, criteria.excludedSubcategories)})`);
    if (criteria.excludedPricingUnits.length) conditions.push(or(sql`${products.pricingUnit} is null`, notInArray(products.pricingUnit, criteria.excludedPricingUnits)));
    if (criteria.includedEngines.length) conditions.push(inArray(products.bookingEngineId, engineIds(criteria.includedEngines)));
    if (criteria.excludedEngines.length) conditions.push(notInArray(products.bookingEngineId, engineIds(criteria.excludedEngines)));

    const categoryStrength = criteria.categories.length
      ? sql<number>`(select coalesce(max(case when ${taxonomyNodes.level} = 2 then 1.0 else 0.7 end), 0) ${underSlugs} and ${inArray(taxonomyNodes.slug, criteria.categories)})`
      : sql<number>`0`;
    const interestHits = criteria.interests.length ? sql<number>`(${sql.join(criteria.interests.map((i) => sql`(case when ${interestMatch(i)} then 1 else 0 end)`), sql` + `)})` : sql<number>`0`;
    return db
      .select({ row: productColumns, categoryStrength, interestHits })
      .from(products)
      .where(and(...conditions))
      .orderBy(desc(products.rating), asc(products.id))
      .limit(limit);
  },
};

import DataLoader from "dataloader";
import { engineDisplayName } from "../booking-engine/booking-engine.resolver.js";
import type { BookingEngineRow } from "../booking-engine/booking-engine.repository.js";
import { textIn, type LocalizedText } from "../language/localized-text.type.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import type { TaxonomyNodeRow } from "../taxonomy/taxonomy.repository.js";
import { taxonomyRowPaths } from "../taxonomy/taxonomy.service.js";
import type { SupplierRow } from "../supplier/supplier.repository.js";
import { countryNames } from "../../../core/iso-codes.js";
import { bookingLink, durationInHours, present, productDescriptors } from "./product.consumer.js";
import type { Product } from "./product.type.js";

/**
 * The consumer product record of spec 3 (search, product read, change detection, recommendations),
 * texts in the caller's language, built in one step per product, and a page's products together.
 *
 * Why here and not from the typed fields: a search page of 100 records is about 10,000 GraphQL
 * fields, each resolved by the subgraph, shaped again by the gateway and mapped once more by REST
 * (bench/results/2026-11-23-search-postgres-100k-2.md). As one JSON value per product the gateway passes it through. The values
 * come from the same functions the typed fields use; a contract test holds the two equal.
 */
export type ConsumerRecord = Record<string, unknown> & { id: number };

/**
 * Starts the lookups consumerRecord makes for these products, so that a page's run while its
 * total is still being counted; the records then find them in the request's loaders. A failed
 * lookup is reported by the record that awaits it, not here.
 */
export function startRecordLookups(ctx: CatalogueContext, rows: readonly { id: number; bookingEngineId: number; supplierId: number }[]): void {
  const ignore = () => {};
  ctx.loaders.bookingEngine.loadMany([...new Set(rows.map((row) => row.bookingEngineId))]).catch(ignore);
  ctx.loaders.anySupplier.loadMany([...new Set(rows.map((row) => row.supplierId))]).catch(ignore);
  ctx.loaders.productTaxonomyNodes.loadMany(rows.map((row) => row.id)).catch(ignore);
  ctx.loaders.taxonomy().catch(ignore);
}

/** Each request's record loaders, one per externalClientId it asks with. */
const recordLoaders = new WeakMap<CatalogueContext, Map<string | null, DataLoader<Product, ConsumerRecord>>>();

/**
 * The product's record. The records a request asks for in one turn (a page's) are built together:
 * their lookups are awaited once for the page, not once per product, and each supplier's part is
 * built once and shared by its products' records.
 */
export function consumerRecord(ctx: CatalogueContext, product: Product, externalClientId: string | null): Promise<ConsumerRecord> {
  let byClient = recordLoaders.get(ctx);
  if (!byClient) recordLoaders.set(ctx, (byClient = new Map()));
  let loader = byClient.get(externalClientId);
  // Not cached: two product objects of one id (a change's before and after) each get their own record.
  if (!loader) byClient.set(externalClientId, (loader = new DataLoader((batch) => consumerRecords(ctx, batch, externalClientId), { cache: false })));
  return loader.load(product);
}

async function consumerRecords(ctx: CatalogueContext, products: readonly Product[], externalClientId: string | null): Promise<(ConsumerRecord | Error)[]> {
  const engineIds = [...new Set(products.map((product) => product.bookingEngine.legacyResourceId))];
  const supplierIds = [...new Set(products.map((product) => product.supplierId))];
  const [engines, suppliers, linked, nodes] = await Promise.all([
    ctx.loaders.bookingEngine.loadMany(engineIds),
    ctx.loaders.anySupplier.loadMany(supplierIds),
    ctx.loaders.productTaxonomyNodes.loadMany(products.map((product) => product.legacyResourceId)),
    ctx.loaders.taxonomy(),
  ]);
  const engineById = new Map(engineIds.map((id, index) => [id, engines[index]]));
  const supplierById = new Map(supplierIds.map((id, index) => [id, suppliers[index]]));
  const supplierParts = new Map<number, Readonly<Record<string, unknown>>>();
  const supplierPart = (supplier: SupplierRow) => {
    let part = supplierParts.get(supplier.id);
    if (!part) supplierParts.set(supplier.id, (part = supplierRecord(supplier, ctx.languages)));
    return part;
  };
  const taxonomyEntries = new Map<string, TaxonomyEntry>();
  const taxonomyEntry = (node: TaxonomyNodeRow) => {
    let entry = taxonomyEntries.get(node.uuid);
    if (!entry) taxonomyEntries.set(node.uuid, (entry = Object.freeze({ id: node.slug, name: textIn(node.name, ctx.languages) ?? node.slug, level: node.level })));
    return entry;
  };
  return products.map((product, index) => {
    const links = linked[index];
    if (links instanceof Error) return links;
    const engine = engineById.get(product.bookingEngine.legacyResourceId);
    if (engine instanceof Error) return engine;
    if (!engine) return new Error(`product ${product.legacyResourceId} has no booking engine ${product.bookingEngine.legacyResourceId}`);
    const supplier = supplierById.get(product.supplierId);
    if (supplier instanceof Error) return supplier;
    if (!supplier) return new Error(`product ${product.legacyResourceId} has no supplier ${product.supplierId}`);
    const taxonomies = taxonomyRowPaths(links, nodes).map((path) => path.map((node) => taxonomyEntry(node)));
    return recordOf(product, engine, supplierPart(supplier), taxonomies, ctx.languages, externalClientId);
  });
}

/** A taxonomy node as a record names it (shared by the records of a page that are linked to it). */
interface TaxonomyEntry {
  id: string;
  name: string;
  level: number;
}

/** A supplier's part of its products' records, shared by them (frozen, so that no record's reader can change another's). */
function supplierRecord(supplier: SupplierRow, languages: readonly string[]): Readonly<Record<string, unknown>> {
  const names = countryNames(supplier.countryCode, languages);
  return Object.freeze(present({
    id: supplier.id,
    externalId: supplier.externalId,
    creationDate: supplier.creationDate.toISOString(),
    updateDate: supplier.updateDate.toISOString(),
    countryCode: supplier.countryCode,
    name: supplier.name,
    contact: supplier.website ?? supplier.email ?? supplier.telephone ?? supplier.address ? present({ website: supplier.website, email: supplier.email, telephone: supplier.telephone, address: supplier.address }) : null,
    countryName: languages.map((l) => names[l]).find(Boolean) ?? null,
  }));
}

/**
 * The record, one literal in the REST schema's order (consumerProductSchema), the members every
 * record has first, as its compiled serializer writes them: the REST routes send the record with
 * JSON.stringify, and their bodies stay byte for byte what that serializer would write. Unknown
 * fields are undefined, which JSON leaves out as the contract's records do. One literal keeps
 * every record the same shape, which JSON.stringify writes fastest: built from parts spread into
 * it, a page's records took a sixth longer to build and write.
 */
function recordOf(product: Product, engine: BookingEngineRow, supplier: Readonly<Record<string, unknown>>, taxonomies: readonly (readonly TaxonomyEntry[])[], languages: readonly string[], externalClientId: string | null): ConsumerRecord {
  return {
    id: product.legacyResourceId,
    externalId: product.externalId,
    title: textOf(product.title, languages),
    bookingEngine: engine.name,
    bookingEngineName: engineDisplayName(engine.name),
    onlineBookable: onlineBookableIn(product, languages),
    availableLanguages: Object.keys(product.title.translations).sort(),
    taxonomies,
    creationDate: product.creationDate.toISOString(),
    updateDate: product.updateDate.toISOString(),
    galleryImages: product.galleryImages.map((image) => ({ title: image.title ?? undefined, url: image.url ?? undefined, order: image.order ?? undefined })),
    supplier,
    descriptors: productDescriptors(product),
    bookingUrl: bookingLink(product.bookingUrl?.translations ?? null, languages, externalClientId) ?? undefined,
    internalName: product.internalName ?? undefined,
    reference: product.reference ?? undefined,
    instantConfirmation: product.instantConfirmation ?? undefined,
    instantDelivery: product.instantDelivery ?? undefined,
    likelyToBeSoldOut: product.likelyToBeSoldOut ?? undefined,
    skipTheLine: product.skipTheLine ?? undefined,
    availabilityType: product.availabilityType ?? undefined,
    redemptionMethod: product.redemptionMethod ?? undefined,
    subtitle: textOf(product.subtitle, languages),
    shortDescription: textOf(product.shortDescription, languages),
    description: textOf(product.description, languages),
    experienceHighlights: textOf(product.experienceHighlights, languages),
    cancellationCutOff: textOf(product.cancellationCutOff, languages),
    modalitiesIncluded: textOf(product.modalitiesIncluded, languages),
    modalitiesExcluded: textOf(product.modalitiesExcluded, languages),
    modalitiesAdditionalInfo: textOf(product.modalitiesAdditionalInfo, languages),
    thumbnailImage: product.thumbnailImage ?? undefined,
    minPrice: product.minPrice ?? undefined,
    maxPrice: product.maxPrice ?? undefined,
    priceCurrency: product.priceCurrency ?? undefined,
    pricingUnit: product.pricingUnit ?? undefined,
    priceLevel: product.priceLevel ?? undefined,
    averagePrice: product.averagePrice ?? undefined,
    minParticipants: product.minParticipants ?? undefined,
    maxParticipants: product.maxParticipants ?? undefined,
    address: product.address ?? undefined,
    placeId: product.placeId ?? undefined,
    website: product.website ?? undefined,
    geoLocation: geoLocationOf(product),
    duration: product.duration ?? undefined,
    durationHours: durationInHours(product.duration) ?? undefined,
    cityName: product.cityName ?? undefined,
    zipCode: product.zipCode ?? undefined,
    countryCode: product.countryCode ?? undefined,
    rating: product.rating ?? undefined,
    numberOfRatings: product.numberOfRatings ?? undefined,
    availabilityPeriods: weeklyPeriodsOf(product),
    isCancellable: product.isCancellable ?? undefined,
    cancellationCutOffAmount: product.cancellationCutOffAmount ?? undefined,
    cancellationCutOffUnit: product.cancellationCutOffUnit ?? undefined,
    handiAccess: product.handiAccess ?? undefined,
    countryName: product.country ? (textIn(product.country.name.translations, languages) ?? undefined) : undefined,
  };
}

/** A text in the first of the caller's languages it has; undefined (left out) when there is none. */
const textOf = (value: LocalizedText | null, languages: readonly string[]) => (value ? (textIn(value.translations, languages) ?? undefined) : undefined);

/** Whether it is bookable online in the first of the caller's languages it states, else in the first of its own. */
function onlineBookableIn(product: Product, languages: readonly string[]): boolean {
  const language = languages.find((l) => l in product.onlineBookable) ?? Object.keys(product.title.translations).sort()[0];
  return language ? Boolean(product.onlineBookable[language]) : false;
}

function geoLocationOf({ geoLocation }: Product) {
  return geoLocation ? { latitude: geoLocation.latitude ?? undefined, longitude: geoLocation.longitude ?? undefined, geoHash: geoLocation.geoHash ?? undefined } : undefined;
}

/** Only the weekly periods: the spontaneous period is not part of the consumer's record. */
function weeklyPeriodsOf(product: Product) {
  const periods = product.availabilityPeriods as { weeklyPeriods?: unknown } | null;
  return periods?.weeklyPeriods ? { weeklyPeriods: periods.weeklyPeriods } : undefined;
}

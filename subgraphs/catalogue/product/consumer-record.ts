import { engineDisplayName } from "../booking-engine/booking-engine.resolver.js";
import { textIn, type LocalizedText } from "../language/localized-text.js";
import type { CatalogueContext } from "../loaders.js";
import { taxonomyPaths } from "../taxonomy/taxonomy.service.js";
import { countryNames } from "../validation/iso.js";
import { bookingLink, durationInHours, present, productDescriptors } from "./product.consumer.js";
import type { Product } from "./product.type.js";

/**
 * The consumer product record of spec 3 (search, product read, change detection, recommendations),
 * texts in the caller's language, built in one step per product.
 *
 * Why here and not from the typed fields: a search page of 100 records is about 10,000 GraphQL
 * fields, each resolved by the subgraph, shaped again by the gateway and mapped once more by REST
 * (docs/benchmarks.md). As one JSON value per product the gateway passes it through. The values
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

export async function consumerRecord(ctx: CatalogueContext, product: Product, externalClientId: string | null): Promise<ConsumerRecord> {
  const [engine, supplier, linked, nodes] = await Promise.all([
    ctx.loaders.bookingEngine.load(product.bookingEngine.id),
    ctx.loaders.anySupplier.load(product.supplierId),
    ctx.loaders.productTaxonomyNodes.load(product.id),
    ctx.loaders.taxonomy(),
  ]);
  if (!engine) throw new Error(`product ${product.id} has no booking engine ${product.bookingEngine.id}`);
  if (!supplier) throw new Error(`product ${product.id} has no supplier ${product.supplierId}`);
  const languages = ctx.languages;
  const text = (value: LocalizedText | null) => (value ? textIn(value.translations, languages) : null);
  const language = languages.find((l) => l in product.onlineBookable) ?? Object.keys(product.title.translations).sort()[0];
  const supplierNames = countryNames(supplier.countryCode, languages);
  const periods = product.availabilityPeriods as { weeklyPeriods?: unknown } | null;
  // The REST schema's declared keys come first, in its order (consumerProductSchema): the REST
  // routes send the record with JSON.stringify, and this keeps their bodies byte for byte what
  // the schema's compiled serializer wrote.
  return present({
    id: product.id,
    externalId: product.externalId,
    title: text(product.title),
    bookingEngine: engine.name,
    bookingEngineName: engineDisplayName(engine.name),
    bookingUrl: bookingLink(product.bookingUrl?.translations ?? null, languages, externalClientId),
    onlineBookable: language ? Boolean(product.onlineBookable[language]) : false,
    availableLanguages: Object.keys(product.title.translations).sort(),
    taxonomies: taxonomyPaths(linked, nodes).map((path) => path.map((node) => ({ id: node.slug, name: textIn(node.name.translations, languages) ?? node.slug, level: node.level }))),
    creationDate: product.creationDate.toISOString(),
    updateDate: product.updateDate.toISOString(),
    internalName: product.internalName,
    reference: product.reference,
    instantConfirmation: product.instantConfirmation,
    instantDelivery: product.instantDelivery,
    likelyToBeSoldOut: product.likelyToBeSoldOut,
    skipTheLine: product.skipTheLine,
    availabilityType: product.availabilityType,
    redemptionMethod: product.redemptionMethod,
    subtitle: text(product.subtitle),
    shortDescription: text(product.shortDescription),
    description: text(product.description),
    experienceHighlights: text(product.experienceHighlights),
    cancellationCutOff: text(product.cancellationCutOff),
    modalitiesIncluded: text(product.modalitiesIncluded),
    modalitiesExcluded: text(product.modalitiesExcluded),
    modalitiesAdditionalInfo: text(product.modalitiesAdditionalInfo),
    thumbnailImage: product.thumbnailImage,
    minPrice: product.minPrice,
    maxPrice: product.maxPrice,
    priceCurrency: product.priceCurrency,
    pricingUnit: product.pricingUnit,
    priceLevel: product.priceLevel,
    averagePrice: product.averagePrice,
    minParticipants: product.minParticipants,
    maxParticipants: product.maxParticipants,
    address: product.address,
    placeId: product.placeId,
    website: product.website,
    geoLocation: product.geoLocation ? present({ ...product.geoLocation }) : null,
    duration: product.duration,
    durationHours: durationInHours(product.duration),
    galleryImages: product.galleryImages.map((image) => present({ ...image })),
    supplier: present({
      id: supplier.id,
      name: supplier.name,
      externalId: supplier.externalId,
      creationDate: supplier.creationDate.toISOString(),
      updateDate: supplier.updateDate.toISOString(),
      contact: supplier.website ?? supplier.email ?? supplier.telephone ?? supplier.address ? present({ website: supplier.website, email: supplier.email, telephone: supplier.telephone, address: supplier.address }) : null,
      countryCode: supplier.countryCode,
      countryName: languages.map((l) => supplierNames[l]).find(Boolean) ?? null,
    }),
    descriptors: productDescriptors(product),
    cityName: product.cityName,
    zipCode: product.zipCode,
    countryCode: product.countryCode,
    rating: product.rating,
    numberOfRatings: product.numberOfRatings,
    availabilityPeriods: periods?.weeklyPeriods ? { weeklyPeriods: periods.weeklyPeriods } : null,
    isCancellable: product.isCancellable,
    cancellationCutOffAmount: product.cancellationCutOffAmount,
    cancellationCutOffUnit: product.cancellationCutOffUnit,
    handiAccess: product.handiAccess,
    countryName: product.country ? textIn(product.country.name.translations, languages) : null,
  }) as ConsumerRecord;
}

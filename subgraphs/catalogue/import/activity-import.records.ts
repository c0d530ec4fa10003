import { commissionRate, estimatedNetPrice } from "../../../core/commission.js";
import type { LanguageText } from "../../../drizzle/schema.js";
import { engineDisplayName } from "../booking-engine/booking-engine.resolver.js";
import { textIn } from "../language/localized-text.type.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { durationInHours, present, productDescriptors } from "../product/product.consumer.js";
import { productColumnsWithTaxonomy, type productColumns, type ProductRow } from "../product/product.repository.js";
import { callerModel } from "../product/product.resolver.js";
import { onlineBookable } from "../product/product.view.js";
import type { TaxonomyNodeRow } from "../taxonomy/taxonomy.repository.js";
import type { BookingEngineRow } from "../booking-engine/booking-engine.repository.js";
import type { SupplierRow } from "../supplier/supplier.repository.js";
import { taxonomyRecordPaths } from "../taxonomy/taxonomy.service.js";
import { countryNameLanguages, countryNames } from "../../../core/iso-codes.js";

/**
 * The import record of spec 3, built here in one pass over a page of product rows.
 *
 * Why not through the typed `Product` fields: a page of 1,000 records is about 100,000 GraphQL
 * fields, each resolved by the subgraph, shaped again by the gateway and mapped once more by REST;
 * that cost ten times the database's time (bench/results/2026-11-23-search-postgres-100k-2.md). As one JSON value per record the
 * page costs what its rows and a few batched lookups cost. The typed `data` stays for GraphQL
 * clients that want to choose fields; both read the same functions (commission, duration,
 * onlineBookable, taxonomy paths, engine display name), so they cannot disagree.
 */
export type ImportRecord = Record<string, unknown> & { id: number };

/** The columns a record is built from, and only these: the import reads no others. */
const IMPORT_RECORD_FIELDS = [
  "id", "externalId", "title", "creationDate", "updateDate", "instantConfirmation", "instantDelivery", "availabilityType", "redemptionMethod",
  "description", "bookingEngineId", "bookingUrl", "minPrice", "maxPrice", "estCommNet", "estCommFrpricePerc", "priceCurrency", "address", "placeId",
  "website", "latitude", "longitude", "geoHash", "duration", "galleryImages", "supplierId", "deprecated", "deletedAt", "bookingFlow", "cityName",
  "zipCode", "rating", "numberOfRatings", "countryCode",
] as const satisfies readonly (keyof typeof productColumns)[];
type ImportField = (typeof IMPORT_RECORD_FIELDS)[number];
// With the row's taxonomy nodes: the page's links then need no query of their own.
export const importRecordColumns = Object.fromEntries([...IMPORT_RECORD_FIELDS, "taxonomyUuids" as const].map((field) => [field, productColumnsWithTaxonomy[field]])) as Pick<
  typeof productColumnsWithTaxonomy,
  ImportField | "taxonomyUuids"
>;
export type ImportRow = Pick<ProductRow, ImportField> & { taxonomyUuids: string[] };

/** Keeps only the languages asked for (languageList), when any were. */
function only<T>(values: Record<string, T> | null | undefined, languages: readonly string[] | null): Record<string, T> | null {
  if (!values) return null;
  if (!languages) return values;
  const kept: Record<string, T> = {};
  for (const language in values) if (languages.includes(language)) kept[language] = values[language];
  return kept;
}

/** What every record of a page is rendered with: the request's choices and the page's shared renderings. */
interface PageRendering {
  /** languageList (null: every language). */
  languages: readonly string[] | null;
  /** The caller's commercial model, which chooses commission rate or net price. */
  model: string | null;
  countryNameOf: (row: ImportRow) => string | null;
  supplierOf: (supplier: SupplierRow) => Record<string, unknown>;
  taxonomiesOf: (links: TaxonomyNodeRow[]) => unknown[][];
}

/** The import records of a page, in the page's order; `languages` is languageList (null: every language). */
export async function importRecords(ctx: CatalogueContext, rows: readonly ImportRow[], languages: readonly string[] | null): Promise<ImportRecord[]> {
  ctx.loaders.knowTaxonomyLinks(rows);
  const [engines, suppliers, linked, nodes, model] = await Promise.all([
    ctx.loaders.bookingEngine.loadMany([...new Set(rows.map((row) => row.bookingEngineId))]),
    ctx.loaders.anySupplier.loadMany([...new Set(rows.map((row) => row.supplierId))]),
    ctx.loaders.productTaxonomyNodes.loadMany(rows.map((row) => row.id)),
    ctx.loaders.taxonomy(),
    callerModel(ctx),
  ]);
  const engineById = new Map(engines.flatMap((engine) => (engine && !(engine instanceof Error) ? [[engine.id, engine] as const] : [])));
  const supplierById = new Map(suppliers.flatMap((supplier) => (supplier && !(supplier instanceof Error) ? [[supplier.id, supplier] as const] : [])));
  const accepted = ctx.languages;
  const textOf = (translations: LanguageText) => textIn(translations, accepted);
  const page: PageRendering = { languages, model, countryNameOf: countryNamesOnce(textOf), supplierOf: suppliersOnce(), taxonomiesOf: taxonomyPathsOnce(nodes, textOf) };
  return rows.map((row, index) => {
    const engine = engineById.get(row.bookingEngineId);
    const supplier = supplierById.get(row.supplierId);
    if (!engine) throw new Error(`product ${row.id} has no booking engine ${row.bookingEngineId}`);
    if (!supplier) throw new Error(`product ${row.id} has no supplier ${row.supplierId}`);
    const links = linked[index];
    if (links instanceof Error) throw links;
    return importRecord(row, engine, supplier, links, page);
  });
}

type TextOf = (translations: LanguageText) => string | null;

/** A page has a few countries and title-language sets: name each pair once, not once a record. */
function countryNamesOnce(textOf: TextOf): PageRendering["countryNameOf"] {
  const countryNameCache = new Map<string, string | null>();
  return (row) => {
    if (!row.countryCode) return null;
    const titleLanguages = Object.keys(row.title);
    const key = `${row.countryCode}:${titleLanguages.join(",")}`;
    let name = countryNameCache.get(key);
    if (name === undefined) {
      name = textOf(countryNames(row.countryCode, [...new Set([...titleLanguages, ...countryNameLanguages])]));
      countryNameCache.set(key, name);
    }
    return name;
  };
}

/**
 * A page of a thousand records names a few suppliers and a few dozen taxonomy paths: each is
 * rendered once and the records share it (they are only ever serialised), which took a fifth of
 * the page's record building and much of its garbage.
 */
function suppliersOnce(): PageRendering["supplierOf"] {
  const renderedSuppliers = new Map<number, Record<string, unknown>>();
  return (supplier) => {
    let rendered = renderedSuppliers.get(supplier.id);
    if (!rendered) {
      rendered = {
        id: supplier.id,
        externalId: supplier.externalId,
        name: supplier.name,
        creationDate: supplier.creationDate.toISOString(),
        updateDate: supplier.updateDate.toISOString(),
        contact: { id: supplier.id },
      };
      renderedSuppliers.set(supplier.id, rendered);
    }
    return rendered;
  };
}

/** Each set of taxonomy links rendered once a page, as suppliers are. */
function taxonomyPathsOnce(nodes: ReadonlyMap<string, TaxonomyNodeRow>, textOf: TextOf): PageRendering["taxonomiesOf"] {
  const renderedTaxonomies = new Map<string, unknown[][]>();
  return (links) => {
    const key = links.map((node) => node.uuid).join(",");
    let rendered = renderedTaxonomies.get(key);
    if (!rendered) {
      rendered = taxonomyRecordPaths(links, nodes).map((path) =>
        path.map((node) =>
          present({
            uuid: node.uuid,
            level: node.level,
            slug: node.slug,
            family: node.family,
            parentUuid: node.parentUuid,
            version: node.version,
            isCurrent: node.isCurrent,
            startDate: node.startDate,
            nameTranslation: node.name.translations,
            value: 1,
            name: textOf(node.name.translations),
            nameFullPath: node.nameFullPath,
          }),
        ),
      );
      renderedTaxonomies.set(key, rendered);
    }
    return rendered;
  };
}

function importRecord(row: ImportRow, engine: BookingEngineRow, supplier: SupplierRow, links: TaxonomyNodeRow[], page: PageRendering): ImportRecord {
  const { languages, model } = page;
  return present({
    id: row.id,
    externalId: row.externalId,
    title: only(row.title, languages),
    creationDate: row.creationDate.toISOString(),
    updateDate: row.updateDate.toISOString(),
    bookingEngine: engine.name,
    bookingEngineName: engineDisplayName(engine.name),
    galleryImages: (row.galleryImages ?? []).map((image, position) => {
      const order = image.order ?? position + 1;
      return { id: `${row.id}-${order}`, url: image.url, order };
    }),
    supplier: page.supplierOf(supplier),
    onlineBookable: only(onlineBookable(row), languages),
    descriptors: productDescriptors(row),
    availableLanguages: Object.keys(row.title).sort(),
    taxonomies: page.taxonomiesOf(links),
    instantConfirmation: row.instantConfirmation,
    instantDelivery: row.instantDelivery,
    availabilityType: row.availabilityType,
    redemptionMethod: row.redemptionMethod,
    description: only(row.description, languages),
    bookingUrl: only(row.bookingUrl, languages),
    minPrice: row.minPrice,
    maxPrice: row.maxPrice,
    retailPrice: row.minPrice,
    estimatedCommissionRate: model === "AGENT" ? commissionRate(row) : null,
    estimatedNetPrice: model === "RESELLER" ? estimatedNetPrice(row) : null,
    priceCurrency: row.priceCurrency,
    address: row.address,
    placeId: row.placeId,
    website: row.website,
    geoLocation: row.latitude !== null || row.geoHash ? present({ latitude: row.latitude, longitude: row.longitude, geoHash: row.geoHash }) : null,
    duration: row.duration,
    durationHours: durationInHours(row.duration),
    cityName: row.cityName,
    zipCode: row.zipCode,
    rating: row.rating,
    numberOfRatings: row.numberOfRatings,
    countryName: page.countryNameOf(row),
  }) as ImportRecord;
}

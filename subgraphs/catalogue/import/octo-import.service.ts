import type { Supplier } from "@octocloud/types";
import { octoSaleCurrency } from "../../common/octo/octo.sellable.js";
import { createHash } from "node:crypto";
import type { GraphQLError } from "graphql";
import { MANAGE_SCOPE } from "../../../core/roles.js";
import { notFound } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { OctoNonConforming, OctoOutcomeUnknown, OctoRejected, OctoUnavailable, type OctoClient } from "../../common/octo/octo.client.js";
import { EngineSecretsUnavailable, type OctoEngineSettings } from "../../common/octo/octo.engines.js";
import { bookingEngineRepository } from "../booking-engine/booking-engine.repository.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { productRepository, type ProductRow } from "../product/product.repository.js";
import { productService } from "../product/product.service.js";
import type { ProductRequest } from "../product/product.rules.js";
import { supplierRepository, type SupplierRow } from "../supplier/supplier.repository.js";
import { supplierService } from "../supplier/supplier.service.js";
import type { SupplierRequest } from "../supplier/supplier.rules.js";
import { languageOf, productRequestFromOcto, supplierRequestFromOcto, type OctoProductVersion } from "./octo-import.content.js";

/** What one import did; every count is of products of the engine's supplier. */
export interface OctoImportReport {
  engine: string;
  engineId: number;
  supplierId: number;
  supplierCreated: boolean;
  supplierUpdated: boolean;
  created: number;
  updated: number;
  unchanged: number;
  /** Gone upstream: deprecated, never deleted, so bookings and consumers' copies keep them. */
  deprecated: number;
  /** Back upstream after being deprecated by an earlier import. */
  undeprecated: number;
  /** Products our catalogue's rules refused, with the reason; the rest of the import went on. */
  refused: { externalId: string; message: string }[];
}

/**
 * The import acts for the platform whoever started it (a platform account, or the worker's
 * schedule in its own name), after the caller was checked: the writes then pass the same rules
 * and leave the same change-log entries as a content partner's.
 */
function asPlatform(ctx: CatalogueContext): CatalogueContext {
  return { ...ctx, caller: { ...ctx.caller, roles: ["PLATFORM_CATALOG_MANAGEMENT"], scopes: [MANAGE_SCOPE] }, accountExists: async () => true };
}

/** Equal requests give equal hashes whatever the key order: a product is rewritten only when its content changed. */
function contentHash(value: unknown): string {
  const stable = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(stable) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, stable(x)])) : v;
  return createHash("sha256").update(JSON.stringify(stable(value))).digest("base64url");
}

const storedHash = (row: ProductRow): string | undefined => ((row.metadata as { octo?: { contentHash?: string } } | null)?.octo?.contentHash);

/** Whether the supplier row already says what the request says (no update, no new updateDate). */
function supplierMatches(row: SupplierRow, request: SupplierRequest): boolean {
  const blank = (value: unknown) => (value === undefined || value === "" ? null : value);
  const contact = request.supplierContact ?? {};
  return (
    row.name === request.name &&
    blank(row.endpoint) === blank(request.endpoint) &&
    blank(row.logo) === blank(request.logo) &&
    row.countryCode === request.country &&
    blank(row.channel) === blank(request.channel) &&
    blank(row.website) === blank(contact.website) &&
    blank(row.email) === blank(contact.email) &&
    blank(row.telephone) === blank(contact.telephone) &&
    blank(row.address) === blank(contact.address)
  );
}

/** Every product in every language the supplier offers, gathered per product id. */
async function fetchVersions(client: OctoClient, withContent: boolean): Promise<Map<string, OctoProductVersion[]>> {
  const first = await client.products();
  const versions = new Map<string, OctoProductVersion[]>();
  const add = (language: string, products: typeof first.body) => {
    for (const product of products) versions.set(product.id, [...(versions.get(product.id) ?? []), { language, product }]);
  };
  const firstLanguage = languageOf(first.contentLanguage ?? "en");
  add(firstLanguage, first.body);
  if (withContent) {
    const others = [...new Set(first.availableLanguages.map(languageOf))].filter((language) => language !== firstLanguage);
    for (const language of others) {
      const answer = await client.products(language);
      add(languageOf(answer.contentLanguage ?? language), answer.body);
    }
  }
  return versions;
}

/** An OCTO failure as the GraphQL error the caller sees. */
function importError(engine: string, error: unknown): GraphQLError | undefined {
  if (error instanceof EngineSecretsUnavailable) return rejected("ENGINE_SECRETS_KEY_MISSING", error.message);
  if (error instanceof OctoUnavailable || error instanceof OctoOutcomeUnknown) return rejected("ENGINE_UNAVAILABLE", `Engine ${engine} could not be reached: ${error.message}`);
  if (error instanceof OctoRejected) return rejected("ENGINE_REFUSED", `Engine ${engine} refused: ${error.message}`);
  if (error instanceof OctoNonConforming) return rejected("ENGINE_NOT_CONFORMING", error.message);
  return undefined;
}

/**
 * Brings an OCTO engine's supplier and products into the catalogue: `GET /supplier` and
 * `GET /products` (once per language with `octo/content`) become our supplier and products
 * through the content mapping and the catalogue's own services, so each change is validated and
 * logged (NEW, UPDATED, DEPRECATED, UNDEPRECATED) like a content partner's. A product whose content
 * did not change is not written; one that disappeared upstream is deprecated, not deleted.
 */
export async function importOctoEngine(callerCtx: CatalogueContext, engineName: string): Promise<OctoImportReport> {
  const ctx = asPlatform(callerCtx);
  const engine = await bookingEngineRepository.byName(ctx.database.db, engineName);
  if (!engine) throw notFound(`Booking engine ${engineName} not found`);
  if (engine.kind !== "OCTO") throw rejected("ENGINE_NOT_OCTO", `Booking engine ${engineName} is of kind ${engine.kind}; only OCTO engines are imported`);
  const settings = await ctx.loaders.octoSettings.load(engine.id);
  if (!settings) throw rejected("ENGINE_NOT_OCTO", `Booking engine ${engineName} has no OCTO connection`);
  const octo = ctx.loaders.octo;
  if (!(await octo.claimImport(engine.id, ctx.clock.now()))) {
    throw rejected("IMPORT_RUNNING", `An import of engine ${engineName} is running; try again when it has finished`);
  }
  let completed = false;
  try {
    const report = await runImport(ctx, engine.id, engineName, settings);
    completed = true;
    return report;
  } finally {
    await octo.releaseImport(engine.id, ctx.clock.now(), completed);
  }
}

async function runImport(ctx: CatalogueContext, engineId: number, engineName: string, settings: OctoEngineSettings): Promise<OctoImportReport> {
  const { supplierAnswer, versions } = await engineContent(ctx, engineName, settings);
  const supplier = await importSupplier(ctx, supplierAnswer, settings.countryCode, engineId);
  const report: OctoImportReport = { engine: engineName, engineId, ...supplier, created: 0, updated: 0, unchanged: 0, deprecated: 0, undeprecated: 0, refused: [] };
  const current = new Map((await productRepository.ofSupplier(ctx.database.db, supplier.supplierId)).map((row) => [row.externalId, row]));
  for (const [externalId, productVersions] of versions) {
    try {
      await importProduct(ctx, report, productVersions, current.get(externalId));
    } catch (error) {
      const graphError = error as GraphQLError;
      if (!graphError.extensions?.code || graphError.extensions.code === "INTERNAL_SERVER_ERROR") throw error;
      report.refused.push({ externalId, message: graphError.message });
    }
  }
  for (const [externalId, row] of current) {
    // Only what an import brought: a product a partner added by hand under this supplier stays.
    if (versions.has(externalId) || row.deprecated || storedHash(row) === undefined) continue;
    await productService.setDeprecated(ctx, supplier.supplierId, row.id, true);
    report.deprecated++;
  }
  return report;
}

/** The supplier and every product's versions (one per language with octo/content), as the engine answers them. */
async function engineContent(ctx: CatalogueContext, engineName: string, settings: OctoEngineSettings): Promise<{ supplierAnswer: Supplier; versions: Map<string, OctoProductVersion[]> }> {
  try {
    const client = (await ctx.loaders.octo.clientFor(engineName))!;
    const supplierAnswer = (await client.supplier()).body;
    const versions = await fetchVersions(client, settings.capabilities.includes("octo/content"));
    return { supplierAnswer, versions };
  } catch (error) {
    throw importError(engineName, error) ?? error;
  }
}

/** Our supplier for the engine's: created the first time, updated when its content changed. */
async function importSupplier(ctx: CatalogueContext, supplierAnswer: Supplier, countryCode: string, engineId: number): Promise<Pick<OctoImportReport, "supplierId" | "supplierCreated" | "supplierUpdated">> {
  const supplierRequest = supplierRequestFromOcto(supplierAnswer, countryCode, engineId);
  const existingSupplier = await supplierRepository.liveByExternalId(ctx.database.db, engineId, supplierAnswer.id);
  if (!existingSupplier) {
    return { supplierId: (await supplierService.create(ctx, supplierRequest)).legacyResourceId, supplierCreated: true, supplierUpdated: false };
  }
  const supplierId = existingSupplier.id;
  if (supplierMatches(existingSupplier, supplierRequest)) return { supplierId, supplierCreated: false, supplierUpdated: false };
  await supplierService.update(ctx, supplierId, supplierRequest);
  return { supplierId, supplierCreated: false, supplierUpdated: true };
}

/** One product: created, updated when its content changed, undeprecated when it is back; counted in the report. */
async function importProduct(ctx: CatalogueContext, report: OctoImportReport, productVersions: OctoProductVersion[], row: ProductRow | undefined): Promise<void> {
  const { supplierId } = report;
  const mapped = productRequestFromOcto(productVersions, report.engine);
  const hash = contentHash(mapped);
  const request: ProductRequest = { ...mapped, metadata: { octo: { ...(mapped.metadata as { octo: object }).octo, contentHash: hash } } };
  // The booking flow sells it in the supplier's system when the engine's rule allows.
  const bookable = octoSaleCurrency(productVersions[0].product) !== undefined;
  if (!row) {
    await productService.push(ctx, supplierId, request, bookable);
    report.created++;
    return;
  }
  if (storedHash(row) !== hash) {
    await productService.update(ctx, supplierId, row.id, request, bookable);
    report.updated++;
  } else {
    report.unchanged++;
    if (row.bookingFlow !== bookable) await productService.recordImportedBookingFlow(ctx, row.id, bookable);
  }
  if (row.deprecated) {
    await productService.setDeprecated(ctx, supplierId, row.id, false);
    report.undeprecated++;
  }
}

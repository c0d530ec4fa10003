import { badInput, notFound } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { nextUpdateDate } from "../timestamps.js";
import { bookingEngineRepository } from "../booking-engine/booking-engine.repository.js";
import { type CatalogueContext } from "../loaders.js";
import { canManageEngine, engineForRequest, managementAccess } from "../management-access.js";
import { productRepository } from "../product/product.repository.js";
import { productChangeRepository } from "../product/product-change.repository.js";
import type { Supplier, SupplierPage } from "./supplier.type.js";
import { supplierRepository, type SupplierRow } from "./supplier.repository.js";
import { supplierProblems, supplierValues, type SupplierRequest } from "./supplier.rules.js";
import { bookingEngineRef } from "../booking-engine/booking-engine.type.js";

export const MAX_RESULTS_PER_PAGE = 1000;

export const toSupplier = (row: SupplierRow): Supplier => ({
  id: row.id,
  externalId: row.externalId,
  name: row.name,
  channel: row.channel,
  endpoint: row.endpoint,
  logo: row.logo,
  country: row.countryCode,
  bookingEngine: bookingEngineRef(row.bookingEngineId),
  supplierContact:
    row.website ?? row.email ?? row.telephone ?? row.address
      ? { website: row.website, email: row.email, telephone: row.telephone, address: row.address }
      : null,
  geoLocation: row.latitude ?? row.longitude ?? row.geoHash ? { latitude: row.latitude, longitude: row.longitude, geoHash: row.geoHash } : null,
  creationDate: row.creationDate,
  updateDate: row.updateDate,
});

function assertValid(input: SupplierRequest): void {
  const problems = supplierProblems(input);
  if (!problems.empty) throw badInput(`The supplier is not valid: ${problems.list.map((p) => p.message).join("; ")}`, problems.list);
}

const duplicateExternalId = (externalId: string) =>
  rejected("DUPLICATE_EXTERNAL_ID", `A supplier with externalId ${externalId} already exists for this booking engine`, [
    { field: "externalId", rule: "unique", message: `externalId ${externalId} is already used by another supplier of this booking engine` },
  ]);

/** Suppliers (spec 1): created, read, updated and deleted by the content partners of their booking engine. */
export const supplierService = {
  async create(ctx: CatalogueContext, input: SupplierRequest): Promise<Supplier> {
    const access = await managementAccess(ctx);
    const engine = await engineForRequest(ctx, access, input.bookingEngine);
    assertValid(input);
    const now = ctx.clock.now();
    return ctx.database.db.transaction(async (tx) => {
      if (await supplierRepository.liveByExternalId(tx, engine.id, input.externalId!)) throw duplicateExternalId(input.externalId!);
      return toSupplier(await supplierRepository.insert(tx, supplierValues(input, engine.id), now));
    });
  },

  async get(ctx: CatalogueContext, id: number): Promise<Supplier> {
    const access = await managementAccess(ctx);
    const row = await ctx.loaders.supplier.load(id);
    if (!row || !canManageEngine(access, row.bookingEngineId)) throw notFound(`Supplier ${id} not found`);
    return toSupplier(row);
  },

  async update(ctx: CatalogueContext, id: number, input: SupplierRequest): Promise<Supplier> {
    const access = await managementAccess(ctx);
    const engine = await engineForRequest(ctx, access, input.bookingEngine);
    assertValid(input);
    const now = ctx.clock.now();
    return ctx.database.db.transaction(async (tx) => {
      const current = await supplierRepository.liveForUpdate(tx, id);
      if (!current || !canManageEngine(access, current.bookingEngineId)) throw notFound(`Supplier ${id} not found`);
      if (engine.id !== current.bookingEngineId) {
        throw rejected("BOOKING_ENGINE_CHANGE", "A supplier's booking engine cannot change; create the supplier under the other engine", [
          { field: "bookingEngine", rule: "immutable", message: `bookingEngine must stay ${current.bookingEngineId}` },
        ]);
      }
      const clash = await supplierRepository.liveByExternalId(tx, engine.id, input.externalId!);
      if (clash && clash.id !== id) throw duplicateExternalId(input.externalId!);
      return toSupplier(await supplierRepository.update(tx, id, supplierValues(input, engine.id), nextUpdateDate(now, current.updateDate)));
    });
  },

  /** Permanent: the supplier leaves every list, and its products leave the catalogue (DELETED in the change log). */
  async delete(ctx: CatalogueContext, id: number): Promise<{ id: number; deletedProducts: number }> {
    const access = await managementAccess(ctx);
    const now = ctx.clock.now();
    return ctx.database.db.transaction(async (tx) => {
      const current = await supplierRepository.liveForUpdate(tx, id);
      if (!current || !canManageEngine(access, current.bookingEngineId)) throw notFound(`Supplier ${id} not found`);
      const productIds = await productRepository.markDeletedOfSupplier(tx, id, now);
      await productChangeRepository.append(tx, productIds, "DELETED", now);
      await supplierRepository.markDeleted(tx, id, now);
      return { id, deletedProducts: productIds.length };
    });
  },

  async list(ctx: CatalogueContext, bookingEngineName: string, pageNumber: number, resultsPerPage: number): Promise<SupplierPage> {
    const access = await managementAccess(ctx);
    const problems = [];
    if (!Number.isInteger(pageNumber) || pageNumber < 1) problems.push({ field: "pageNumber", rule: "minimum", message: "pageNumber must be 1 or more" });
    if (!Number.isInteger(resultsPerPage) || resultsPerPage < 1 || resultsPerPage > MAX_RESULTS_PER_PAGE) {
      problems.push({ field: "resultsPerPage", rule: "range", message: `resultsPerPage must be 1 to ${MAX_RESULTS_PER_PAGE}` });
    }
    if (problems.length) throw badInput(problems.map((p) => p.message).join("; "), problems);
    const engine = await bookingEngineRepository.byName(ctx.database.db, bookingEngineName);
    if (!engine) {
      throw rejected("UNKNOWN_BOOKING_ENGINE", `Booking engine ${bookingEngineName} does not exist`, [
        { field: "bookingEngineName", rule: "exists", message: `booking engine ${bookingEngineName} does not exist` },
      ]);
    }
    if (!canManageEngine(access, engine.id)) {
      throw rejected("WRONG_BOOKING_ENGINE", `The caller may list the suppliers of ${access.ownEngine!.name} only`, [
        { field: "bookingEngineName", rule: "ownEngine", message: `bookingEngineName must be ${access.ownEngine!.name}` },
      ]);
    }
    const { rows, total } = await supplierRepository.pageOfEngine(ctx.database.db, engine.id, (pageNumber - 1) * resultsPerPage, resultsPerPage);
    for (const row of rows) ctx.loaders.supplier.prime(row.id, row);
    return { pageNumber, resultsPerPage, totalResults: total, items: rows.map(toSupplier) };
  },
};

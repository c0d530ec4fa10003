import { badInput, notFound, type FieldProblem } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { nextUpdateDate } from "../catalogue.timestamps.js";
import { bookingEngineRepository } from "../booking-engine/booking-engine.repository.js";
import { type CatalogueContext } from "../catalogue.loaders.js";
import { canManageEngine, engineForRequest, managementAccess } from "../management.access.js";
import { productRepository } from "../product/product.repository.js";
import { productChangeRepository } from "../product/product-change.repository.js";
import { supplierId, type Supplier, type SupplierOrder } from "./supplier.type.js";
import { connectionFrom, CountPrecision, offsetOfRequest, OrderDirection, pageRequest, serialCursor, serialPosition, type Connection, type PagingArguments } from "../../common/relay/relay.connection.js";
import { supplierRepository, type SupplierRow } from "./supplier.repository.js";
import { supplierProblems, supplierValues, type SupplierRequest } from "./supplier.rules.js";
import { bookingEngineRef } from "../booking-engine/booking-engine.type.js";

/** How many suppliers one page holds at most (spec 1's resultsPerPage). */
export const MAX_SUPPLIER_PAGE = 1000;

export const toSupplier = (row: SupplierRow): Supplier => ({
  id: supplierId(row.id),
  legacyResourceId: row.id,
  externalId: row.externalId,
  name: row.name,
  channel: row.channel,
  endpoint: row.endpoint,
  logo: row.logo,
  countryCode: row.countryCode,
  bookingEngine: bookingEngineRef(row.bookingEngineId),
  contact:
    row.website ?? row.email ?? row.telephone ?? row.address
      ? { website: row.website, email: row.email, telephone: row.telephone, address: row.address }
      : null,
  geoLocation: row.latitude ?? row.longitude ?? row.geoHash ? { latitude: row.latitude, longitude: row.longitude, geoHash: row.geoHash } : null,
  createdAt: row.creationDate,
  updatedAt: row.updateDate,
});

/** The refusal of a supplier request breaking the rules: every problem, named in spec 1's spelling. */
export const supplierRefusal = (problems: FieldProblem[]) => badInput(`The supplier is not valid: ${problems.map((p) => p.message).join("; ")}`, problems);

function assertValid(input: SupplierRequest): void {
  const problems = supplierProblems(input);
  if (!problems.empty) throw supplierRefusal(problems.list);
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

  /** The supplier when the caller manages its engine, else null: another engine's reads as unknown, so ids cannot be probed. */
  async visible(ctx: CatalogueContext, id: number | null): Promise<Supplier | null> {
    const access = await managementAccess(ctx);
    const row = id === null ? undefined : await ctx.loaders.supplier.load(id);
    return row && canManageEngine(access, row.bookingEngineId) ? toSupplier(row) : null;
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

  /** The live suppliers of an engine the caller manages, a page at a time. */
  async page(ctx: CatalogueContext, bookingEngineName: string, args: PagingArguments, order: SupplierOrder): Promise<Connection<Supplier>> {
    const access = await managementAccess(ctx);
    const request = pageRequest(args, MAX_SUPPLIER_PAGE, serialPosition);
    offsetOfRequest(request);
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
    // Read the way the page goes: a backward page of an ascending order is read descending, and turned around.
    const descending = (order.direction === OrderDirection.DESC) !== (request.direction === "backward");
    const rows = request.size === 0 ? [] : await supplierRepository.pageOfEngine(ctx.database.db, engine.id, request.size + 1, descending, request.position);
    for (const row of rows) ctx.loaders.supplier.prime(row.id, row);
    return connectionFrom(
      request,
      rows,
      toSupplier,
      serialCursor,
      async () => ({ count: await supplierRepository.countOfEngine(ctx.database.db, engine.id), precision: CountPrecision.EXACT }),
    );
  },
};

import { connectionFrom, CountPrecision, offsetOfRequest, OrderDirection, pageRequest, serialCursor, serialPosition, type Connection, type PagingArguments } from "../../common/relay/relay.connection.js";
import { badInput, forbidden, notFound, type FieldProblem } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { bookingEngineRepository, type BookingEngineRow } from "../booking-engine/booking-engine.repository.js";
import type { CatalogueContext } from "../catalogue.loaders.js";
import { canManageEngine, managementAccess, type ManagementAccess } from "../management.access.js";
import { supplierRepository, type SupplierRow } from "../supplier/supplier.repository.js";
import { taxonomyRepository } from "../taxonomy/taxonomy.repository.js";
import { nextUpdateDate } from "../catalogue.timestamps.js";
import { Problems, country, number, string } from "../validation/validation.checks.js";
import type { Executor } from "../../../drizzle/database.js";
import { productChangeRepository } from "./product-change.repository.js";
import { productRepository, type ProductFilter, type ProductRow, type ProductValues } from "./product.repository.js";
import { productProblems, productValues, type ProductRequest } from "./product.rules.js";
import type { Product, SupplierProductOrder } from "./product.type.js";
import { toProduct } from "./product.view.js";

interface Resolved {
  values: ProductValues;
  nodeUuids: string[];
  engine: BookingEngineRow;
}

/** Validates a request completely (fields, taxonomy codes, booking engine) and turns it into column values. */
async function resolveRequest(ctx: CatalogueContext, access: ManagementAccess, supplier: SupplierRow, input: ProductRequest): Promise<Resolved> {
  const problems = productProblems(input);
  const nodeUuids: string[] = [];
  const categories = Array.isArray(input.categories) ? input.categories : [];
  for (const level of [1, 2]) {
    const wanted = categories.map((c, index) => ({ c, index })).filter(({ c }) => c?.level === level && typeof c.code === "string");
    const nodes = await taxonomyRepository.currentByCodes(ctx.database.db, level, wanted.map(({ c }) => c.code!));
    for (const { c, index } of wanted) {
      const node = nodes.find((n) => n.code === c.code);
      if (node) nodeUuids.push(node.uuid);
      else problems.add(`categories[${index}].code`, "taxonomy", `${c.code} is not a level ${level} code of the activities taxonomy`);
    }
  }
  let engine = (await ctx.loaders.bookingEngine.load(supplier.bookingEngineId))!;
  if (typeof input.bookingEngine === "string" && input.bookingEngine !== "") {
    const named = await bookingEngineRepository.byName(ctx.database.db, input.bookingEngine);
    if (!named) problems.add("bookingEngine", "exists", `booking engine ${input.bookingEngine} does not exist`);
    else if (!access.isPlatform && named.id !== supplier.bookingEngineId) problems.add("bookingEngine", "ownEngine", `bookingEngine must be ${engine.name}`);
    else engine = named;
  }
  if (!problems.empty) throw productRefusal(problems.list);
  const values = productValues(input, supplier, engine.id);
  return { values, nodeUuids, engine };
}

/** The refusal of a product request with these problems: UNSUPPORTED_CURRENCY when its currency is its only fault. */
export function productRefusal(problems: FieldProblem[]) {
  const reason = problems.length === 1 && problems[0].field === "priceCurrency" ? "UNSUPPORTED_CURRENCY" : undefined;
  const message = `The product is not valid: ${problems.map((p) => p.message).join("; ")}`;
  return reason ? rejected(reason, message, problems) : badInput(message, problems);
}

async function manageableSupplier(ctx: CatalogueContext, access: ManagementAccess, db: Executor, supplierId: number, lock: boolean): Promise<SupplierRow> {
  const supplier = lock ? await supplierRepository.liveForUpdate(db, supplierId) : await ctx.loaders.supplier.load(supplierId);
  if (!supplier || !canManageEngine(access, supplier.bookingEngineId)) throw notFound(`Supplier ${supplierId} not found`);
  return supplier;
}

async function productOfSupplier(db: Executor, supplierId: number, productId: number): Promise<ProductRow> {
  const product = await productRepository.liveForUpdate(db, productId);
  if (!product || product.supplierId !== supplierId) throw notFound(`Product ${productId} not found for supplier ${supplierId}`);
  return product;
}

/** Everything a create or update needs before its transaction: the caller's rights and a fully validated request. */
async function prepareWrite(ctx: CatalogueContext, supplierId: number, input: ProductRequest) {
  const access = await managementAccess(ctx);
  const supplier = await manageableSupplier(ctx, access, ctx.database.db, supplierId, false);
  const resolved = await resolveRequest(ctx, access, supplier, input);
  return { access, supplier, ...resolved, now: ctx.clock.now() };
}

const externalIdTaken = (externalId: string, holderId: number) =>
  rejected("PRODUCT_EXTERNAL_ID_EXISTS", `Product externalId ${externalId} already exists (product ${holderId})`, [
    { field: "externalId", rule: "unique", message: `externalId ${externalId} is already used by product ${holderId}; update that product instead` },
  ]);

export interface PushResult {
  product: Product;
  /** True when the externalId belonged to another supplier's product, which moved here. */
  moved: boolean;
}

/** The largest page of a supplier's products: the nesting product → supplier → products multiplies by it at every turn. */
export const MAX_SUPPLIER_PRODUCTS_PAGE = 1000;

/**
 * Whether the booking flow can sell the product; a change is a change of the product (onlineBookable).
 * Returns what the product shows afterwards: not what was told, when the tell was older than one applied.
 */
async function writeBookingFlow(ctx: CatalogueContext, productId: number, bookable: boolean, version?: number): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const written = await productRepository.setBookingFlow(tx, productId, bookable, version, (current) => nextUpdateDate(now, current));
    // A product gone from the table shows nothing; failing would have the teller retry forever.
    if (!written) return false;
    if (written.changed && !written.row.deletedAt) await productChangeRepository.append(tx, [productId], "UPDATED", now);
    return written.row.bookingFlow;
  });
}

/** Products a bulk creation writes a statement at a time: about 60 columns each stay within a statement's parameters. */
const BULK_BATCH = 500;

/**
 * Creates products in bulk for a tool that holds the database itself (the demo and benchmark
 * seeds): there is no caller, so no rights are checked. Otherwise each is written as `push`
 * creates one: its row, its taxonomy links, and its NEW change with the product.changed messages
 * that change calls for, in the caller's transaction, a few statements per batch. Every request is
 * checked first, its category codes included: a generator that made an invalid product has a bug,
 * and fails loudly. `bookingFlow[i]`: the booking flow sells `requests[i]` from the start (the tool
 * writes its setup beside it). Returns the new ids in the order of the requests.
 */
export async function createProductsInBulk(
  db: Executor,
  supplier: { id: number; bookingEngineId: number },
  requests: readonly ProductRequest[],
  now: Date,
  bookingFlow: readonly boolean[] = [],
): Promise<number[]> {
  const nodes = await taxonomyRepository.allCurrent(db);
  const nodeByCode = new Map(nodes.map((node) => [`${node.level}:${node.code}`, node.uuid]));
  const nodeUuidsOf = (request: ProductRequest) => {
    const problems = productProblems(request);
    for (const [index, c] of (request.categories ?? []).entries()) {
      if (!nodeByCode.has(`${c.level}:${c.code}`)) problems.add(`categories[${index}].code`, "taxonomy", `${c.code} is not a level ${c.level} code of the activities taxonomy`);
    }
    if (!problems.empty) throw new Error(`product ${request.externalId} is invalid: ${JSON.stringify(problems.list)}`);
    return [...new Set((request.categories ?? []).map((c) => nodeByCode.get(`${c.level}:${c.code}`)!))];
  };
  const ids: number[] = [];
  for (let start = 0; start < requests.length; start += BULK_BATCH) {
    const batch = requests.slice(start, start + BULK_BATCH);
    const nodeUuids = batch.map(nodeUuidsOf);
    const values = batch.map((request, i) => ({ ...productValues(request, supplier, supplier.bookingEngineId), bookingFlow: bookingFlow[start + i] ?? false }));
    const batchIds = await productRepository.insertMany(db, values, now);
    await productChangeRepository.append(db, batchIds, "NEW", now);
    await taxonomyRepository.linkNewProducts(db, batchIds.flatMap((productId, i) => nodeUuids[i].map((nodeUuid) => ({ productId, nodeUuid }))));
    ids.push(...batchIds);
  }
  return ids;
}

export const productService = {
  /**
   * The supplier of a live product the caller manages, for a mutation that addresses the product
   * by its id alone; `guard`, when given, is the supplier it must belong to. A product the caller
   * may not manage is not told apart from one that does not exist.
   */
  async supplierOf(ctx: CatalogueContext, productId: number | null, guard: number | null): Promise<number> {
    const [product] = productId === null ? [] : await productRepository.liveByIds(ctx.database.db, [productId]);
    const supplier = product && (guard === null || guard === product.supplierId) ? await ctx.loaders.supplier.load(product.supplierId) : undefined;
    if (!supplier || !canManageEngine(await managementAccess(ctx), supplier.bookingEngineId)) throw notFound("Product not found");
    return supplier.id;
  },

  /**
   * Creates the product, or, when its externalId is held by a product of another supplier of the
   * same booking engine, moves that product here with the new content. The same externalId under
   * the same supplier is refused (PRODUCT_EXTERNAL_ID_EXISTS): update it instead.
   */
  async push(ctx: CatalogueContext, supplierId: number, input: ProductRequest, bookingFlow?: boolean): Promise<PushResult> {
    const { access, supplier, values: given, nodeUuids, now } = await prepareWrite(ctx, supplierId, input);
    const values = bookingFlow === undefined ? given : { ...given, bookingFlow };
    return ctx.database.db.transaction(async (tx) => {
      await manageableSupplier(ctx, access, tx, supplierId, true);
      await productRepository.lockExternalId(tx, supplier.bookingEngineId, values.externalId);
      const holder = await productRepository.liveByExternalIdForUpdate(tx, supplier.bookingEngineId, values.externalId);
      if (holder && holder.supplierId === supplierId) throw externalIdTaken(values.externalId, holder.id);
      const row = holder
        ? await productRepository.replace(tx, holder.id, values, nextUpdateDate(now, holder.updateDate))
        : await productRepository.insert(tx, values, now);
      await taxonomyRepository.replaceProductNodes(tx, row.id, nodeUuids);
      await productChangeRepository.append(tx, [row.id], holder ? "UPDATED" : "NEW", now);
      return { product: toProduct(row), moved: Boolean(holder) };
    });
  },

  /** `bookingFlow`: an OCTO import's own finding (shared rule with the booking engine), written with the content. */
  async update(ctx: CatalogueContext, supplierId: number, productId: number, input: ProductRequest, bookingFlow?: boolean): Promise<Product> {
    const { access, supplier, values: given, nodeUuids, now } = await prepareWrite(ctx, supplierId, input);
    const values = bookingFlow === undefined ? given : { ...given, bookingFlow };
    return ctx.database.db.transaction(async (tx) => {
      await manageableSupplier(ctx, access, tx, supplierId, true);
      const current = await productOfSupplier(tx, supplierId, productId);
      if (values.externalId !== current.externalId) {
        await productRepository.lockExternalId(tx, supplier.bookingEngineId, values.externalId);
        const clash = await productRepository.liveByExternalIdForUpdate(tx, supplier.bookingEngineId, values.externalId);
        if (clash) throw externalIdTaken(values.externalId, clash.id);
      }
      const row = await productRepository.replace(tx, productId, values, nextUpdateDate(now, current.updateDate));
      await taxonomyRepository.replaceProductNodes(tx, productId, nodeUuids);
      await productChangeRepository.append(tx, [productId], "UPDATED", now);
      return toProduct(row);
    });
  },

  async delete(ctx: CatalogueContext, supplierId: number, productId: number): Promise<{ id: number }> {
    const access = await managementAccess(ctx);
    const now = ctx.clock.now();
    return ctx.database.db.transaction(async (tx) => {
      await manageableSupplier(ctx, access, tx, supplierId, true);
      await productOfSupplier(tx, supplierId, productId);
      await productRepository.markDeleted(tx, productId, now);
      await productChangeRepository.append(tx, [productId], "DELETED", now);
      return { id: productId };
    });
  },

  /**
   * Booking tells whether its flow can sell the product; a change is a change of the product
   * (onlineBookable), so consumers syncing by modification date see it. Nobody else may tell it.
   */
  async recordBookingFlow(ctx: CatalogueContext, productId: number, bookable: boolean, version: number): Promise<boolean> {
    if (ctx.caller.service !== "booking") throw forbidden("Only the booking service tells the catalogue what its flow can sell");
    return writeBookingFlow(ctx, productId, bookable, version);
  },

  /**
   * An OCTO import tells it for its products by the rule the booking engine sells under
   * (subgraphs/common/octo/octo.sellable.ts): the flow books them in the supplier's system.
   */
  recordImportedBookingFlow: (ctx: CatalogueContext, productId: number, bookable: boolean): Promise<boolean> => writeBookingFlow(ctx, productId, bookable),

  /** Deprecating a deprecated product (or the reverse) changes nothing and logs nothing. */
  async setDeprecated(ctx: CatalogueContext, supplierId: number, productId: number, deprecated: boolean): Promise<Product> {
    const access = await managementAccess(ctx);
    const now = ctx.clock.now();
    return ctx.database.db.transaction(async (tx) => {
      await manageableSupplier(ctx, access, tx, supplierId, true);
      const current = await productOfSupplier(tx, supplierId, productId);
      if (current.deprecated === deprecated) return toProduct(current);
      const row = await productRepository.setDeprecated(tx, productId, deprecated, nextUpdateDate(now, current.updateDate));
      await productChangeRepository.append(tx, [productId], deprecated ? "DEPRECATED" : "UNDEPRECATED", now);
      return toProduct(row);
    });
  },

  /** A page of the supplier's live products (deprecated ones included), by number. */
  async pageOfSupplier(ctx: CatalogueContext, supplierId: number, filter: ProductFilter, args: PagingArguments, order: SupplierProductOrder): Promise<Connection<Product>> {
    const access = await managementAccess(ctx);
    const request = pageRequest(args, MAX_SUPPLIER_PRODUCTS_PAGE, serialPosition);
    offsetOfRequest(request);
    const problems = new Problems();
    country(problems, "countryCode", filter.countryCode);
    string(problems, "zipCode", filter.zipCode, { max: 20 });
    string(problems, "cityName", filter.cityName, { max: 255 });
    number(problems, "rating", filter.rating, { min: 0, max: 5 });
    number(problems, "numberOfRatings", filter.numberOfRatings, { min: 0, integer: true });
    if (!problems.empty) throw badInput(problems.list.map((p: FieldProblem) => p.message).join("; "), problems.list);
    await manageableSupplier(ctx, access, ctx.database.db, supplierId, false);
    // Read the way the page goes: a backward page of an ascending order is read descending, and turned around.
    const descending = (order.direction === OrderDirection.DESC) !== (request.direction === "backward");
    const rows = request.size === 0 ? [] : await productRepository.pageOfSupplier(ctx.database.db, supplierId, filter, request.size + 1, descending, request.position);
    return connectionFrom(
      request,
      rows,
      (row) => toProduct(row),
      serialCursor,
      async () => ({ count: await productRepository.countOfSupplier(ctx.database.db, supplierId, filter), precision: CountPrecision.EXACT }),
    );
  },
};

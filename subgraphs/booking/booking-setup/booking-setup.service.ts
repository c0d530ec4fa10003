import { hasAnyRole, hasScope } from "../../../core/caller.js";
import { forbidden, notFound, type FieldProblem } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { MANAGE_SCOPE, managementRoles } from "../../../core/roles.js";
import { bookingRefusal } from "../booking-errors.js";
import { bookingSetupSchema, type BookingSetup } from "../engines/inventory/booking-setup.js";
import { bookingSetupRepository } from "../engines/inventory/booking-setup.repository.js";
import { noteBookingFlow } from "../booking-flow/booking-flow-announcements.js";
import type { BookingContext } from "../loaders.js";
import type { ProductFacts } from "../catalogue-facts.js";


/** The same rule as product management: platform callers any product, content partners their engine's. */
async function managedProduct(ctx: BookingContext, supplierId: number, productId: number): Promise<ProductFacts> {
  if (!hasAnyRole(ctx.caller, managementRoles)) throw forbidden(`Booking setups are managed by ${managementRoles.join(", ")}`);
  if (!hasScope(ctx.caller, MANAGE_SCOPE)) throw rejected("INSUFFICIENT_SCOPE", `The access token lacks the ${MANAGE_SCOPE} scope`);
  const product = await ctx.loaders.catalogue.product.load(productId);
  if (!product || product.supplierId !== supplierId) throw notFound(`Product ${productId} of supplier ${supplierId} not found`);
  if (!ctx.caller.roles.includes("PLATFORM_CATALOG_MANAGEMENT")) {
    const ownEngine = ctx.caller.organisationId === null ? null : await ctx.loaders.catalogue.organisationEngine.load(ctx.caller.organisationId);
    // Another engine's product reads as unknown, as in product management.
    if (ownEngine !== product.scopeEngineId) throw notFound(`Product ${productId} of supplier ${supplierId} not found`);
  }
  return product;
}

export const bookingSetupService = {
  async get(ctx: BookingContext, supplierId: number, productId: number): Promise<BookingSetup | null> {
    const product = await managedProduct(ctx, supplierId, productId);
    return (await bookingSetupRepository.setupOf(ctx.database.db, product.id)) ?? null;
  },

  /** Replaces the setup; bookings already made keep the setup they were made with. */
  async set(ctx: BookingContext, supplierId: number, productId: number, input: Record<string, unknown>): Promise<BookingSetup> {
    const product = await managedProduct(ctx, supplierId, productId);
    if (product.bookingEngineKind !== "INVENTORY") {
      throw bookingRefusal("SETUP_NOT_FOR_ENGINE", `Product ${productId} belongs to ${product.bookingEngineKind} engine ${product.bookingEngineName}, which books in its own system; booking setups are for the built-in inventory`);
    }
    const parsed = bookingSetupSchema.safeParse(input);
    if (!parsed.success) {
      const problems: FieldProblem[] = parsed.error.issues.map((issue) => ({
        field: ["setup", ...issue.path].join("."),
        rule: issue.code,
        message: issue.message,
      }));
      throw bookingRefusal("INVALID_SETUP", `Invalid booking setup: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, problems);
    }
    const now = ctx.clock.now();
    await ctx.database.db.transaction(async (tx) => {
      await bookingSetupRepository.save(tx, product.id, parsed.data, now);
      await noteBookingFlow(tx, product.id, true, now);
    });
    await ctx.loaders.announceBookingFlows([product.id]);
    return parsed.data;
  },

  /** The product leaves the booking flow; bookings already made are kept. */
  async remove(ctx: BookingContext, supplierId: number, productId: number): Promise<boolean> {
    const product = await managedProduct(ctx, supplierId, productId);
    const now = ctx.clock.now();
    const removed = await ctx.database.db.transaction(async (tx) => {
      const found = await bookingSetupRepository.remove(tx, product.id);
      if (found) await noteBookingFlow(tx, product.id, false, now);
      return found;
    });
    if (removed) await ctx.loaders.announceBookingFlows([product.id]);
    return removed;
  },
};

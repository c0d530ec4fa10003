import { hasAnyRole, hasScope } from "../../../core/caller.js";
import { forbidden, notFound } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { MANAGE_SCOPE, managementRoles } from "../../../core/roles.js";
import { BookingEngineKind } from "../../common/booking-engine.kind.js";
import { bookingRefusal } from "../booking.errors.js";
import type { BookingSetup } from "../engines/inventory/booking-setup.schema.js";
import { bookingSetupRepository } from "../engines/inventory/booking-setup.repository.js";
import { noteBookingFlow } from "../booking-flow/booking-flow.announcements.js";
import type { BookingContext } from "../booking.loaders.js";
import type { ProductFacts } from "../catalogue.facts.js";
import type { BookingSetupInput } from "./booking-setup.type.js";
import { judgeTypedSetup } from "./booking-setup.document.js";

/** A product whose setup is managed, addressed by its number and, as a precondition, its supplier's. */
export interface SetupAddress {
  productId: number;
  /** null: any supplier's. */
  supplierId: number | null;
}

/** A managed product's booking: which kind of engine sells it, and its setup, if any. */
export interface ProductBookingSetupState {
  productId: number;
  bookingEngineKind: BookingEngineKind;
  setup: BookingSetup | null;
}

/** Who may manage setups at all: the caller's role and scope, before any product is looked at. */
function assertManager(ctx: BookingContext): void {
  if (!hasAnyRole(ctx.caller, managementRoles)) throw forbidden(`Booking setups are managed by ${managementRoles.join(", ")}`);
  if (!hasScope(ctx.caller, MANAGE_SCOPE)) throw rejected("INSUFFICIENT_SCOPE", `The access token lacks the ${MANAGE_SCOPE} scope`);
}

/**
 * The same rule as product management: platform callers any product, content partners their
 * engine's. Another engine's product, and one of another supplier than the address says, read as
 * unknown (null).
 */
async function managedProduct(ctx: BookingContext, address: SetupAddress): Promise<ProductFacts | null> {
  assertManager(ctx);
  const product = await ctx.loaders.catalogue.product.load(address.productId);
  if (!product || (address.supplierId !== null && product.supplierId !== address.supplierId)) return null;
  if (!ctx.caller.roles.includes("PLATFORM_CATALOG_MANAGEMENT")) {
    const ownEngine = ctx.caller.organisationId === null ? null : await ctx.loaders.catalogue.organisationEngine.load(ctx.caller.organisationId);
    if (ownEngine !== product.scopeEngineId) return null;
  }
  return product;
}

async function foundProduct(ctx: BookingContext, address: SetupAddress): Promise<ProductFacts> {
  const product = await managedProduct(ctx, address);
  if (!product) throw notFound(`Product ${address.productId} not found`);
  return product;
}

const stateOf = (product: ProductFacts, setup: BookingSetup | null): ProductBookingSetupState => ({
  productId: product.id,
  bookingEngineKind: product.bookingEngineKind === BookingEngineKind.OCTO ? BookingEngineKind.OCTO : BookingEngineKind.INVENTORY,
  setup,
});

export const bookingSetupService = {
  /** null for a product that does not exist or that the caller does not manage. */
  async get(ctx: BookingContext, address: SetupAddress): Promise<ProductBookingSetupState | null> {
    const product = await managedProduct(ctx, address);
    if (!product) return null;
    return stateOf(product, (await bookingSetupRepository.setupOf(ctx.database.db, product.id)) ?? null);
  },

  /** Replaces the setup; bookings already made keep the setup they were made with. */
  async set(ctx: BookingContext, address: SetupAddress, input: BookingSetupInput): Promise<ProductBookingSetupState> {
    const product = await foundProduct(ctx, address);
    if (product.bookingEngineKind !== BookingEngineKind.INVENTORY) {
      throw bookingRefusal("SETUP_NOT_FOR_ENGINE", `Product ${product.id} belongs to ${product.bookingEngineKind} engine ${product.bookingEngineName}, which books in its own system; booking setups are for the built-in inventory`);
    }
    const { setup, problems } = judgeTypedSetup(input);
    if (!setup) throw bookingRefusal("INVALID_SETUP", `Invalid booking setup: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, problems);
    const now = ctx.clock.now();
    await ctx.database.db.transaction(async (tx) => {
      await bookingSetupRepository.save(tx, product.id, setup, now);
      await noteBookingFlow(tx, product.id, true, now);
    });
    await ctx.loaders.announceBookingFlows([product.id]);
    return stateOf(product, setup);
  },

  /** The product leaves the booking flow; bookings already made are kept. A product without a setup is NOT_FOUND. */
  async remove(ctx: BookingContext, address: SetupAddress): Promise<ProductBookingSetupState> {
    const product = await foundProduct(ctx, address);
    const now = ctx.clock.now();
    const removed = await ctx.database.db.transaction(async (tx) => {
      const found = await bookingSetupRepository.remove(tx, product.id);
      if (found) await noteBookingFlow(tx, product.id, false, now);
      return found;
    });
    if (!removed) throw notFound(`Product ${product.id} has no booking setup`);
    await ctx.loaders.announceBookingFlows([product.id]);
    return stateOf(product, null);
  },
};

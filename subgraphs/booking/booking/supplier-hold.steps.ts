import type { GraphQLError } from "graphql";
import type { Executor } from "../../../drizzle/database.js";
import { asRefusal, bookingRefusal } from "../booking.errors.js";
import { EngineRefusal, TransientEngineError } from "../engines/booking.engine.js";
import type { BookingContext } from "../booking.loaders.js";
import { BOOKING_HOLD_MS, engineBooking, engineOfBooking, expireHold, ownedUnlocked, type Outcome } from "./booking.steps.js";
import type { BookingRow } from "./booking.repository.js";

/** The supplier was not asked: the step has not yet seen whether the hold needs it. */
export const UNASKED = Symbol("supplier hold not asked");
/** The step's answer when it has to ask the supplier first: it runs again once it has. */
export const EXTEND_FIRST = Symbol("extend the supplier hold first");
export type KeptHold = { expiresAt: Date } | "lapsed" | { refused: EngineRefusal } | undefined | typeof UNASKED;

/**
 * A step on a booking on hold (answers, confirm) that may have to extend its supplier's hold.
 * The supplier is called outside any transaction, so a slow supplier holds no lock; but most
 * bookings need no call (the built-in inventory holds for our whole hour), so the step first runs
 * as it is, and only when its locked read shows a hold to extend does it stop, ask the supplier,
 * and run again with the answer. One read of the booking per step instead of two.
 */
export async function keepingUpstreamHold(ctx: BookingContext, bookingId: string, now: Date, step: (kept: KeptHold) => Promise<Outcome | typeof EXTEND_FIRST>): Promise<Outcome> {
  const first = await step(UNASKED);
  if (first !== EXTEND_FIRST) return first;
  const second = await step(await keepUpstreamHold(ctx, bookingId, now));
  if (second === EXTEND_FIRST) throw new Error("a step asked for its supplier hold twice");
  return second;
}

/** Whether this booking's supplier holds it for less than the rest of our hour. */
export function holdToExtend(ctx: BookingContext, row: BookingRow, now: Date) {
  if (row.status !== "ON_HOLD" || now >= row.holdExpiresAt) return false;
  const until = row.creationDate.getTime() + BOOKING_HOLD_MS;
  return row.holdExpiresAt.getTime() < until - 60_000 && Boolean(engineOfBooking(row, ctx.loaders.stores).upstream);
}

/**
 * A supplier's hold is kept for the rest of our hour: answering and confirming extend it when it
 * ends sooner. "lapsed" when the supplier has let it go; undefined when there is nothing to do or
 * the supplier cannot be reached now (the hold stays as it is).
 */
async function keepUpstreamHold(ctx: BookingContext, bookingId: string, now: Date): Promise<KeptHold> {
  const row = await ownedUnlocked(ctx, bookingId);
  if (!row || !holdToExtend(ctx, row, now)) return undefined;
  const upstream = engineOfBooking(row, ctx.loaders.stores).upstream!;
  const until = new Date(row.creationDate.getTime() + BOOKING_HOLD_MS);
  try {
    const { expiresAt } = await upstream.extend(engineBooking(row), until, now);
    return { expiresAt: expiresAt < until ? expiresAt : until };
  } catch (error) {
    // A refused key says nothing of the hold: the step is refused, and the hold left as it is.
    if (error instanceof EngineRefusal && error.reason === "ENGINE_REFUSED") return { refused: error };
    if (error instanceof EngineRefusal) return "lapsed";
    if (error instanceof TransientEngineError) return undefined;
    throw error;
  }
}

/** Records a kept hold's new end, or expires a booking whose supplier hold lapsed, in the step's transaction. */
export async function applyKeptHold(ctx: BookingContext, tx: Executor, row: BookingRow, kept: KeptHold, now: Date): Promise<Outcome | undefined> {
  if (kept === UNASKED) return undefined;
  if (kept && typeof kept === "object" && "refused" in kept) return { refusal: asRefusal(kept.refused) as GraphQLError };
  if (kept === "lapsed") {
    await expireHold(ctx.loaders.stores, tx, row, now);
    return { refusal: bookingRefusal("BOOKING_EXPIRED", `The supplier no longer holds booking ${row.id}: start a new availability`) };
  }
  if (kept && kept.expiresAt > row.holdExpiresAt) {
    row.holdExpiresAt = kept.expiresAt;
    await ctx.loaders.stores.bookings.update(tx, row.id, { holdExpiresAt: kept.expiresAt });
  }
  return undefined;
}

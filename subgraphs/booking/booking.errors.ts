import type { GraphQLError } from "graphql";
import { EngineRefusal, TransientEngineError } from "./engines/booking.engine.js";
import type { FieldProblem } from "../../core/errors.js";
import { rejected, type RefusalCode } from "../../core/refusals.js";

/** The booking flow's refusals: entries of the one table (core/refusals.ts), with their codes and numbers. */
export type BookingRefusal = Exclude<RefusalCode, "NOT_FOUND" | "VALIDATION_FAILED" | "ENGINE_SECRETS_KEY_MISSING">;

export const bookingRefusal = (reason: BookingRefusal, message: string, problems: FieldProblem[] = []): GraphQLError => rejected(reason, message, problems);

/** A booking engine's failure as the flow's refusal: the engine's own, or ENGINE_UNAVAILABLE (503) for one that may pass; anything else as it is. */
export function asRefusal(error: unknown): unknown {
  if (error instanceof EngineRefusal) return bookingRefusal(error.reason, error.message, error.problems);
  if (error instanceof TransientEngineError) return bookingRefusal("ENGINE_UNAVAILABLE", `${error.message}. Nothing was changed: try again shortly`);
  return error;
}

/** Runs a call to a booking engine, answering its failures as refusals. */
export async function viaEngine<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw asRefusal(error);
  }
}

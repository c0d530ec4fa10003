import { localized, type BookingSetup } from "../engines/inventory/booking-setup.schema.js";
import { durationMs } from "../../../core/local-time.js";

export interface CancellationTerms {
  isCancellable: boolean;
  /** Refund of the tier in force now (0 when nothing was paid). */
  refundPercentage: number;
  cancellationPolicy: { label: string; duration?: string; refundPercentage: number }[];
}

/**
 * Who may cancel and what it refunds. An ON_HOLD booking (nothing paid) can always be dropped.
 * A CONFIRMED one can be cancelled before its start while a tier applies: a tier with a duration
 * applies until that long before the start, one without until the start; the most generous
 * applicable tier is in force. Without tiers a confirmed booking is not cancellable.
 */
export function cancellationTerms(setup: BookingSetup, status: string, startsAt: Date, now: Date, language: string): CancellationTerms {
  const cancellationPolicy = setup.cancellationTiers.map((tier) => ({
    label: localized(tier.label, language) ?? "",
    ...(tier.duration ? { duration: tier.duration } : {}),
    refundPercentage: tier.refundPercentage,
  }));
  if (status === "ON_HOLD") return { isCancellable: true, refundPercentage: 0, cancellationPolicy };
  if (status !== "CONFIRMED" || now >= startsAt) return { isCancellable: false, refundPercentage: 0, cancellationPolicy };
  const before = startsAt.getTime() - now.getTime();
  const applicable = setup.cancellationTiers.filter((tier) => !tier.duration || before >= durationMs(tier.duration));
  if (!applicable.length) return { isCancellable: false, refundPercentage: 0, cancellationPolicy };
  return { isCancellable: true, refundPercentage: Math.max(...applicable.map((tier) => tier.refundPercentage)), cancellationPolicy };
}

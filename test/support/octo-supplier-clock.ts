import { ShiftableClock } from "../../octo-supplier/octo-supplier.js";
import { instantOf, localDate } from "../../core/local-time.js";

/**
 * A supplier clock that starts at 06:00 in Paris today and then runs with real time. Tests that
 * name "tomorrow" and move the clock by minutes or hours would otherwise change day when CI runs
 * them near midnight.
 */
export function morningSupplierClock(): ShiftableClock {
  const startedAt = Date.now();
  const morning = instantOf(localDate(new Date(startedAt), "Europe/Paris"), "06:00", "Europe/Paris").getTime();
  return new ShiftableClock({ now: () => new Date(morning + (Date.now() - startedAt)) });
}

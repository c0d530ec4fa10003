import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/clock.js";
import { createLogger } from "../../core/logger.js";
import { bookingJobs } from "../../drizzle/schema.js";
import { startWorker } from "../../server/worker.js";
import { BookingJobPool } from "../../subgraphs/booking/jobs/booking-job.runner.js";
import { bookableAvailability, bookableProduct, consumer, familySetup, newRef, validAnswers } from "../support/booking.js";
import { useStack, type Stack } from "../support/stack.js";

const BOOKINGS = "/booking-flow/v1/bookings";
/** Far longer than any wait below: a booking confirmed within it was not confirmed by the poll. */
const POLL_SECONDS = 600;
/** Generous for a loaded CI machine; the point is that the job ran long before the poll could have. */
const WAIT_MS = 15_000;

async function pendingBooking(stack: Stack, confirmationDelaySeconds: number, date: string) {
  const { productId } = await bookableProduct(stack, familySetup({ confirmationDelaySeconds }));
  const buyer = await consumer(stack);
  const availability = await bookableAvailability(buyer.rest, productId, date, { time: "09:00", adults: 1 });
  let booking = (await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() })).body;
  while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`${BOOKINGS}/${booking.id}/questions`, validAnswers(booking))).body;
  const confirm = await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`);
  expect(confirm.body.status).toBe("PENDING_CONFIRM");
  const status = async () => (await buyer.rest.get(`${BOOKINGS}/${booking.id}`)).body.status as string;
  return { bookingId: booking.id as string, status, confirmedAt: Date.now() };
}

/** The booking's status once it left PENDING_CONFIRM, or PENDING_CONFIRM if it had not within `ms`. */
async function settledStatus(status: () => Promise<string>, ms = WAIT_MS): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const now = await status();
    if (now !== "PENDING_CONFIRM" || Date.now() > until) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the worker wakes on a committed job", () => {
  const logLines: string[] = [];
  const ctx = useStack({ env: { WORKER_POLL_SECONDS: String(POLL_SECONDS) }, ownDatabase: true, logLines });
  /** What the worker logged at warning level or above: why a job did not run, should one not. */
  const workerTrouble = () => logLines.filter((line) => /"role":"worker"/.test(line) && JSON.parse(line).level >= 40).join("\n");

  it("confirms a booking as soon as its job commits, long before the poll", async () => {
    const booking = await pendingBooking(ctx.stack, 0, "2027-03-10");
    expect(await settledStatus(booking.status), workerTrouble()).toBe("CONFIRMED");
  });

  it("runs a job written for later when it falls due, without waiting for the poll", async () => {
    const booking = await pendingBooking(ctx.stack, 1, "2027-03-11");
    expect(await settledStatus(booking.status), workerTrouble()).toBe("CONFIRMED");
    // Not before its run time: the notification found it not yet due and set a timer.
    expect(Date.now() - booking.confirmedAt).toBeGreaterThanOrEqual(900);
  });
});

describe("a worker starting", () => {
  const ctx = useStack({ env: { WORKER_LOOPS: "false" }, ownDatabase: true });

  it("runs the jobs written while no worker listened", async () => {
    const booking = await pendingBooking(ctx.stack, 0, "2027-03-12");
    expect(await booking.status()).toBe("PENDING_CONFIRM");
    const worker = startWorker({
      database: ctx.database,
      clock: systemClock,
      logger: createLogger("silent"),
      pollIntervalMs: POLL_SECONDS * 1000,
      signIn: { maxFailuresPerAccount: 10, maxFailuresPerAddress: 100, windowSeconds: 900 },
      graphs: ctx.stack.service.edge!.graphs,
    });
    try {
      expect(await settledStatus(booking.status)).toBe("CONFIRMED");
    } finally {
      await worker.stop();
    }
  });
});

describe("a job pool looking for due jobs", () => {
  const ctx = useStack({ env: { WORKER_LOOPS: "false" }, ownDatabase: true });

  it("asks to be woken for a job that falls due while it looks, rather than leaving it to the poll", async () => {
    const booking = await pendingBooking(ctx.stack, 60, "2027-03-13");
    const [job] = await ctx.database.db.select({ runAt: bookingJobs.runAt }).from(bookingJobs).where(eq(bookingJobs.bookingId, booking.bookingId));
    // The clock reads just before the job's time once, and after it from then on: a pool that
    // read it again for its look-up would find the job neither due at its claim nor due later.
    let readings = 0;
    const now = () => new Date(job!.runAt.getTime() + (readings++ === 0 ? -1 : 1000));
    const wakeUps: Date[] = [];
    const pool = new BookingJobPool(
      { database: ctx.database, logger: createLogger("silent"), now, graphs: ctx.stack.service.edge!.graphs },
      { concurrency: 1, wakeAt: (at) => wakeUps.push(at) },
    );
    pool.wake();
    await pool.settled();
    expect(pool.started).toBe(0);
    expect(wakeUps).toEqual([job!.runAt]);
    expect(await booking.status()).toBe("PENDING_CONFIRM");
  });
});

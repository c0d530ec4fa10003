import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../core/logger.js";
import { bookingJobs, bookings, slotInventory } from "../../drizzle/schema.js";
import { TransientEngineError, type BookingEngineAdapter } from "../../subgraphs/booking/engines/booking.engine.js";
import { engineRegistry } from "../../subgraphs/booking/engines/engine.registry.js";
import { inventoryEngine } from "../../subgraphs/booking/engines/inventory/inventory.engine.js";
import { JOB_LEASE_MS, runDueBookingJobs } from "../../subgraphs/booking/jobs/booking-job.runner.js";
import { bookableAvailability, bookableProduct, consumer, everyDay, familySetup, newRef, validAnswers } from "../support/booking.js";
import { productRequest } from "../support/catalogue.js";
import { ManualClock, useStack } from "../support/stack.js";

const clock = new ManualClock(new Date("2027-04-01T08:00:00Z"));
const ctx = useStack({ clock, env: { WORKER_LOOPS: "false" }, ownDatabase: true });
const BOOKINGS = "/booking-flow/v1/bookings";
const jobDeps = () => ({ database: ctx.database, logger: createLogger("silent"), now: () => clock.now(), graphs: ctx.stack.service.edge!.graphs });

async function confirmedRequest(buyer: Awaited<ReturnType<typeof consumer>>, productId: number, date: string) {
  const availability = await bookableAvailability(buyer.rest, productId, date, { time: "09:00", adults: 1 });
  let booking = (await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() })).body;
  while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`${BOOKINGS}/${booking.id}/questions`, validAnswers(booking))).body;
  const confirm = await buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`);
  expect(confirm.body.status).toBe("PENDING_CONFIRM");
  return booking.id as string;
}

describe("concurrency and faults", () => {
  it("many clients racing for the last places of a slot never overbook", async () => {
    const { productId } = await bookableProduct(ctx.stack, familySetup({ capacityPerSlot: 5, startTimes: ["09:00"] }));
    const buyers = await Promise.all(Array.from({ length: 12 }, () => consumer(ctx.stack)));
    const ready = await Promise.all(buyers.map((b) => bookableAvailability(b.rest, productId, "2027-04-10", { adults: 1 })));
    const results = await Promise.all(buyers.map((b, i) => b.rest.post(BOOKINGS, { availabilityId: ready[i].id, resellerRef: newRef() })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 500)).toHaveLength(7);
    for (const refused of results.filter((r) => r.status === 500)) expect(refused.body.errorCode).toBe(9563);
    const [slot] = await ctx.database.db.select().from(slotInventory).where(eq(slotInventory.productId, productId));
    expect(slot).toMatchObject({ capacity: 5, taken: 5 });
    const dates = await buyers[0].rest.get(`/booking-flow/v1/products/${productId}/availabilities?startDate=2027-04-10&endDate=2027-04-10`);
    expect(dates.body.availabilityDates).toEqual([]);
  });

  it("confirming twice at once writes one job and confirms once", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-04-11");
    let booking = (await buyer.rest.post(BOOKINGS, { availabilityId: availability.id, resellerRef: newRef() })).body;
    while (!booking.isQuestionStepComplete) booking = (await buyer.rest.put(`${BOOKINGS}/${booking.id}/questions`, validAnswers(booking))).body;
    const both = await Promise.all([buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`), buyer.rest.post(`${BOOKINGS}/${booking.id}/confirm`)]);
    expect(both.map((r) => r.body.status)).toEqual(["PENDING_CONFIRM", "PENDING_CONFIRM"]);
    expect(await ctx.database.db.select().from(bookingJobs).where(eq(bookingJobs.bookingId, booking.id))).toHaveLength(1);
    clock.advance(3);
    await Promise.all([runDueBookingJobs(jobDeps()), runDueBookingJobs(jobDeps())]);
    const [row] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row.status).toBe("CONFIRMED");
  });

  it("a worker that dies mid-confirmation leaves the job to another, and the booking is confirmed exactly once", async () => {
    const { productId, partner } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const bookingId = await confirmedRequest(buyer, productId, "2027-04-12");
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inConfirm = new Promise<void>((resolve) => (entered = resolve));
    // The first worker reaches the supplier and never comes back (killed mid-call).
    const hanging: BookingEngineAdapter = {
      ...inventoryEngine,
      confirm: async (db, booking, product) => {
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        return inventoryEngine.confirm(db, booking, product);
      },
    };
    engineRegistry.register(partner.engineName, hanging);
    clock.advance(3);
    const dead = runDueBookingJobs(jobDeps());
    await inConfirm;
    const [leased] = await ctx.database.db.select().from(bookingJobs).where(eq(bookingJobs.bookingId, bookingId));
    expect(leased.attempts).toBe(1);

    // Before the lease lapses no other worker touches the job.
    engineRegistry.register(partner.engineName, inventoryEngine);
    expect(await runDueBookingJobs(jobDeps())).toBe(0);
    clock.advance(JOB_LEASE_MS / 1000 + 1);
    expect(await runDueBookingJobs(jobDeps())).toBe(1);
    const [confirmed] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(confirmed.status).toBe("CONFIRMED");

    // The dead worker's late answer changes nothing: it no longer holds the lease.
    release();
    await dead;
    const [after] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(after.confirmedAt).toEqual(confirmed.confirmedAt);
    expect(after.updateDate).toEqual(confirmed.updateDate);
    const [job] = await ctx.database.db.select().from(bookingJobs).where(eq(bookingJobs.bookingId, bookingId));
    expect(job.attempts).toBe(2);
    expect(job.doneAt).not.toBeNull();
  });

  it("a stopping worker finishes the confirmation it runs, takes no other job, and hands back one it claimed but had not begun", async () => {
    const { productId, partner } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const first = await confirmedRequest(buyer, productId, "2027-04-14");
    const second = await confirmedRequest(buyer, productId, "2027-04-15");
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inConfirm = new Promise<void>((resolve) => (entered = resolve));
    engineRegistry.register(partner.engineName, {
      ...inventoryEngine,
      confirm: async (db, booking, product) => {
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        return inventoryEngine.confirm(db, booking, product);
      },
    });
    clock.advance(3);
    const stopping = new AbortController();
    const running = runDueBookingJobs({ ...jobDeps(), stopping: stopping.signal });
    await inConfirm;
    stopping.abort();
    release();
    expect(await running).toBe(1);
    engineRegistry.register(partner.engineName, inventoryEngine);
    const statusOf = async (id: string) => (await ctx.database.db.select().from(bookings).where(eq(bookings.id, id)))[0].status;
    const jobOf = async (id: string) => (await ctx.database.db.select().from(bookingJobs).where(eq(bookingJobs.bookingId, id)))[0];
    expect([await statusOf(first), await statusOf(second)]).toEqual(["CONFIRMED", "PENDING_CONFIRM"]);
    expect(await jobOf(second)).toMatchObject({ attempts: 0, lockedUntil: null, doneAt: null });

    // The stop lands between claiming the job and starting it: the lease is given back at once.
    let looks = 0;
    const stopsAfterClaim = { get aborted() { return ++looks > 1; } } as AbortSignal;
    expect(await runDueBookingJobs({ ...jobDeps(), stopping: stopsAfterClaim })).toBe(0);
    expect(await jobOf(second)).toMatchObject({ attempts: 0, lockedUntil: null, leaseId: null, doneAt: null });
    // Another worker takes it now, not a lease later.
    expect(await runDueBookingJobs(jobDeps())).toBe(1);
    expect(await statusOf(second)).toBe("CONFIRMED");
  });

  it("transient supplier failures are retried with backoff until the supplier answers", async () => {
    const { productId, partner } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const bookingId = await confirmedRequest(buyer, productId, "2027-04-13");
    let failures = 2;
    engineRegistry.register(partner.engineName, {
      ...inventoryEngine,
      confirm: async (db, booking, product) => {
        if (failures-- > 0) throw new TransientEngineError("supplier timed out");
        return inventoryEngine.confirm(db, booking, product);
      },
    });
    clock.advance(3);
    await runDueBookingJobs(jobDeps());
    const status = async () => (await ctx.database.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0].status;
    expect(await status()).toBe("PENDING_CONFIRM");
    const [retry] = await ctx.database.db.select().from(bookingJobs).where(eq(bookingJobs.bookingId, bookingId));
    expect(retry.lastError).toBe("supplier timed out");
    expect(retry.runAt.getTime() - clock.now().getTime()).toBe(2000);
    clock.advance(1);
    expect(await runDueBookingJobs(jobDeps())).toBe(0);
    clock.advance(1);
    await runDueBookingJobs(jobDeps());
    expect(await status()).toBe("PENDING_CONFIRM");
    clock.advance(4);
    await runDueBookingJobs(jobDeps());
    expect(await status()).toBe("CONFIRMED");
    engineRegistry.register(partner.engineName, inventoryEngine);
  });

  it("a supplier refusal moves the booking to REJECTED with a refund, and its places return", async () => {
    const { productId, supplierId, partner } = await bookableProduct(ctx.stack, familySetup({ capacityPerSlot: 1, startTimes: ["09:00"] }));
    const buyer = await consumer(ctx.stack);
    const bookingId = await confirmedRequest(buyer, productId, "2027-04-14");
    // The supplier withdraws the day before answering.
    const periods = everyDay();
    (periods.weeklyPeriods[0] as { closedDayList: string[] }).closedDayList = ["2027-04-14"];
    expect((await partner.rest.put(`/api/supplier/${supplierId}/product/${productId}`, productRequest({ availabilityPeriods: periods }))).status).toBe(200);
    clock.advance(3);
    await runDueBookingJobs(jobDeps());
    const read = await buyer.rest.get(`${BOOKINGS}/${bookingId}`);
    expect(read.body).toMatchObject({ status: "REJECTED", paymentStatus: "REFUND", rejectionReason: expect.stringMatching(/withdrawn/) });
    expect(read.body.voucherUrl).toBeUndefined();
    const [slot] = await ctx.database.db.select().from(slotInventory).where(eq(slotInventory.productId, productId));
    expect(slot.taken).toBe(0);
  });

  it("a voucher link opens the PDF, and is refused once expired or tampered with", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const bookingId = await confirmedRequest(buyer, productId, "2027-04-15");
    clock.advance(3);
    await runDueBookingJobs(jobDeps());
    const url = new URL((await buyer.rest.get(`${BOOKINGS}/${bookingId}`)).body.voucherUrl);
    expect(url.pathname).toBe(`/booking-flow/v1/vouchers/${bookingId}.pdf`);
    const pdf = await fetch(url);
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");

    const tampered = new URL(url);
    tampered.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const forged = await fetch(tampered);
    expect(forged.status).toBe(403);
    expect((await forged.json()) as object).toMatchObject({ code: "VOUCHER_LINK_INVALID" });
    const otherBooking = new URL(url.toString().replace(bookingId, "0b8a2f3c-4d5e-4f60-8a7b-9c0d1e2f3a4b"));
    expect((await fetch(otherBooking)).status).toBe(403);
    expect(((await (await fetch(new URL(url.pathname, url))).json()) as { code: string }).code).toBe("VOUCHER_LINK_INVALID");

    clock.advance(24 * 3600 + 1);
    const expired = await fetch(url);
    expect(expired.status).toBe(410);
    expect((await expired.json()) as object).toMatchObject({ status: 410, code: "VOUCHER_LINK_EXPIRED" });
  });

  it("claims several due jobs in one statement and runs them at once, never more than the bound", async () => {
    const { productId, partner } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const ids: string[] = [];
    for (const day of [20, 21, 22, 23, 24, 25]) ids.push(await confirmedRequest(buyer, productId, `2027-04-${day}`));
    const bound = 3;
    let active = 0;
    let most = 0;
    let begun = 0;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let full: () => void = () => {};
    const boundReached = new Promise<void>((resolve) => (full = resolve));
    engineRegistry.register(partner.engineName, {
      ...inventoryEngine,
      confirm: async (db, booking, product) => {
        begun++;
        most = Math.max(most, ++active);
        if (active === bound) full();
        try {
          await gate;
          // Each supplier call takes a while, so calls overlap once the gate is open too.
          await new Promise((resolve) => setTimeout(resolve, 5));
          return await inventoryEngine.confirm(db, booking, product);
        } finally {
          active--;
        }
      },
    });
    clock.advance(3);
    const running = runDueBookingJobs(jobDeps(), bound);
    await boundReached;
    // The three under way were taken by one claim: one statement, one lease.
    const leased = (await ctx.database.db.select().from(bookingJobs).where(inArray(bookingJobs.bookingId, ids))).filter((j) => j.lockedUntil !== null);
    expect(leased).toHaveLength(bound);
    expect(new Set(leased.map((j) => j.leaseId)).size).toBe(1);
    // While every slot is taken, no fourth call begins.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(begun).toBe(bound);
    open();
    expect(await running).toBe(ids.length);
    expect(most).toBe(bound);
    const rows = await ctx.database.db.select().from(bookings).where(inArray(bookings.id, ids));
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => "CONFIRMED"));
    const jobs = await ctx.database.db.select().from(bookingJobs).where(inArray(bookingJobs.bookingId, ids));
    expect(jobs.map((j) => j.attempts)).toEqual(ids.map(() => 1));
    engineRegistry.register(partner.engineName, inventoryEngine);
  });
});

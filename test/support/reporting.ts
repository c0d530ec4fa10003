import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../../drizzle/database.js";
import { accounts, bookings } from "../../drizzle/schema.js";
import { bookableAvailability, bookableProduct, consumer, familySetup, newRef, validAnswers } from "./booking.js";
import type { Stack } from "./stack.js";

export type BookingInsert = typeof bookings.$inferInsert;

/** The account id and organisation of a username. */
export async function accountOf(database: Database, username: string) {
  const [row] = await database.db.select({ id: accounts.id, organisationId: accounts.organisationId }).from(accounts).where(eq(accounts.username, username));
  return row;
}

/**
 * A booking made through the REST flow up to ON_HOLD with every question answered: the template
 * that report fixtures copy, so that every copy carries a real setup snapshot and selections.
 */
export async function templateBooking(stack: Stack, date = "2027-03-10", setup: Record<string, unknown> = familySetup()) {
  const { productId } = await bookableProduct(stack, setup);
  const buyer = await consumer(stack);
  const availability = await bookableAvailability(buyer.rest, productId, date, { time: "14:00", adults: 2 });
  const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
  if (created.status !== 201) throw new Error(`booking: ${JSON.stringify(created.body)}`);
  let booking = created.body;
  for (let round = 0; round < 3 && !booking.isQuestionStepComplete; round++) {
    const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking));
    if (answered.status !== 200) throw new Error(`questions: ${answered.status} ${JSON.stringify(answered.body)}`);
    booking = answered.body;
  }
  return { bookingId: booking.id as string, productId, buyer };
}

/**
 * Copies of a real booking written straight into the booking table, as the booking subgraph
 * would leave them after confirmations and cancellations on given days; the reporting
 * projection picks them up through its trigger like any other change.
 */
export async function copiesOf(database: Database, templateId: string, variants: Partial<BookingInsert>[]): Promise<string[]> {
  const [template] = await database.db.select().from(bookings).where(eq(bookings.id, templateId));
  const rows = variants.map((variant) => ({ ...template, id: randomUUID(), resellerRef: newRef(), ...variant }));
  for (let i = 0; i < rows.length; i += 500) await database.db.insert(bookings).values(rows.slice(i, i + 500));
  return rows.map((row) => row.id);
}

import { describe, expect, it } from "vitest";
import { bookableAvailability, bookableProduct, consumer, familySetup, newRef, validAnswers } from "../support/booking.js";
import { pdfLines } from "../support/pdf-text.js";
import { ManualClock, useStack } from "../support/stack.js";

const clock = new ManualClock(new Date("2027-03-01T08:00:00Z"));
const ctx = useStack({ clock, env: { WORKER_LOOPS: "false" }, ownDatabase: true });

describe("the booking flow through REST, dates to voucher", () => {
  it("books, answers, confirms, is confirmed by the supplier with a voucher, and cancels with the tier in force", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await consumer(ctx.stack);
    const base = `/booking-flow/v1/products/${productId}/availabilities`;

    const dates = await buyer.rest.get(`${base}?startDate=2027-03-09&endDate=2027-03-12`);
    expect(dates.status).toBe(200);
    expect(dates.body).toEqual({ availabilityDates: ["2027-03-09", "2027-03-10", "2027-03-11", "2027-03-12"] });
    const next = await buyer.rest.get(`${base}/next`);
    expect(next.body.availabilityDates[0]).toBe("2027-03-01");
    expect(next.body.availabilityDates.at(-1)).toBe("2027-03-31");

    const options = await buyer.rest.get(`${base}/2027-03-10/options`);
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ availabilityDate: "2027-03-10", isOptionStepCompleted: false, isPricingStepCompleted: false });
    expect(options.body.availabilityOptions).toHaveLength(1);
    expect(options.body.availabilityOptions[0]).toMatchObject({ label: "Start time", level: "0", dataType: "OPTIONS", optionChoices: { "09:00": "09:00", "14:00": "14:00" } });
    expect(options.body.availabilityOptions[0].selectedOptionId).toBeUndefined();

    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-10", { time: "14:00", adults: 2, children: 1 });
    expect(availability).toMatchObject({ isOptionStepCompleted: true, isPricingStepCompleted: true, totalPrice: { retail: 120, currency: "EUR" } });

    const created = await buyer.rest.send("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() }, { externalClientId: "traveller42" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "ON_HOLD",
      paymentStatus: "ON_HOLD",
      isQuestionStepComplete: false,
      availabilityDateTime: "2027-03-10T14:00:00+01:00[Europe/Zurich]",
      travelerDetails: { externalClientId: "traveller42" },
    });
    const bookingId = created.body.id;
    expect(created.body.questions.participants).toHaveLength(3);

    const answered = await buyer.rest.put(`/booking-flow/v1/bookings/${bookingId}/questions`, validAnswers(created.body));
    expect(answered.status).toBe(200);
    // Answering "pickup: true" reveals the hotel follow-up, which the next call answers.
    const hotel = answered.body.questions.booking[0].followUpQuestions;
    expect(hotel).toHaveLength(1);
    expect(answered.body.isQuestionStepComplete).toBe(false);
    const complete = await buyer.rest.put(`/booking-flow/v1/bookings/${bookingId}/questions`, validAnswers(answered.body));
    expect(complete.body.isQuestionStepComplete).toBe(true);

    const confirmed = await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "PENDING_CONFIRM", paymentStatus: "PAID" });
    expect(confirmed.body.voucherUrl).toBeUndefined();

    clock.advance(3);
    await ctx.stack.service.worker!.runOnce();
    const read = await buyer.rest.get(`/booking-flow/v1/bookings/${bookingId}`);
    expect(read.body).toMatchObject({ status: "CONFIRMED", paymentStatus: "PAID" });
    expect(read.body.bookingEngineDetails.bookingCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const voucher = await fetch(read.body.voucherUrl);
    expect(voucher.status).toBe(200);
    expect(voucher.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await voucher.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");

    const cancelled = await buyer.rest.delete(`/booking-flow/v1/bookings/${bookingId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.cancellationInformation).toMatchObject({ cancellation: { isCancellable: false }, refundPercentage: 100 });
    const after = await buyer.rest.get(`/booking-flow/v1/bookings/${bookingId}`);
    expect(after.body).toMatchObject({ status: "CANCELLED", paymentStatus: "REFUND" });
  });

  it("prints on the voucher the lead traveller the setup declares, answered in Greek or in Japanese", async () => {
    const japanese = familySetup({
      questions: {
        ...familySetup().questions,
        customer: [
          { key: "email", question: "E-mail", dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
          // A question text with no "name" in it: the setup, not the wording, says where the name is.
          { key: "fullName", question: "氏名", dataType: "TEXT" },
        ],
      },
      leadTravellerName: ["fullName"],
    });
    const cases = [
      { setup: familySetup(), names: { "First name": "Αλέξανδρος", "Last name": "Παπαδόπουλος" }, printed: "Αλέξανδρος Παπαδόπουλος" },
      { setup: japanese, names: { 氏名: "山田太郎" }, printed: "山田太郎" },
    ];
    for (const { setup, names, printed } of cases) {
      const { productId } = await bookableProduct(ctx.stack, setup);
      const buyer = await consumer(ctx.stack);
      const availability = await bookableAvailability(buyer.rest, productId, "2027-03-11", { time: "09:00", adults: 1 });
      const created = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() });
      expect(created.status).toBe(201);
      const bookingId = created.body.id;
      const questionOf = new Map<string, string>(created.body.questions.customer.map((q: { id: string; question: string }) => [q.id, q.question]));
      const answer = async (booking: unknown) => {
        const answers = validAnswers(booking).map((a) => ({ ...a, value: names[questionOf.get(a.id) as keyof typeof names] ?? a.value }));
        return buyer.rest.put(`/booking-flow/v1/bookings/${bookingId}/questions`, answers);
      };
      const answered = await answer(created.body);
      expect(answered.status).toBe(200);
      // The hotel follow-up appears once pickup is answered.
      const complete = await answer(answered.body);
      expect(complete.body.isQuestionStepComplete).toBe(true);
      expect(complete.body.questions.customer.filter((q: { question: string }) => q.question in names).map((q: { value: string }) => q.value)).toEqual(
        Object.values(names),
      );
      expect((await buyer.rest.post(`/booking-flow/v1/bookings/${bookingId}/confirm`)).body.status).toBe("PENDING_CONFIRM");

      clock.advance(3);
      await ctx.stack.service.worker!.runOnce();
      const read = await buyer.rest.get(`/booking-flow/v1/bookings/${bookingId}`);
      expect(read.body.status).toBe("CONFIRMED");
      // The signed link is the only authorisation the voucher needs: fetched without the buyer's token.
      const voucher = await fetch(read.body.voucherUrl);
      expect(voucher.status).toBe(200);
      expect(voucher.headers.get("content-type")).toBe("application/pdf");
      const lines = await pdfLines(new Uint8Array(await voucher.arrayBuffer()));
      expect(lines[lines.indexOf("LEAD TRAVELLER") + 1]).toBe(printed);
      expect(lines).toContain(read.body.bookingEngineDetails.bookingCode);
    }
  });
});

import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { searchAndBook } from "../../examples/generated-client/search-and-book.js";
import { bookableProduct } from "../support/booking.js";
import { useStack } from "../support/stack.js";

// The worker runs on its timers: the supplier's confirmation arrives as it would in the sandbox.
const t = useStack({ ownDatabase: true });

describe("the client @hey-api/openapi-ts generates from the OpenAPI document (examples/generated-client)", () => {
  it("signs in, finds a product, reads it and books it to CONFIRMED, with typed answers the service really sends", async () => {
    const word = `fjord${randomUUID().replace(/[^a-f]/g, "").slice(0, 8)}`;
    const { productId } = await bookableProduct(t.stack, undefined, undefined, { title: { en: `Zermatt ${word} hike` } });
    const buyer = await t.stack.createAccount("CONSUMER");

    const result = await searchAndBook({ baseUrl: t.stack.url, username: buyer.username, password: buyer.password, search: `title:${word}`, adults: 2 });

    expect(result.totalFound).toBe(1);
    // Parsed JSON, not a stream: the answer says what it is.
    expect(result.product).toMatchObject({ id: productId, productId, title: `Zermatt ${word} hike`, cityName: "Zermatt" });
    expect(result.booking).toMatchObject({ status: "CONFIRMED", paymentStatus: "PAID", isQuestionStepComplete: true });
    expect(result.booking!.bookingEngineDetails!.bookingCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(result.booking!.voucherUrl).toMatch(/^http/);
    const read = await fetch(`${t.stack.url}/booking-flow/v1/bookings/${result.booking!.id}`, {
      headers: { authorization: `Bearer ${(await t.stack.login(buyer.username, buyer.password)).access_token}` },
    });
    expect(((await read.json()) as { status: string }).status).toBe("CONFIRMED");
  });

  it("reports the service's refusals: the OAuth error at sign-in, the REST error body after", async () => {
    const buyer = await t.stack.createAccount("CONSUMER");
    await expect(searchAndBook({ baseUrl: t.stack.url, username: buyer.username, password: "not-the-password", search: "title:museum" })).rejects.toThrow(
      '400: {"error":"invalid_grant","error_description":"Invalid user credentials"}',
    );
    await expect(searchAndBook({ baseUrl: t.stack.url, username: buyer.username, password: buyer.password, search: "title museum" })).rejects.toThrow(/^400: \{"status":400,"code":"INVALID_SEARCH"/);
  });
});

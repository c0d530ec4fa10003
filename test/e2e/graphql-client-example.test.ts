import { toGlobalId } from "../../core/global-id.js";
import { describe, expect, it } from "vitest";
import { bookAndWait } from "../../examples/graphql-client/book-and-wait.js";
import { bookableProduct } from "../support/booking.js";
import { useStack } from "../support/stack.js";

// The worker runs on its timers: the supplier's confirmation arrives as it would in the sandbox.
const ctx = useStack({ ownDatabase: true });

describe("the typed GraphQL client example (examples/graphql-client)", () => {
  it("signs in, books through the mutations and sees CONFIRMED on bookingStatusChanged", async () => {
    const { productId } = await bookableProduct(ctx.stack);
    const buyer = await ctx.stack.createAccount("CONSUMER");

    const result = await bookAndWait({ baseUrl: ctx.stack.url, username: buyer.username, password: buyer.password, productId: toGlobalId("Product", productId), adults: 2 });

    expect(result.status).toBe("CONFIRMED");
    // Subscribed before the confirmation: the first message is the booking on hold.
    expect(result.statuses[0]).toBe("ON_HOLD");
    expect(result.statuses.at(-1)).toBe("CONFIRMED");
    expect(result.bookingCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // What the client saw is what the service keeps.
    const token = (await ctx.stack.login(buyer.username, buyer.password)).access_token;
    const read = await fetch(`${ctx.stack.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "query($id: ID!) { booking(id: $id) { status paymentStatus } }", variables: { id: result.bookingId } }),
    });
    expect(((await read.json()) as { data: { booking: unknown } }).data.booking).toEqual({ status: "CONFIRMED", paymentStatus: "PAID" });
  });
});

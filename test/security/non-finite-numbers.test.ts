import { describe, expect, it } from "vitest";
import { bookableAvailability, bookableProduct, consumer } from "../support/booking.js";
import { useStack } from "../support/stack.js";

/**
 * Found by the input fuzz (input-fuzz.test.ts): Ajv's coercion reads `Infinity`, `-Infinity` and
 * `1e999` in a path or query as an infinite number that passes `type: integer` and its bounds;
 * the operation then failed with a 500.
 */
describe("infinite numbers in a REST request", () => {
  const t = useStack({ env: { WORKER_LOOPS: "false" } });

  it("are refused with 400 VALIDATION_FAILED naming the field, in a path, a query or a body", async () => {
    const { productId, partner } = await bookableProduct(t.stack);
    const buyer = await consumer(t.stack);

    const inPath = await partner.rest.get("/api/supplier/Infinity");
    expect(inPath.status).toBe(400);
    expect(inPath.body).toMatchObject({ status: 400, code: "VALIDATION_FAILED", details: [{ field: "supplierId", rule: "finite", message: "must be a finite number" }] });
    expect((await buyer.rest.get(`/booking-flow/v1/products/-Infinity/availabilities/next`)).body.details).toEqual([
      { field: "productId", rule: "finite", message: "must be a finite number" },
    ]);

    const inQuery = await buyer.rest.get("/content/v0/import/activities/active?page%5Blimit%5D=1e999");
    expect(inQuery.status).toBe(400);
    expect(inQuery.body.details).toEqual([{ field: "page[limit]", rule: "finite", message: "must be a finite number" }]);

    // Coerced arrays (a repeated parameter) too.
    const repeated = await buyer.rest.get(`/recommendation/v2/activities?minPrice=1&minPrice=Infinity`);
    expect(repeated.status).toBe(400);

    // The same values stay ordinary in a body: JSON has no infinity, and 1e999 is refused by type.
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-10", { adults: 2 });
    const response = await fetch(`${t.stack.url}/booking-flow/v1/products/${productId}/availabilities/${availability.id}/prices`, {
      method: "PUT",
      headers: { authorization: `Bearer ${buyer.token}`, "content-type": "application/json" },
      body: '[{"unitId":"adult","value":1e999}]',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("VALIDATION_FAILED");
  });
});

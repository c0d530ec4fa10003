import { describe, expect, it } from "vitest";
import { bookableAvailability, bookableProduct, consumer } from "../support/booking.js";
import { productRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

/**
 * Found by the input fuzz (input-fuzz.test.ts); each answered 500 before: a JSON integer past
 * GraphQL's 32-bit Int passed `type: integer`, and an empty query value (`?pageNumber=`) was
 * coerced to null, which bypassed the parameter's default and reached a non-null variable.
 */
describe("REST input the operation cannot take", () => {
  const t = useStack({ env: { WORKER_LOOPS: "false" } });

  it("refuses integers outside 32 bits in a body with 400 VALIDATION_FAILED, changing nothing", async () => {
    const { productId, supplierId, partner } = await bookableProduct(t.stack);
    const product = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ numberOfRatings: 2 ** 31 }));
    expect(product.status).toBe(400);
    expect(product.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "numberOfRatings", rule: "maximum", message: "must be <= 2147483647" }] });

    const buyer = await consumer(t.stack);
    const availability = await bookableAvailability(buyer.rest, productId, "2027-03-10", { adults: 2 });
    const prices = `/booking-flow/v1/products/${productId}/availabilities/${availability.id}/prices?currencyCode=EUR`;
    const quantities = await buyer.rest.put(prices, [{ unitId: "child", value: -1.7976931348623151e308 }]);
    expect(quantities.status).toBe(400);
    expect(quantities.body.details).toEqual([{ field: "[0].value", rule: "minimum", message: "must be >= -2147483648" }]);
    expect((await buyer.rest.get(prices)).body.unitOptions.map((unit: { unitQuantity: number }) => unit.unitQuantity)).toEqual([2, 0]);
  });

  it("refuses an empty value for a parameter with a default, as for any other value of the wrong type", async () => {
    const buyer = await consumer(t.stack);
    for (const [path, field] of [
      ["/recommendation/v2/activities?page%5Boffset%5D=", "page[offset]"],
      ["/api/consumer/products?Search=title:x&pageNumber=", "pageNumber"],
      ["/content/v0/import/activities/active?page%5Blimit%5D=", "page[limit]"],
      ["/recommendation/v1/top-activities?cityName=Zermatt&radius=", "radius"],
    ]) {
      const answer = await buyer.rest.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field, rule: "type" }] });
    }
    // Absent, the default still applies.
    expect((await buyer.rest.get("/recommendation/v2/activities")).status).toBe(200);
  });
});

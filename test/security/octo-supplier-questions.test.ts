import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { resetCircuitBreakers } from "../../subgraphs/common/octo/octo.client.js";
import { consumer, newRef } from "../support/booking.js";
import { getJson, useStack } from "../support/stack.js";

const SUPPLIER_KEY = `octo-key-${randomUUID()}`;

/**
 * A supplier's questions become part of every read of every booking of its product. A supplier
 * that sends thousands of choices or megabytes of title must not make each booking read that
 * large: its questions are held to the bounds of a booking setup's.
 */
describe("a supplier's oversized questions", () => {
  const ctx = useStack();
  let supplier: OctoSupplier;
  let platform: string;
  let engine: string;

  beforeAll(async () => {
    supplier = await createOctoSupplier({ apiKey: SUPPLIER_KEY });
    const url = await supplier.listen();
    platform = await ctx.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    engine = `OCTO_HOSTILE_${randomUUID().slice(0, 6).toUpperCase()}`;
    const headers = { authorization: `Bearer ${platform}`, "content-type": "application/json" };
    expect((await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}`, { method: "PUT", headers, body: JSON.stringify({ baseUrl: url, apiKey: SUPPLIER_KEY, country: "FR" }) })).status).toBe(200);
  });
  afterAll(async () => {
    resetCircuitBreakers();
    await supplier?.close();
  });

  const importProducts = async () => {
    const imported = await fetch(`${ctx.stack.url}/api/booking-engines/octo/${engine}/import`, { method: "POST", headers: { authorization: `Bearer ${platform}` } });
    const { supplierId } = (await imported.json()) as { supplierId: number };
    return (await getJson(`${ctx.stack.url}/api/supplier/${supplierId}/products`, platform)).body as { id: number; externalId: string; onlineBookable: Record<string, boolean> }[];
  };

  it("keeps a product whose required choice offers thousands of options out of the flow, and shortens huge texts", async () => {
    const louvre = supplier.state.products.find((product) => product.id === "louvre-highlights")!;
    const seine = supplier.state.products.find((product) => product.id === "seine-day-pass")!;
    louvre.questions = [
      {
        id: "endless",
        title: { en: "Pick one", fr: "Choisissez", de: "Wählen" },
        required: true,
        inputType: "select",
        selectOptions: Array.from({ length: 5_000 }, (_, index) => ({ value: `v${index}`, label: { en: `Option ${index}`, fr: `Option ${index}`, de: `Option ${index}` } })),
      },
    ];
    const huge = "x".repeat(200_000);
    seine.options[0].questions = [{ id: "huge", title: { en: huge, fr: huge, de: huge }, required: true, inputType: "text" }];

    const products = await importProducts();
    const louvreProduct = products.find((product) => product.externalId === "louvre-highlights")!;
    const seineProduct = products.find((product) => product.externalId === "seine-day-pass")!;
    expect(Object.values(louvreProduct.onlineBookable).some(Boolean)).toBe(false);
    expect(Object.values(seineProduct.onlineBookable).every(Boolean)).toBe(true);

    const buyer = await consumer(ctx.stack);
    const flow = (productId: number) => `/booking-flow/v1/products/${productId}/availabilities`;
    const date = new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10);
    const refused = await buyer.rest.get(`${flow(louvreProduct.id)}/${date}/options`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("PRODUCT_NOT_BOOKABLE");

    // The day pass is bookable; its question is shown, at most 500 characters long.
    const created = await buyer.rest.get(`${flow(seineProduct.id)}/${date}/options`);
    await buyer.rest.get(`${flow(seineProduct.id)}/${created.body.id}/prices?currencyCode=EUR`);
    await buyer.rest.put(`${flow(seineProduct.id)}/${created.body.id}/prices?currencyCode=EUR`, [{ unitId: "adult", value: 1 }]);
    const booking = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: created.body.id, resellerRef: newRef() });
    expect(booking.status).toBe(201);
    const asked = booking.body.questions.booking.map((question: { question: string }) => question.question);
    expect(asked).toHaveLength(1);
    expect(asked[0].length).toBeLessThanOrEqual(500);
    expect(JSON.stringify(booking.body).length).toBeLessThan(20_000);
  });
});

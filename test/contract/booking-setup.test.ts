import { describe, expect, it } from "vitest";
import { bookableProduct, familySetup } from "../support/booking.js";
import { contentPartner, restClient } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

const t = useStack();
const path = (supplierId: number, productId: number) => `/api/supplier/${supplierId}/product/${productId}/booking-setup`;

describe("booking setup (extension path)", () => {
  it("is read back with defaults filled, replaced, and removed by the product's content partner", async () => {
    const { partner, supplierId, productId } = await bookableProduct(t.stack);
    const read = await partner.rest.get(path(supplierId, productId));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ timeZone: "Europe/Zurich", capacityPerSlot: 10, fixedFee: 0, bookingHorizonDays: 365 });
    expect(read.body.units[1]).toMatchObject({ key: "child", accompaniedBy: ["adult"], maxPerCompanion: 2, minQuantity: 0 });
    expect((await partner.rest.put(path(supplierId, productId), familySetup({ capacityPerSlot: 4 }))).body.capacityPerSlot).toBe(4);
    expect((await partner.rest.delete(path(supplierId, productId))).status).toBe(204);
    expect((await partner.rest.get(path(supplierId, productId))).status).toBe(404);
    expect((await partner.rest.delete(path(supplierId, productId))).status).toBe(404);
  });

  it("refuses an invalid setup naming every field at fault, and changes nothing", async () => {
    const { partner, supplierId, productId } = await bookableProduct(t.stack);
    const invalid = familySetup({
      timeZone: "Mars/Olympus",
      capacityPerSlot: 0,
      units: [{ key: "adult", label: "Adult", minAge: 18, unitPriceType: "PER_PERSON", price: -5, maxQuantity: 2, accompaniedBy: ["ghost"] }],
      cancellationTiers: [{ label: "x", duration: "2 days", refundPercentage: 150 }],
      surprise: true,
    });
    const refused = await partner.rest.put(path(supplierId, productId), invalid);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("INVALID_SETUP");
    const fields = refused.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "setup.timeZone",
        "setup.capacityPerSlot",
        "setup.units.0.price",
        "setup.cancellationTiers.0.duration",
        "setup.cancellationTiers.0.refundPercentage",
        "setup",
      ]),
    );
    expect((await partner.rest.get(path(supplierId, productId))).body.timeZone).toBe("Europe/Zurich");
  });

  it("takes the lead traveller's name only from top-level customer TEXT questions, naming each fault", async () => {
    const { partner, supplierId, productId } = await bookableProduct(t.stack);
    const base = familySetup();
    const questions = { ...base.questions, customer: [...base.questions.customer, { key: "newsletter", question: "Newsletter?", dataType: "BOOLEAN" }] };
    const refused = await partner.rest.put(
      path(supplierId, productId),
      familySetup({ questions, leadTravellerName: ["firstName", "age", "newsletter", "hotel", "firstName"] }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("INVALID_SETUP");
    const problems = Object.fromEntries(refused.body.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(Object.keys(problems).sort()).toEqual([1, 2, 3, 4].map((i) => `setup.leadTravellerName.${i}`));
    // A participant question and a follow-up exist in the setup but are not the customer's, or not always asked.
    expect(problems["setup.leadTravellerName.1"]).toMatch(/top-level customer question/);
    expect(problems["setup.leadTravellerName.2"]).toMatch(/TEXT question/);
    expect(problems["setup.leadTravellerName.3"]).toMatch(/top-level customer question/);
    expect(problems["setup.leadTravellerName.4"]).toMatch(/once/);
    expect((await partner.rest.put(path(supplierId, productId), familySetup({ leadTravellerName: [] }))).body.details[0].field).toBe(
      "setup.leadTravellerName",
    );

    const accepted = await partner.rest.put(path(supplierId, productId), familySetup({ leadTravellerName: ["firstName", "email"] }));
    expect(accepted.status).toBe(200);
    expect((await partner.rest.get(path(supplierId, productId))).body.leadTravellerName).toEqual(["firstName", "email"]);
  });

  it("is managed only by the product's engine's partner or the platform", async () => {
    const { supplierId, productId } = await bookableProduct(t.stack);
    const other = await contentPartner(t.stack);
    expect((await other.rest.get(path(supplierId, productId))).status).toBe(404);
    expect((await other.rest.put(path(supplierId, productId), familySetup())).status).toBe(404);
    const consumer = restClient(t.stack, await t.stack.tokenFor("CONSUMER"));
    expect((await consumer.get(path(supplierId, productId))).status).toBe(403);
    const platform = restClient(t.stack, await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT"));
    expect((await platform.get(path(supplierId, productId))).status).toBe(200);
    expect((await platform.get(path(supplierId + 100000, productId))).status).toBe(404);
  });
});

import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookingFlowAnnouncements, bookingSetups, productChanges } from "../../drizzle/schema.js";
import { bookableProduct, consumer, everyDay, familySetup, newRef } from "../support/booking.js";
import { contentPartner, productRequest, restClient, signIn, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";
import { announceBookingFlows, noteBookingFlow } from "../../subgraphs/booking/booking-flow/booking-flow.announcements.js";
import { inProcessServiceGraphs, type ServiceGraphs } from "../../subgraphs/common/service.graph.js";

const t = useStack();
const changesOf = async (productId: number) =>
  (await t.database.db.select().from(productChanges).where(eq(productChanges.productId, productId)).orderBy(asc(productChanges.id))).map((c) => c.changeType);
/** The product as its content partner's list shows it (REST has no single-product read for partners). */
const productAsListed = async (partner: { rest: ReturnType<typeof restClient> }, supplierId: number, productId: number) =>
  (await partner.rest.get(`/api/supplier/${supplierId}/products/`)).body.find((p: { id: number }) => p.id === productId);
const path = (supplierId: number, productId: number) => `/api/supplier/${supplierId}/product/${productId}/booking-setup`;

describe("booking setup (extension path)", () => {
  it("is read back with defaults filled, replaced, and removed by the product's content partner", async () => {
    const { partner, supplierId, productId } = await bookableProduct(t.stack);
    const read = await partner.rest.get(path(supplierId, productId));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ timeZone: "Europe/Zurich", capacityPerSlot: 10, fixedFee: 0, bookingHorizonDays: 365 });
    expect(read.body.units[1]).toMatchObject({ key: "child", accompaniedBy: ["adult"], maxPerCompanion: 2, minQuantity: 0 });
    expect((await partner.rest.put(path(supplierId, productId), familySetup({ capacityPerSlot: 4 }))).body.capacityPerSlot).toBe(4);
    expect((await partner.rest.get(path(supplierId, productId))).body.capacityPerSlot).toBe(4);
    // Back to a setup read before: parsed setups are remembered by their text, so it is read as it now is.
    await partner.rest.put(path(supplierId, productId), familySetup());
    expect((await partner.rest.get(path(supplierId, productId))).body).toEqual(read.body);
    expect((await partner.rest.delete(path(supplierId, productId))).status).toBe(204);
    expect((await partner.rest.get(path(supplierId, productId))).status).toBe(404);
    expect((await partner.rest.delete(path(supplierId, productId))).status).toBe(404);
  });

  it("makes the product onlineBookable in every language while it lasts, as a change consumers see", async () => {
    // A product without a booking URL: only the booking flow can make it bookable online.
    const partner = await contentPartner(t.stack);
    const supplier = (await partner.rest.post("/api/supplier", supplierRequest())).body;
    const created = await partner.rest.post(`/api/supplier/${supplier.id}/product`, productRequest({ bookingUrl: undefined, availabilityPeriods: everyDay() }));
    expect(created.body.onlineBookable).toEqual({ en: false, de: false });
    const product = () => productAsListed(partner, supplier.id, created.body.id);
    const supplierBookable = async () => (await partner.rest.get(`/api/supplier/${supplier.id}`)).body.onlineBookable;
    expect(await supplierBookable()).toBe(false);

    expect((await partner.rest.put(path(supplier.id, created.body.id), familySetup())).status).toBe(200);
    const bookable = await product();
    expect(bookable.onlineBookable).toEqual({ en: true, de: true });
    expect(new Date(bookable.updateDate).getTime()).toBeGreaterThan(new Date(created.body.updateDate).getTime());
    expect(await supplierBookable()).toBe(true);
    expect(await changesOf(created.body.id)).toEqual(["NEW", "UPDATED"]);
    // Replacing the setup changes nothing the catalogue shows.
    await partner.rest.put(path(supplier.id, created.body.id), familySetup({ capacityPerSlot: 3 }));
    expect(await changesOf(created.body.id)).toEqual(["NEW", "UPDATED"]);

    expect((await partner.rest.delete(path(supplier.id, created.body.id))).status).toBe(204);
    expect((await product()).onlineBookable).toEqual({ en: false, de: false });
    expect(await supplierBookable()).toBe(false);
    expect(await changesOf(created.body.id)).toEqual(["NEW", "UPDATED", "UPDATED"]);
    expect(await t.database.db.select().from(bookingFlowAnnouncements).where(eq(bookingFlowAnnouncements.productId, created.body.id))).toEqual([]);
  });

  it("is told to the catalogue by the worker when the catalogue could not hear it at once", async () => {
    const { partner, supplierId, productId } = await bookableProduct(t.stack);
    // As if the process had stopped between the commit and telling the catalogue (and a first
    // try had failed: not due for an hour, so no worker pass tells it before this test says so).
    const now = new Date();
    await t.database.db.insert(bookingFlowAnnouncements).values({ productId, bookable: false, changedAt: now, retryAt: new Date(now.getTime() + 3600_000), attempts: 1 });
    await t.database.db.delete(bookingSetups).where(eq(bookingSetups.productId, productId));
    expect((await productAsListed(partner, supplierId, productId)).onlineBookable.de).toBe(true);
    await t.database.db.update(bookingFlowAnnouncements).set({ retryAt: now }).where(eq(bookingFlowAnnouncements.productId, productId));
    await t.stack.service.worker!.runOnce();
    expect((await productAsListed(partner, supplierId, productId)).onlineBookable).toEqual({ en: true, de: false });
    expect(await t.database.db.select().from(bookingFlowAnnouncements).where(eq(bookingFlowAnnouncements.productId, productId))).toEqual([]);
  });

  /**
   * A worker pass telling `bookable` for the product, held on its way to the catalogue until
   * released. Due an hour ahead, so that no worker of the shared database takes it first.
   */
  async function heldTell(productId: number, bookable: boolean) {
    const later = new Date(Date.now() + 3600_000);
    await noteBookingFlow(t.database.db, productId, bookable, later);
    const graphs = inProcessServiceGraphs((name) => t.stack.service.edge!.subgraphs[name]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reachedCatalogue!: () => void;
    const onItsWay = new Promise<void>((resolve) => (reachedCatalogue = resolve));
    const slowGraphs: ServiceGraphs = (service) => ({
      async request(subgraph, query, variables, options) {
        reachedCatalogue();
        await held;
        return graphs(service).request(subgraph, query, variables, options);
      },
    });
    const pass = announceBookingFlows({ database: t.database, graphs: slowGraphs, logger: t.stack.service.logger, now: () => later }, [productId]);
    await onItsWay;
    return { release, pass };
  }

  it.each([
    ["a removal", false, (supplierId: number, productId: number, partner: Awaited<ReturnType<typeof contentPartner>>) => partner.rest.delete(path(supplierId, productId)), 204],
    // The newer change shows what the product already shows: the catalogue must still note it as newer.
    ["a change the product already shows", true, (supplierId: number, productId: number, partner: Awaited<ReturnType<typeof contentPartner>>) => partner.rest.put(path(supplierId, productId), familySetup({ capacityPerSlot: 3 })), 200],
  ] as const)("keeps the newest change when an older tell reaches the catalogue after %s", async (_newer, bookableAfter, change, status) => {
    const partner = await contentPartner(t.stack);
    const supplier = (await partner.rest.post("/api/supplier", supplierRequest())).body;
    const productId = (await partner.rest.post(`/api/supplier/${supplier.id}/product`, productRequest({ bookingUrl: undefined, availabilityPeriods: everyDay() }))).body.id;
    expect((await partner.rest.put(path(supplier.id, productId), familySetup())).status).toBe(200);
    expect(await changesOf(productId)).toEqual(["NEW", "UPDATED"]);

    // An older change is on its way to the catalogue (the opposite of what the newer one says)…
    const older = await heldTell(productId, !bookableAfter);
    // …while a newer change is made, told and acknowledged first.
    expect((await change(supplier.id, productId, partner)).status).toBe(status);
    const shown = { en: bookableAfter, de: bookableAfter };
    expect((await productAsListed(partner, supplier.id, productId)).onlineBookable).toEqual(shown);

    older.release();
    expect(await older.pass).toBe(1); // told, and ignored: older than what the catalogue holds
    expect((await productAsListed(partner, supplier.id, productId)).onlineBookable).toEqual(shown);
    expect(await changesOf(productId)).toEqual(bookableAfter ? ["NEW", "UPDATED"] : ["NEW", "UPDATED", "UPDATED"]);
    expect(await t.database.db.select().from(bookingFlowAnnouncements).where(eq(bookingFlowAnnouncements.productId, productId))).toEqual([]);
  });

  it("cannot be told to the catalogue by anyone but the booking service", async () => {
    const { partner, supplierId, productId } = await bookableProduct(t.stack);
    const platformAccount = await t.stack.createAccount("PLATFORM_CATALOG_MANAGEMENT");
    const platform = { token: await signIn(t.stack, platformAccount.username, platformAccount.password) };
    for (const token of [partner.token, platform.token]) {
      // Not in the client API at all: the gateway does not know the field.
      const answer = await graphql(`${t.stack.url}/graphql`, token, `mutation { recordBookingFlow(productId: ${productId}, bookable: false, version: 2147483647) }`);
      expect(answer.body.errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    }
    const catalogue = t.stack.service.edge!.subgraphs.catalogue!;
    const direct = await catalogue.server.executeOperation(
      { query: `mutation { recordBookingFlow(productId: ${productId}, bookable: false, version: 2147483647) }` },
      { contextValue: await catalogue.createContext({ authorization: `Bearer ${platform.token}` }) },
    );
    expect(direct.body.kind === "single" && direct.body.singleResult.errors?.[0].extensions?.code).toBe("FORBIDDEN");
    expect((await productAsListed(partner, supplierId, productId)).onlineBookable).toEqual({ en: true, de: true });
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

  it("takes a text per ISO 639-1 language, as the catalogue does, and refuses a key that is no such language", async () => {
    const { partner, supplierId, productId } = await bookableProduct(t.stack);
    const family = familySetup();
    const labelled = (label: Record<string, string>) => ({ ...family, units: [{ ...family.units[0], label }, family.units[1]] });
    const kept = await partner.rest.put(path(supplierId, productId), labelled({ en: "Adult", de: "Erwachsene", pt: "Adulto" }));
    expect(kept.status).toBe(200);
    expect(kept.body.units[0].label).toEqual({ en: "Adult", de: "Erwachsene", pt: "Adulto" });
    expect((await partner.rest.get(path(supplierId, productId))).body.units[0].label).toEqual({ en: "Adult", de: "Erwachsene", pt: "Adulto" });
    for (const language of ["xx", "EN", "eng"]) {
      const refused = await partner.rest.put(path(supplierId, productId), labelled({ en: "Adult", [language]: "Adult" }));
      expect(refused.status, language).toBe(400);
      expect(refused.body.code).toBe("INVALID_SETUP");
      expect(refused.body.details.map((detail: { field: string }) => detail.field)).toContain(`setup.units.0.label.${language}`);
    }
    expect((await partner.rest.get(path(supplierId, productId))).body.units[0].label).toEqual({ en: "Adult", de: "Erwachsene", pt: "Adulto" });
  });

  it("counts a ticket for several people (paxCount) as that many participants, against the party size and the places", async () => {
    const family = { key: "family", label: "Family (4)", minAge: 0, unitPriceType: "PER_PERSON", price: 90, maxQuantity: 2, paxCount: 4 };
    const setup = familySetup({ startTimes: ["09:00"], capacityPerSlot: 5, options: [], units: [{ key: "adult", label: "Adult", minAge: 18, unitPriceType: "PER_PERSON", price: 50, maxQuantity: 8 }, family] });
    const { productId } = await bookableProduct(t.stack, setup);
    const buyer = await consumer(t.stack);
    const base = `/booking-flow/v1/products/${productId}/availabilities`;
    const created = await buyer.rest.get(`${base}/2027-05-04/options`);
    await buyer.rest.get(`${base}/${created.body.id}/prices?currencyCode=EUR`);
    const tooMany = await buyer.rest.put(`${base}/${created.body.id}/prices?currencyCode=EUR`, [{ unitId: "family", value: 1 }, { unitId: "adult", value: 2 }]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toEqual([expect.objectContaining({ rule: "capacity", message: "Only 5 places are left on this date; 6 chosen" })]);
    const fits = await buyer.rest.put(`${base}/${created.body.id}/prices?currencyCode=EUR`, [{ unitId: "family", value: 1 }, { unitId: "adult", value: 1 }]);
    expect(fits.body).toMatchObject({ participants: 5, totalPrice: { retail: 140, currency: "EUR" }, isPricingStepCompleted: true });
    const booking = await buyer.rest.post("/booking-flow/v1/bookings", { availabilityId: created.body.id, resellerRef: newRef() });
    expect(booking.body.questions.participants).toHaveLength(5);

    const { partner, supplierId, productId: other } = await bookableProduct(t.stack);
    const group = await partner.rest.put(path(supplierId, other), familySetup({ units: [{ key: "boat", label: "Boat", minAge: 0, unitPriceType: "GROUP", price: 300, maxQuantity: 8, paxCount: 2 }] }));
    expect(group.status).toBe(400);
    expect(group.body.details.map((d: { field: string }) => d.field)).toEqual(["setup.units.0.paxCount"]);
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

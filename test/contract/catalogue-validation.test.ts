import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { productChanges, products, suppliers } from "../../drizzle/schema.js";
import { contentPartner, productRequest, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;
const long = (n: number) => "x".repeat(n);

/**
 * Every rule of spec 1's two field tables: each invalid input gets a 400 that names the field and
 * the rule, and the database is unchanged afterwards.
 */
describe("field validation of suppliers and products", () => {
  const t = useStack();
  let partner: Partner;
  let supplierId: number;
  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
  });

  const supplierCases: [string, Record<string, unknown>, string, string][] = [
    ["externalId missing", { externalId: undefined }, "externalId", "required"],
    ["externalId over 255", { externalId: long(256) }, "externalId", "maxLength"],
    ["country missing", { country: undefined }, "country", "required"],
    ["country not ISO 3166-1", { country: "XX" }, "country", "iso3166"],
    ["country in lower case", { country: "ch" }, "country", "iso3166"],
    ["country of three letters", { country: "CHE" }, "country", "iso3166"],
    ["channel over 32", { channel: long(33) }, "channel", "maxLength"],
    ["name over 255", { name: long(256) }, "name", "maxLength"],
    ["endpoint over 255", { endpoint: long(256) }, "endpoint", "maxLength"],
    ["logo over 255", { logo: long(256) }, "logo", "maxLength"],
    ["website over 512", { supplierContact: { website: long(513) } }, "supplierContact.website", "maxLength"],
    ["email not an address", { supplierContact: { email: "not-an-email" } }, "supplierContact.email", "email"],
    ["telephone over 255", { supplierContact: { telephone: long(256) } }, "supplierContact.telephone", "maxLength"],
    ["address over 255", { supplierContact: { address: long(256) } }, "supplierContact.address", "maxLength"],
    ["latitude over 90", { geoLocation: { latitude: 90.5, longitude: 0 } }, "geoLocation.latitude", "maximum"],
    ["longitude under -180", { geoLocation: { latitude: 0, longitude: -180.5 } }, "geoLocation.longitude", "minimum"],
    ["latitude without longitude", { geoLocation: { latitude: 10 } }, "geoLocation", "pair"],
    ["geohash not base 32", { geoLocation: { geoHash: "ABC!" } }, "geoLocation.geoHash", "geohash"],
    ["bookingEngine not an integer", { bookingEngine: "abc" }, "bookingEngine", "type"],
  ];

  it.each(supplierCases)("supplier: %s", async (_name, overrides, field, rule) => {
    const request = supplierRequest(overrides);
    const response = await partner.rest.post("/api/supplier", request);
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, rule }));
    if (typeof request.externalId === "string") {
      expect(await t.database.db.select().from(suppliers).where(eq(suppliers.externalId, request.externalId))).toEqual([]);
    }
  });

  const weekly = (period: Record<string, unknown>) => ({ availabilityPeriods: { weeklyPeriods: [{ startDate: "2027-06-01", endDate: "2027-09-30", ...period }] } });
  const productCases: [string, Record<string, unknown>, string, string][] = [
    ["externalId missing", { externalId: undefined }, "externalId", "required"],
    ["externalId over 255", { externalId: long(256) }, "externalId", "maxLength"],
    ["title missing", { title: undefined }, "title", "required"],
    ["title without languages", { title: {} }, "title", "required"],
    ["title with a non-ISO 639-1 key", { title: { english: "Hike" } }, "title.english", "iso639-1"],
    ["title over 255", { title: { en: long(256) } }, "title.en", "maxLength"],
    ["title not an object", { title: "Hike" }, "title", "type"],
    ["countryCode not ISO 3166-1", { countryCode: "UK" }, "countryCode", "iso3166"],
    ["zipCode over 20", { zipCode: long(21) }, "zipCode", "maxLength"],
    ["cityName over 255", { cityName: long(256) }, "cityName", "maxLength"],
    ["rating below 0", { rating: -0.1 }, "rating", "minimum"],
    ["rating above 5", { rating: 5.01 }, "rating", "maximum"],
    ["numberOfRatings negative", { numberOfRatings: -1 }, "numberOfRatings", "minimum"],
    ["numberOfRatings fractional", { numberOfRatings: 1.5 }, "numberOfRatings", "type"],
    ["channel over 32", { channel: long(33) }, "channel", "maxLength"],
    ["internalName over 255", { internalName: long(256) }, "internalName", "maxLength"],
    ["reference over 255", { reference: long(256) }, "reference", "maxLength"],
    ["availabilityType unknown", { availabilityType: "SOMETIMES" }, "availabilityType", "enum"],
    ["redemptionMethod unknown", { redemptionMethod: "PIGEON" }, "redemptionMethod", "enum"],
    ["subtitle with a bad language", { subtitle: { zz: "x" } }, "subtitle.zz", "iso639-1"],
    ["description with a bad language", { description: { EN: "x" } }, "description.EN", "iso639-1"],
    ["shortDescription with a bad language", { shortDescription: { eng: "x" } }, "shortDescription.eng", "iso639-1"],
    ["experienceHighlights with a bad language", { experienceHighlights: { xx: "x" } }, "experienceHighlights.xx", "iso639-1"],
    ["thumbnailImage over 255", { thumbnailImage: long(256) }, "thumbnailImage", "maxLength"],
    ["bookingEngine unknown", { bookingEngine: "NO_SUCH_ENGINE" }, "bookingEngine", "exists"],
    ["bookingUrl with a bad language", { bookingUrl: { xx: "https://x" } }, "bookingUrl.xx", "iso639-1"],
    ["minPrice negative", { minPrice: -1 }, "minPrice", "minimum"],
    ["maxPrice below minPrice", { minPrice: 50, maxPrice: 40 }, "maxPrice", "minPriceNotAbove"],
    ["priceCurrency not ISO 4217", { priceCurrency: "EURO" }, "priceCurrency", "iso4217"],
    ["priceCurrency not money", { priceCurrency: "XAU" }, "priceCurrency", "supportedCurrency"],
    ["a price without currency", { priceCurrency: undefined }, "priceCurrency", "requiredWithPrices"],
    ["pricingUnit unknown", { pricingUnit: "PER_CAT" }, "pricingUnit", "enum"],
    ["priceLevel 0", { priceLevel: 0 }, "priceLevel", "minimum"],
    ["priceLevel 5", { priceLevel: 5 }, "priceLevel", "maximum"],
    ["averagePrice negative", { averagePrice: -3 }, "averagePrice", "minimum"],
    ["minParticipants 0", { minParticipants: 0 }, "minParticipants", "minimum"],
    ["maxParticipants below minParticipants", { minParticipants: 5, maxParticipants: 2 }, "maxParticipants", "minParticipantsNotAbove"],
    ["address over 512", { address: long(513) }, "address", "maxLength"],
    ["placeId over 255", { placeId: long(256) }, "placeId", "maxLength"],
    ["website over 512", { website: long(513) }, "website", "maxLength"],
    ["latitude below -90", { geoLocation: { latitude: -91, longitude: 0 } }, "geoLocation.latitude", "minimum"],
    ["longitude above 180", { geoLocation: { latitude: 0, longitude: 181 } }, "geoLocation.longitude", "maximum"],
    ["duration not ISO 8601", { duration: "3 hours" }, "duration", "iso8601Duration"],
    ["gallery image without url", { galleryImage: [{ title: "x" }] }, "galleryImage[0].url", "required"],
    ["gallery image order negative", { galleryImage: [{ url: "https://x", order: -1 }] }, "galleryImage[0].order", "minimum"],
    ["category level 4", { categories: [{ level: 4, code: "outdoor" }] }, "categories[0].level", "maximum"],
    ["category code not in the taxonomy", { categories: [{ level: 1, code: "space-travel" }] }, "categories[0].code", "taxonomy"],
    ["subcategory code given as a category", { categories: [{ level: 1, code: "hiking" }] }, "categories[0].code", "taxonomy"],
    ["category name with a bad language", { categories: [{ level: 1, code: "outdoor", name: { xx: "x" } }] }, "categories[0].name.xx", "iso639-1"],
    ["weekly period with an impossible date", weekly({ startDate: "2027-02-30" }), "availabilityPeriods.weeklyPeriods[0].startDate", "date"],
    ["weekly period ending before it starts", weekly({ endDate: "2027-05-01" }), "availabilityPeriods.weeklyPeriods[0].endDate", "notBeforeStart"],
    ["weekday open not a boolean", weekly({ monday: { open: "yes", hours: null } }), "availabilityPeriods.weeklyPeriods[0].monday.open", "type"],
    ["opening hours not a time", weekly({ tuesday: { open: true, hours: [{ start: "25:00", end: "26:00" }] } }), "availabilityPeriods.weeklyPeriods[0].tuesday.hours[0].start", "time"],
    ["opening hours ending before they start", weekly({ friday: { open: true, hours: [{ start: "18:00", end: "09:00" }] } }), "availabilityPeriods.weeklyPeriods[0].friday.hours[0]", "startBeforeEnd"],
    ["closed day not a date", weekly({ closedDayList: ["tomorrow"] }), "availabilityPeriods.weeklyPeriods[0].closedDayList[0]", "date"],
    ["unknown weekly period field", weekly({ holidays: true }), "availabilityPeriods.weeklyPeriods[0].holidays", "unknownField"],
    ["unknown weekday field", weekly({ monday: { open: true, hours: null, note: "x" } }), "availabilityPeriods.weeklyPeriods[0].monday.note", "unknownField"],
    ["unknown opening hours field", weekly({ monday: { open: true, hours: [{ start: "08:00", end: "12:00", label: "am" }] } }), "availabilityPeriods.weeklyPeriods[0].monday.hours[0].label", "unknownField"],
    ["unknown spontaneous period field", { availabilityPeriods: { spontaneousPeriod: { eventDateList: [], venue: "x" } } }, "availabilityPeriods.spontaneousPeriod.venue", "unknownField"],
    ["spontaneous date-time with an offset", { availabilityPeriods: { spontaneousPeriod: { eventDateList: ["2027-07-21T21:00+02:00"] } } }, "availabilityPeriods.spontaneousPeriod.eventDateList[0]", "localDateTime"],
    ["itinerary without type", { itinerary: { units: [] } }, "itinerary.type", "required"],
    ["itinerary type unknown", { itinerary: { type: "LINEAR" } }, "itinerary.type", "enum"],
    ["unstructured itinerary without its text", { itinerary: { type: "UNSTRUCTURED" } }, "itinerary.unstructuredItinerary", "required"],
    ["itinerary unitType unknown", { itinerary: { type: "STANDARD", unitType: "WEEK" } }, "itinerary.unitType", "enum"],
    ["unknown itinerary field", { itinerary: { type: "STANDARD", guide: "Anna" } }, "itinerary.guide", "unknownField"],
    ["unknown itinerary unit field", { itinerary: { type: "STANDARD", units: [{ title: { en: "Day" }, duration: "PT2H" }] } }, "itinerary.units[0].duration", "unknownField"],
    ["unknown itinerary item field", { itinerary: { type: "STANDARD", units: [{ items: [{ title: { en: "Stop" }, photo: "x" }] }] } }, "itinerary.units[0].items[0].photo", "unknownField"],
    ["unknown location field", { itinerary: { type: "STANDARD", units: [{ items: [{ location: { name: "x", altitude: 3000 } }] }] } }, "itinerary.units[0].items[0].location.altitude", "unknownField"],
    ["itinerary location out of range", { itinerary: { type: "STANDARD", units: [{ items: [{ location: { latitude: 100, longitude: 0 } }] }] } }, "itinerary.units[0].items[0].location.latitude", "maximum"],
    ["cancellationCutOffUnit unknown", { cancellationCutOffUnit: "week" }, "cancellationCutOffUnit", "enum"],
    ["cancellationCutOffAmount without unit", { cancellationCutOffUnit: undefined }, "cancellationCutOffUnit", "requiredWithAmount"],
    ["cancellationCutOff with a bad language", { cancellationCutOff: { xx: "24h" } }, "cancellationCutOff.xx", "iso639-1"],
    ["modalitiesIncluded with a bad language", { modalitiesIncluded: { xx: "x" } }, "modalitiesIncluded.xx", "iso639-1"],
    ["modalitiesExcluded with a bad language", { modalitiesExcluded: { xx: "x" } }, "modalitiesExcluded.xx", "iso639-1"],
    ["modalitiesAdditionalInfo with a bad language", { modalitiesAdditionalInfo: { xx: "x" } }, "modalitiesAdditionalInfo.xx", "iso639-1"],
    ["estCommNet negative", { estCommNet: -2 }, "estCommNet", "minimum"],
    ["estCommFrpricePerc above 1", { estCommFrpricePerc: 1.5 }, "estCommFrpricePerc", "maximum"],
    ["instantConfirmation not a boolean", { instantConfirmation: "sometimes" }, "instantConfirmation", "type"],
    ["metadata over 64 KiB", { metadata: { blob: long(70_000) } }, "metadata", "maxSize"],
  ];

  it.each(productCases)("product: %s", async (_name, overrides, field, rule) => {
    const request = productRequest(overrides);
    const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, request);
    expect(response.status).toBe(400);
    expect(response.body.details).toContainEqual(expect.objectContaining({ field, rule }));
    if (typeof request.externalId === "string") {
      expect(await t.database.db.select().from(products).where(eq(products.externalId, request.externalId))).toEqual([]);
    }
  });

  it("reports every problem of a request at once", async () => {
    const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ rating: 9, priceLevel: 9, countryCode: "QQ" }));
    expect(response.body.details.map((d: { field: string }) => d.field).sort()).toEqual(["countryCode", "priceLevel", "rating"]);
  });

  it("leaves a product and its change log untouched when an update is refused", async () => {
    const created = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body;
    const response = await partner.rest.put(`/api/supplier/${supplierId}/product/${created.id}`, productRequest({ externalId: created.externalId, rating: 11 }));
    expect(response.status).toBe(400);
    const [row] = await t.database.db.select().from(products).where(eq(products.id, created.id));
    expect(row.rating).toBe(created.rating);
    expect(row.updateDate.toISOString()).toBe(created.updateDate);
    const changes = await t.database.db.select().from(productChanges).where(eq(productChanges.productId, created.id));
    expect(changes.map((c) => c.changeType)).toEqual(["NEW"]);
  });

  it("accepts every documented value of the enumerations", async () => {
    for (const availabilityType of ["START_TIME", "OPENING_HOURS"])
      for (const redemptionMethod of ["MANIFEST", "DIGITAL", "PRINT"]) {
        const response = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ availabilityType, redemptionMethod }));
        expect(response.status).toBe(201);
      }
    for (const pricingUnit of ["PER_PERSON", "PER_VEHICLE", "GROUP", "FAMILY", "PER_EQUIPMENT", "PACKAGE", "PER_BOAT"]) {
      expect((await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ pricingUnit }))).status).toBe(201);
    }
    for (const type of ["STANDARD", "MULTIDAY", "HOP_ON_HOP_OFF"]) {
      for (const unitType of ["ITEM", "DAY", "ROUTE"]) {
        expect((await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ itinerary: { type, unitType } }))).status).toBe(201);
      }
    }
    const unstructured = productRequest({ itinerary: { type: "UNSTRUCTURED", unstructuredItinerary: { en: "Meet/nWalk/nReturn" } } });
    expect((await partner.rest.post(`/api/supplier/${supplierId}/product`, unstructured)).status).toBe(201);
    for (const unit of ["hour", "minute", "day"]) {
      expect((await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ cancellationCutOffUnit: unit }))).status).toBe(201);
    }
  });
});

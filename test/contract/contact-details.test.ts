import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { toGlobalId } from "../../core/global-id.js";
import { suppliers } from "../../drizzle/schema.js";
import { contentPartner, productRequest, restClient, supplierRequest, type RestClient } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Partner = Awaited<ReturnType<typeof contentPartner>>;

/*
 * Links, e-mail addresses and telephone numbers: REST bodies are judged by the rules the graph's
 * URL, EmailAddress and PhoneNumber scalars judge by, so what one takes the other takes, kept as given.
 */
describe("contact details and links", () => {
  const t = useStack();
  let partner: Partner;
  let platform: RestClient;
  let consumer: RestClient;
  let supplierId: number;

  beforeAll(async () => {
    partner = await contentPartner(t.stack);
    platform = restClient(t.stack, await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT"));
    consumer = restClient(t.stack, await t.stack.tokenFor("CONSUMER"));
    supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
  });

  const withContact = (contact: Record<string, string>) => supplierRequest({ supplierContact: { ...supplierRequest().supplierContact, ...contact } });

  it("keeps a supplier's website, e-mail address and telephone number as written, in the forms people write them", async () => {
    const written = [
      { website: "HTTPS://Guides.example/Zermatt?lang=de#top", email: "Info+booking@guides.example", telephone: "(027) 966-24-60 ext. 12" },
      { website: "http://[2001:db8::1]:8080/", email: "a@b.ch", telephone: "+41 27 966 24 60" },
      { website: "https://guides.example", email: "x@y.example", telephone: "027/966.24.60 x9" },
    ];
    for (const contact of written) {
      const created = await partner.rest.post("/api/supplier", withContact(contact));
      expect(created.status, JSON.stringify(contact)).toBe(201);
      expect(created.body.supplierContact).toMatchObject(contact);
      expect((await partner.rest.get(`/api/supplier/${created.body.id}`)).body.supplierContact).toMatchObject(contact);
    }
  });

  it("refuses a supplier's link, e-mail address or telephone number that is none with 400 naming it, storing nothing", async () => {
    const refused: [Record<string, string>, string, string][] = [
      [{ website: "guides.example" }, "supplierContact.website", "url"],
      [{ website: "javascript:alert(1)" }, "supplierContact.website", "url"],
      [{ website: "https://guides.example/a b" }, "supplierContact.website", "url"],
      [{ website: "ftp://guides.example" }, "supplierContact.website", "url"],
      [{ website: "" }, "supplierContact.website", "url"],
      [{ telephone: "call me" }, "supplierContact.telephone", "phoneNumber"],
      [{ telephone: "1234" }, "supplierContact.telephone", "phoneNumber"],
      [{ telephone: "+41+27 966" }, "supplierContact.telephone", "phoneNumber"],
      [{ email: "info at guides.example" }, "supplierContact.email", "email"],
    ];
    for (const [contact, field, rule] of refused) {
      const request = withContact(contact);
      const response = await partner.rest.post("/api/supplier", request);
      expect(response.status, JSON.stringify(contact)).toBe(400);
      expect(response.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field, rule, message: expect.any(String) }] });
      expect(await t.database.db.select({ id: suppliers.id }).from(suppliers).where(eq(suppliers.externalId, request.externalId))).toEqual([]);
    }
    // Every field at fault is named at once, the country among them.
    const several = await partner.rest.post("/api/supplier", supplierRequest({ country: "XX", supplierContact: { website: "www.guides.example", telephone: "n/a" } }));
    expect(several.body.details.map((detail: { field: string }) => detail.field)).toEqual(["country", "supplierContact.website", "supplierContact.telephone"]);
  });

  it("answers a body the rules refuse in the mutation's order: the caller's role, then the booking engine, then the fields, then an unknown supplier", async () => {
    const invalid = supplierRequest({ country: "XX", supplierContact: { website: "javascript:alert(1)" } });
    expect((await consumer.post("/api/supplier", invalid)).status).toBe(403);
    expect((await consumer.post(`/api/supplier/${supplierId}`, invalid)).status).toBe(403);

    const missing = await platform.post("/api/supplier", invalid);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "MISSING_BOOKING_ENGINE", details: [{ field: "bookingEngine", rule: "required" }] });
    const unknown = await platform.post("/api/supplier", { ...invalid, bookingEngine: 2_000_000_000 });
    expect(unknown.body).toMatchObject({ code: "UNKNOWN_BOOKING_ENGINE", details: [{ field: "bookingEngine", rule: "exists" }] });
    const wrong = await partner.rest.post("/api/supplier", { ...invalid, bookingEngine: partner.engineId + 1_000_000 });
    expect(wrong.body).toMatchObject({ code: "WRONG_BOOKING_ENGINE", details: [{ field: "bookingEngine", rule: "ownEngine" }] });
    expect(wrong.body.message).toContain(`own engine, ${partner.engineId}`);

    // With the engine in order, the fields; an update's unknown supplier only once they pass.
    const named = await platform.post("/api/supplier", { ...invalid, bookingEngine: partner.engineId });
    expect(named.body).toMatchObject({ code: "VALIDATION_FAILED", details: [{ field: "country" }, { field: "supplierContact.website" }] });
    const unknownSupplier = await partner.rest.post("/api/supplier/999999999", invalid);
    expect(unknownSupplier.body.code).toBe("VALIDATION_FAILED");
    expect((await partner.rest.post("/api/supplier/999999999", supplierRequest())).status).toBe(404);
    // The supplier being updated keeps what it had.
    const update = await partner.rest.post(`/api/supplier/${supplierId}`, invalid);
    expect(update.body.code).toBe("VALIDATION_FAILED");
    expect((await partner.rest.get(`/api/supplier/${supplierId}`)).body.supplierContact.website).toBe("https://guides.example");
  });

  it("keeps a product's website, gallery links and booking URLs as written, and refuses one that is no link naming it", async () => {
    const links = { website: "https://Museum.example/Visit?x=1", galleryImage: [{ title: "Hall", url: "http://img.example/hall.jpg", order: 1 }], bookingUrl: { en: "https://museum.example/book", de: "https://museum.example/buchen?ref=a%20b" } };
    const created = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest(links));
    expect(created.status).toBe(201);
    // Responses name the gallery galleryImages (spec 1).
    const { galleryImage, ...rest } = links;
    expect(created.body).toMatchObject({ ...rest, galleryImages: galleryImage });

    const refused = await partner.rest.post(
      `/api/supplier/${supplierId}/product`,
      productRequest({ website: "museum.example", galleryImage: [{ url: "javascript:alert(1)" }], bookingUrl: { en: "https://museum.example/book", de: "data:text/html,<script>1</script>" } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((detail: { field: string; rule: string }) => [detail.field, detail.rule])).toEqual([
      ["bookingUrl.de", "url"],
      ["website", "url"],
      ["galleryImage[0].url", "url"],
    ]);
    // A thumbnail may be a partner's image identifier (spec 3): it stays free text.
    const thumbnail = await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ thumbnailImage: "9b2f6a4e-img-42" }));
    expect(thumbnail.status).toBe(201);
    expect(thumbnail.body.thumbnailImage).toBe("9b2f6a4e-img-42");
  });

  it("answers a link the rules refuse as a userError on the input's field in the graph, a booking URL named by its item, and answers links as URLs", async () => {
    const mutation = `mutation ($input: CreateProductInput!) { createProduct(input: $input) { product { website galleryImages { url } bookingUrl { translations { language text } } } userErrors { code field rule } } }`;
    const input = (fields: Record<string, unknown>) => ({ supplierId: toGlobalId("Supplier", supplierId), externalId: `PRD-${Math.random().toString(36).slice(2, 10)}`, title: [{ language: "en", text: "Museum" }], ...fields });
    const gql = (variables: Record<string, unknown>) => graphql(`${t.stack.url}/graphql`, partner.token, mutation, variables);

    for (const [fields, field] of [
      [{ website: "javascript:alert(1)" }, ["input", "website"]],
      [{ galleryImage: [{ url: "museum.example/hall.jpg" }] }, ["input", "galleryImage", "0", "url"]],
    ] as const) {
      const response = await gql({ input: input(fields) });
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data!.createProduct).toEqual({ product: null, userErrors: [{ code: "VALIDATION_FAILED", field, rule: "url" }] });
    }
    const bookingUrl = await gql({ input: input({ bookingUrl: [{ language: "en", text: "https://museum.example/book" }, { language: "de", text: "javascript:alert(1)" }] }) });
    expect(bookingUrl.body.data!.createProduct).toEqual({ product: null, userErrors: [{ code: "VALIDATION_FAILED", field: ["input", "bookingUrl", "1", "text"], rule: "url" }] });

    const accepted = await gql({ input: input({ website: "https://museum.example", galleryImage: [{ url: "https://img.example/hall.jpg" }], bookingUrl: [{ language: "en", text: "https://museum.example/book" }] }) });
    expect(accepted.body.data!.createProduct).toEqual({
      product: { website: "https://museum.example", galleryImages: [{ url: "https://img.example/hall.jpg" }], bookingUrl: { translations: [{ language: "en", text: "https://museum.example/book" }] } },
      userErrors: [],
    });
  });
});

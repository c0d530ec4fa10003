import { describe, expect, it } from "vitest";
import { toGlobalId } from "../../core/global-id.js";
import { contentPartner, productRequest, supplierInput, supplierRequest } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

/*
 * Stored links reach consumers' pages as hrefs: a partner who could store `javascript:` or
 * `data:` there would run script on every site that shows the product. Every link field takes
 * http and https only, through REST and the graph alike.
 */
const SCRIPT_LINKS = ["javascript:alert(document.cookie)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "https:/\\javascript:alert(1)"];

describe("links that would run script on a consumer's page", () => {
  const t = useStack();

  it("are refused in every link of a product and a supplier, through REST and the graph, and nothing is stored", async () => {
    const partner = await contentPartner(t.stack);
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id as number;
    const productPath = `/api/supplier/${supplierId}/product`;
    const productsBefore = (await partner.rest.get(`/api/supplier/${supplierId}/products/`)).body.length;
    for (const link of SCRIPT_LINKS) {
      const product = await partner.rest.post(productPath, productRequest({ website: link, galleryImage: [{ url: link }], bookingUrl: { en: link } }));
      expect(product.status, link).toBe(400);
      expect(product.body.details.map((detail: { field: string }) => detail.field)).toEqual(["bookingUrl.en", "website", "galleryImage[0].url"]);
      const supplier = await partner.rest.post("/api/supplier", supplierRequest({ supplierContact: { website: link } }));
      expect(supplier.status, link).toBe(400);
      expect(supplier.body.details).toEqual([expect.objectContaining({ field: "supplierContact.website", rule: "url" })]);

      const viaGraph = await graphql(`${t.stack.url}/graphql`, partner.token, `mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id } userErrors { field rule } } }`, {
        input: supplierInput({ contact: { website: link } }),
      });
      expect(viaGraph.body.data?.createSupplier, link).toEqual({ supplier: null, userErrors: [{ field: ["input", "contact", "website"], rule: "url" }] });
      const productViaGraph = await graphql(`${t.stack.url}/graphql`, partner.token, `mutation ($input: CreateProductInput!) { createProduct(input: $input) { product { id } userErrors { field rule } } }`, {
        input: { supplierId: toGlobalId("Supplier", supplierId), externalId: "SCRIPT", title: [{ language: "en", text: "Tour" }], bookingUrl: [{ language: "en", text: link }] },
      });
      expect(productViaGraph.body.data?.createProduct, link).toEqual({ product: null, userErrors: [{ field: ["input", "bookingUrl", "0", "text"], rule: "url" }] });
    }
    expect((await partner.rest.get(`/api/supplier/${supplierId}/products/`)).body).toHaveLength(productsBefore);
  });
});

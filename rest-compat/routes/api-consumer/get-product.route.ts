import { errorResponse } from "../../error-body.js";
import { idParam, obj } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, consumerProductSchema, externalClientIdParam, type ConsumerProductData } from "./consumer-product.js";

/** GET /api/consumer/product/{productId} (spec 3, "Get a product"). */
export const getConsumerProductRoute: RestRoute<{ product: ConsumerProductData & { trackingId: number | null } }> = {
  method: "GET",
  url: "/api/consumer/product/:productId",
  schema: {
    summary: "Get a product",
    description: "The consumer product record. Deprecated products are returned with the descriptor {type: EXCLUDED, reason: DEPRECATED}; deleted ones are 404. 400 for a malformed id or externalClientId.",
    tags: ["Catalogue consumption"],
    params: obj({ productId: idParam("Product id") }, { required: ["productId"] }),
    querystring: obj({ externalClientId: externalClientIdParam }, { additionalProperties: false }),
    response: { 200: consumerProductSchema, 404: errorResponse("Unknown or deleted product") },
  },
  operation: /* GraphQL */ `
    query RestConsumerProduct($id: Int!, $externalClientId: String) { product(id: $id) { ...ConsumerProduct trackingId } }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  parameters: { id: "productId" },
  variables: (request) => ({
    id: (request.params as { productId: number }).productId,
    externalClientId: (request.query as { externalClientId?: string }).externalClientId ?? null,
  }),
  plainJson: true,
  respond: ({ product }, request) => {
    const record = product.consumerRecord;
    const trackingId = product.trackingId;
    // trackingId feature: a per-call id in `id`, the catalogue id in `productId`.
    return { ...record, id: trackingId ?? record.id, productId: record.id };
  },
};

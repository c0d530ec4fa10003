import { toGlobalId } from "../../../core/global-id.js";
import { errorResponse, restRejected } from "../../error-body.js";
import { answer, idParam, obj } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";
import { CONSUMER_PRODUCT_FIELDS, CONSUMER_RECORD_REQUIRED, consumerRecordProperties, externalClientIdParam, type ConsumerProductData } from "./consumer-product.js";

/** The record with productId, the catalogue id, after id (where respond puts it). */
const { id, ...afterId } = consumerRecordProperties;
const consumerProductReadSchema = answer(
  { id, productId: { type: "integer", description: "The static catalogue id" }, ...afterId },
  ["id", "productId", ...CONSUMER_RECORD_REQUIRED.filter((name) => name !== "id")],
  "Consumer product record (spec 3); texts in the Accept-Language language; unset fields absent",
);

/** GET /api/consumer/product/{productId} (spec 3, "Get a product"). */
export const getConsumerProductRoute: RestRoute<{ product: (ConsumerProductData & { trackingId: string | null }) | null }> = {
  method: "GET",
  url: "/api/consumer/product/:productId",
  schema: {
    operationId: "getProduct",
    summary: "Get a product",
    description: "The consumer product record. Deprecated products are returned with the descriptor {type: EXCLUDED, reason: DEPRECATED}; deleted ones are 404. 400 for a malformed id or externalClientId.",
    tags: ["Catalogue consumption"],
    params: obj({ productId: idParam("Product id") }, { required: ["productId"] }),
    querystring: obj({ externalClientId: externalClientIdParam }, { additionalProperties: false }),
    response: { 200: consumerProductReadSchema, 404: errorResponse("Unknown or deleted product") },
  },
  operation: /* GraphQL */ `
    query RestConsumerProduct($id: ID!, $externalClientId: String) { product(id: $id) { ...ConsumerProduct trackingId } }
    ${CONSUMER_PRODUCT_FIELDS}
  `,
  variables: (request) => ({
    id: toGlobalId("Product", (request.params as { productId: number }).productId),
    externalClientId: (request.query as { externalClientId?: string }).externalClientId ?? null,
  }),
  plainJson: true,
  respond: ({ product }) => {
    if (!product) throw restRejected("NOT_FOUND", "No product of the catalogue has this id");
    const { id, ...record } = product.consumerRecord;
    // trackingId feature: a per-call id in `id`, the catalogue id in `productId`.
    // The graph writes a tracking id (48 bits) as an ID; spec 3's is a number, which holds 48 bits exactly.
    return { id: product.trackingId === null ? id : Number(product.trackingId), productId: id, ...record };
  },
};

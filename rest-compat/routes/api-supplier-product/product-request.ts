import type { FastifyRequest } from "fastify";
import type { FieldProblem } from "../../../core/errors.js";
import { productProblems, type ProductRequest } from "../../../subgraphs/catalogue/product/product.rules.js";
import { productInputOf } from "../../../subgraphs/catalogue/product/product.input.js";
import { productRefusal } from "../../../subgraphs/catalogue/product/product.service.js";
import { userErrorsOf } from "../../../subgraphs/common/user.errors.js";
import { restRejected } from "../../error-body.js";
import { oncePerRequest } from "../../once-per-request.js";
import { pickBySchema } from "../../json-schema.js";
import { productIdOf, supplierIdOf } from "../../path-ids.js";
import type { RestRoute } from "../../rest-route.js";
import { refusedUnlessEmpty } from "../../user-errors.js";
import { PRODUCT_PARAMETERS, productRequestSchema } from "./product-body.js";

/** Spec 1's body, its known fields only. */
const documentOf = (request: FastifyRequest) => pickBySchema(request.body, productRequestSchema) as ProductRequest;

/**
 * The body judged once per request by the service's own rules (product.rules.ts, which need no
 * database): only a body they pass can be typed (an enum, a code, an amount).
 */
const judgement = oncePerRequest((request): FieldProblem[] => productProblems(documentOf(request)).list);

/** The typed input's product fields for a body the rules passed. */
export const productInputOfBody = (request: FastifyRequest) => productInputOf(documentOf(request));

/**
 * A body the rules refuse cannot be sent: the graph is asked what the path names first, so that
 * the answer is the one the mutation gives, in its order: 403 without the right to manage
 * products, 404 for a supplier (or, for an update, a product of that supplier) the caller does
 * not manage, then 400 naming every field at fault, as the mutation's refusal would (the same
 * rules, the same refusal, the same mapping to REST). The catalogue's own lookups (taxonomy codes,
 * a booking engine by name) are judged by the mutation once the rest passes.
 */
export function refusedProductBody(target: "supplier" | "product"): NonNullable<RestRoute<never>["otherwise"]> {
  return {
    when: (request) => judgement(request).length > 0,
    operation:
      target === "supplier"
        ? /* GraphQL */ `query RestProductSupplier($supplierId: ID!) { supplier(id: $supplierId) { id } }`
        : /* GraphQL */ `query RestProductOfSupplier($supplierId: ID!, $productId: ID!) { supplier(id: $supplierId) { id } product(id: $productId) { supplier { id } } }`,
    variables: (request) => (target === "supplier" ? { supplierId: supplierIdOf(request) } : { supplierId: supplierIdOf(request), productId: productIdOf(request) }),
    respond: ({ supplier, product }: { supplier: { id: string } | null; product?: { supplier: { id: string } } | null }, request) => {
      const { supplierId } = request.params as { supplierId: number };
      if (!supplier) throw restRejected("NOT_FOUND", target === "supplier" ? `Supplier ${supplierId} not found` : "Product not found");
      if (target === "product" && product?.supplier.id !== supplier.id) throw restRejected("NOT_FOUND", "Product not found");
      refusedUnlessEmpty({ userErrors: userErrorsOf(productRefusal(judgement(request)))! }, PRODUCT_PARAMETERS);
      throw new Error("A refused product body was not refused");
    },
  };
}

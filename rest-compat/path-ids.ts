import type { FastifyRequest } from "fastify";
import { toGlobalId } from "../core/global-id.js";
import { isUuid } from "../core/uuid.js";
import { restRejected } from "./error-body.js";

/** A path parameter that must be a UUID; anything else is refused here, naming the parameter. */
export function uuidParameter(request: FastifyRequest, name: string): string {
  const value = (request.params as Record<string, string>)[name];
  if (!isUuid(value)) throw restRejected("VALIDATION_FAILED", `${name} must be a UUID`, [{ field: name, rule: "uuid", message: `${name} must be a UUID` }]);
  return value;
}

/** The graph's id of what a numbered path parameter names (`productId` → `Product:<n>`); the route's schema has checked the number. */
export const globalIdOfParameter = (request: FastifyRequest, type: string, name: string): string => toGlobalId(type, (request.params as Record<string, number>)[name]);

/** The product a path names, as the graph takes it. */
export const productIdOf = (request: FastifyRequest): string => globalIdOfParameter(request, "Product", "productId");

/** The supplier a path names, as the graph takes it. */
export const supplierIdOf = (request: FastifyRequest): string => globalIdOfParameter(request, "Supplier", "supplierId");

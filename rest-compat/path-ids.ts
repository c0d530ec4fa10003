import type { FastifyRequest } from "fastify";
import { isUuid } from "../core/uuid.js";
import { RestError } from "./error-body.js";

/** A path parameter that must be a UUID; anything else is refused here, naming the parameter. */
export function uuidParameter(request: FastifyRequest, name: string): string {
  const value = (request.params as Record<string, string>)[name];
  if (!isUuid(value)) throw new RestError(400, "VALIDATION_FAILED", `${name} must be a UUID`, [{ field: name, rule: "uuid", message: `${name} must be a UUID` }]);
  return value;
}

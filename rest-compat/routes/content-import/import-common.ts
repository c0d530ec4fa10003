import type { FastifyRequest } from "fastify";
import { answer, int, str, type JsonSchema } from "../../json-schema.js";
import { selfLink } from "../../rest-route.js";

/** Query parameters both imports share (spec 3, bulk import). */
export const importQuery = {
  countryCodeList: str("Comma-separated ISO 3166-1 alpha-2 codes"),
  bookingEngineList: str("Comma-separated booking engine names"),
  modifiedSince: str("UTC date-time yyyy-MM-ddTHH:mm:ss.SSSZ"),
  cursor: str("Opaque; omit on the first request, then send meta.nextCursor"),
  "page[limit]": { ...int("Default 100, at most 1000"), default: 100, minimum: -2_147_483_648, maximum: 2_147_483_647 },
} satisfies Record<string, JsonSchema>;

export const list = (value: unknown): string[] | null =>
  typeof value === "string" && value.trim() !== "" ? value.split(",").map((item) => item.trim()).filter(Boolean) : null;

/** links.self is the request as made; links.next the same with the next cursor, empty on the last page. */
export function importLinks(request: FastifyRequest, nextCursor: string | null) {
  const self = selfLink(request);
  let next = "";
  if (nextCursor) {
    const url = new URL(self);
    url.searchParams.set("cursor", nextCursor);
    next = url.toString();
  }
  return { self: self.toString(), next };
}

export const importMetaSchema: JsonSchema = answer(
  {
    estimatedCount: { type: "integer", description: "Approximate: exact up to 10,000" },
    nextCursor: { type: "string", description: "Empty on the last page" },
    asOf: { type: "string", description: "When this run began; use it as modifiedSince for the next run" },
    links: answer({ self: { type: "string" }, next: { type: "string", description: "Empty on the last page" } }, ["self", "next"]),
  },
  ["estimatedCount", "nextCursor", "asOf", "links"],
);


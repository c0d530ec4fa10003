import fastJsonStringify from "fast-json-stringify";
import { beforeAll, describe, expect, it } from "vitest";
import type { RestRoute } from "../../rest-compat/rest-route.js";
import { restRoutes } from "../../rest-compat/routes/index.js";
import { contentPartner, productRequest, signIn, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

/**
 * Routes marked plainJson send their body with JSON.stringify instead of the serializer Fastify
 * compiles from the response schema (rest-route.ts). Integrators saw the compiled serializer's
 * bytes before: declared keys first in the schema's order, undeclared keys dropped where the
 * schema closes an object. Each such route's real body must be exactly what that serializer
 * writes for it, so switching a route to plainJson changes no byte on the wire, nor the
 * Content-Type header.
 */
describe("REST bodies sent with JSON.stringify", () => {
  const t = useStack();
  const paths = new Map<RestRoute<unknown>, () => string>();
  let consumerToken: string;
  let trackedToken: string;
  let productId: number;

  beforeAll(async () => {
    const partner = await contentPartner(t.stack);
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    productId = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: "Plain body glacier hike", fr: "Randonnée glaciaire" } }))).body.id;
    await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest({ title: { en: "Plain body second hike" }, categories: [{ level: 1, code: "tours" }] }));
    const consumer = await t.stack.createAccount("CONSUMER", { country: "CH" });
    consumerToken = await signIn(t.stack, consumer.username, consumer.password);
    const tracked = await t.stack.createAccount("CONSUMER");
    await t.stack.service.identity.accounts.setTrackingIds(tracked.organisationName!, true);
    trackedToken = await signIn(t.stack, tracked.username, tracked.password);
    const engine = `bookingEngine:${partner.engineName}`;
    const byRoute: [RestRoute<unknown>, () => string][] = [
      [routeAt("GET", "/api/consumer/products"), () => `/api/consumer/products?Search=${encodeURIComponent(`title:hike AND ${engine}`)}&externalClientId=abc123`],
      [routeAt("GET", "/api/consumer/diff/products"), () => `/api/consumer/diff/products?Search=${encodeURIComponent(engine)}&date=${new Date().toISOString().slice(0, 10)}`],
      [routeAt("GET", "/api/consumer/product/:productId"), () => `/api/consumer/product/${productId}`],
      [routeAt("GET", "/content/v0/import/activities/active"), () => `/content/v0/import/activities/active?bookingEngineList=${partner.engineName}`],
    ];
    for (const [route, path] of byRoute) paths.set(route, path);
  });

  it("covers every plainJson route", () => {
    const plain = restRoutes.filter((route) => route.plainJson).map((route) => `${route.method} ${route.url}`);
    expect(plain.sort()).toEqual([...paths.keys()].map((route) => `${route.method} ${route.url}`).sort());
  });

  it.each([
    ["a consumer without tracking ids", () => consumerToken],
    ["a consumer with tracking ids", () => trackedToken],
  ])("answers each of them as the compiled serializer would, for %s", async (_who, token) => {
    for (const [route, path] of paths) {
      const response = await fetch(`${t.stack.url}${path()}`, { headers: { authorization: `Bearer ${token()}`, "accept-language": "fr" } });
      const text = await response.text();
      expect(response.status, `${route.url}: ${text.slice(0, 300)}`).toBe(200);
      // Fastify leaves the content type to the serializer it compiled; a reply's own skips it.
      expect(response.headers.get("content-type"), route.url).toBe("application/json; charset=utf-8");
      const parsed = JSON.parse(text);
      const items = parsed.items ?? parsed.data;
      if (items) expect(items.length, route.url).toBeGreaterThan(0);
      const compiled = fastJsonStringify((route.schema.response as Record<number, object>)[200]);
      expect(text, route.url).toBe(compiled(parsed));
    }
  });
});

function routeAt(method: string, url: string): RestRoute<unknown> {
  const route = restRoutes.find((r) => r.method === method && r.url === url);
  if (!route) throw new Error(`no route ${method} ${url}`);
  return route as RestRoute<unknown>;
}

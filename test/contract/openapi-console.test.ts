import { describe, expect, it } from "vitest";
import { getJson, useStack } from "../support/stack.js";

const CONSOLE = "/api/content-partner/swagger-ui";

describe("OpenAPI document and the interactive console (spec 1, Authentication item 9)", () => {
  const t = useStack();

  it("serves Swagger UI at the documented address from the service itself, no CDN", async () => {
    const page = await fetch(`${t.stack.url}${CONSOLE}/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^https?:/);
      const asset = await fetch(new URL(src, `${t.stack.url}${CONSOLE}/index.html`));
      expect(asset.status, src).toBe(200);
      // Read the body: an unread streamed response keeps its connection busy and the server from closing.
      expect((await asset.arrayBuffer()).byteLength, src).toBeGreaterThan(0);
    }
    const initializer = await (await fetch(`${t.stack.url}${CONSOLE}/static/swagger-initializer.js`)).text();
    expect(initializer).toContain("persistAuthorization");
  });

  it("publishes an OpenAPI document generated from the route schemas, with the token schemes Authorize uses", async () => {
    const { status, body } = await getJson(`${t.stack.url}${CONSOLE}/json`);
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    expect(body.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer", bearerFormat: "JWT" }),
      oauth2Password: expect.objectContaining({
        type: "oauth2",
        flows: { password: { tokenUrl: "/auth/realms/activities/protocol/openid-connect/token", scopes: {} } },
      }),
    });
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        "/api/me",
        "/api/organisations",
        "/api/booking-engines",
        "/api/supplier",
        "/api/supplier/{supplierId}",
        "/api/suppliers",
        "/api/supplier/{supplierId}/product",
        "/api/supplier/{supplierId}/products/",
        "/api/supplier/{supplierId}/product/{productId}",
        "/reporting/v1/bookings",
        "/reporting/v1/bookings/{id}",
      ]),
    );
    expect(Object.keys(body.paths["/api/supplier/{supplierId}"]).sort()).toEqual(["delete", "get", "post"]);
    expect(Object.keys(body.paths["/reporting/v1/bookings"].get.responses["200"].content).sort()).toEqual(["application/json", "text/csv"]);
    expect(body.paths["/api/supplier"].post.requestBody.content["application/json"].schema.required).toEqual(["externalId", "country"]);
    const me = body.paths["/api/me"].get;
    expect(me.security).toEqual([{ bearerAuth: [] }, { oauth2Password: [] }]);
    expect(Object.keys(me.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "500"]));
    expect(me.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorBody" });
    expect(body.components.schemas.ErrorBody.required).toEqual(["status", "code", "message", "requestId"]);
    // The token endpoint is a path of the contract (1): documented, without a token of its own.
    expect(body.paths["/auth/realms/activities/protocol/openid-connect/token"].post.security).toEqual([]);
    // The other identity endpoints, health, GraphQL and subgraph endpoints are not REST paths of the contract.
    for (const hidden of [
      "/graphql",
      "/health/live",
      "/auth/realms/activities/protocol/openid-connect/certs",
      "/auth/realms/activities/.well-known/openid-configuration",
      "/auth/realms/activities/password-setup",
      "/subgraphs/catalogue/graphql",
      "/api/supplier/{supplierId}/products",
    ]) {
      expect(body.paths[hidden], hidden).toBeUndefined();
    }
  });

  it("answers the console's own calls with a pasted token", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const response = await getJson(`${t.stack.url}/api/booking-engines`, token);
    expect(response.status).toBe(200);
    expect(response.body.items).toEqual(expect.any(Array));
  });
});

import { toGlobalId } from "../../core/global-id.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, systemClock } from "../../core/clock.js";
import type { Database } from "../../drizzle/database.js";
import { GATEWAY_CREDENTIAL_HEADER, GatewayCredential, SERVICE_CREDENTIAL_HEADER } from "../../identity/gateway-credential.js";
import { buildEdge, type Edge } from "../../server/edge.js";
import { subgraphNames, type SubgraphName } from "../../subgraphs/subgraph.names.js";
import { contentPartner, productRequest, restClient, signIn, supplierRequest } from "../support/catalogue.js";
import { startSubgraphRoles } from "../support/subgraph-roles.js";
import { openTestDatabase, startStack, type Stack } from "../support/stack.js";

/**
 * Subgraphs resolve entity references (`_entities`) by key, without the read rules of the root
 * fields: a caller who reached one directly could read another organisation, a supplier's
 * contact details or a deleted product. So they are never on HTTP in the single process, and
 * as separate roles they answer only requests the gateway signed for that caller's token.
 */
const entitiesQuery = `query ($r: [_Any!]!) { _entities(representations: $r) {
  ... on Organisation { name countryCode commercialModel }
  ... on Supplier { contact { email telephone } }
  ... on Product { internalName }
} }`;

async function post(url: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe("the subgraphs are not a side door", () => {
  describe("as separate roles behind an edge", () => {
    let database: Database;
    const subgraphs = {} as Record<SubgraphName, { url: string; close: () => Promise<void> }>;
    let edge: Edge;
    let edgeUrl: string;
    let consumerToken: string;
    let representations: Record<string, unknown>[];
    let signed: GatewayCredential;

    beforeAll(async () => {
      const roles = await startSubgraphRoles();
      const { config, logger, identity } = roles;
      database = roles.database;
      Object.assign(subgraphs, roles.subgraphs);
      config.subgraphUrls = { catalogue: subgraphs.catalogue.url, booking: subgraphs.booking.url, reporting: subgraphs.reporting.url };
      edge = await buildEdge({ config, database, identity, logger, clock: systemClock, mode: "remote" });
      await edge.app.listen({ port: 0, host: "127.0.0.1" });
      edgeUrl = `http://127.0.0.1:${(edge.app.server.address() as { port: number }).port}`;
      config.publicUrl = edgeUrl;

      // What a consumer must not read: another organisation, a supplier's contacts, a deleted product.
      const stackLike = { url: edgeUrl, tokenUrl: `${edgeUrl}${identity.paths.token}` } as Stack;
      const partnerAccount = { username: `partner-${Date.now()}`, password: "partner-password-1" };
      await identity.accounts.createAccount({ ...partnerAccount, role: "CONTENT_PARTNER", organisation: `Other ${Date.now()}`, country: "CH", model: "reseller", bookingEngine: `BOUNDARY_${Date.now()}` });
      const partnerToken = await signIn(stackLike, partnerAccount.username, partnerAccount.password);
      const partner = restClient(stackLike, partnerToken);
      const supplier = await partner.post("/api/supplier", supplierRequest());
      const product = await partner.post(`/api/supplier/${supplier.body.id}/product`, productRequest({ internalName: "margin notes" }));
      const deleted = await partner.delete(`/api/supplier/${supplier.body.id}/product/${product.body.id}`);
      expect(deleted.status, JSON.stringify([supplier.body, product.body, deleted.body])).toBe(200);
      const partnerOrganisation = (await partner.get("/api/me")).body.organisation.id;
      representations = [
        { __typename: "Organisation", id: partnerOrganisation },
        { __typename: "Supplier", id: toGlobalId("Supplier", supplier.body.id) },
        { __typename: "Product", legacyResourceId: product.body.id },
      ];
      const consumerAccount = { username: `consumer-${Date.now()}`, password: "consumer-password-1" };
      await identity.accounts.createAccount({ ...consumerAccount, role: "CONSUMER", organisation: `Buyer ${Date.now()}`, country: "NL", model: "agent" });
      consumerToken = await signIn(stackLike, consumerAccount.username, consumerAccount.password);
      signed = await GatewayCredential.load(database.db, systemClock);
    }, 60_000);
    afterAll(async () => {
      await edge?.close();
      await Promise.all(Object.values(subgraphs).map((s) => s.close()));
      await database?.close();
    });

    it("answers the graph through the edge, which signs its requests", async () => {
      const answer = await post(`${edgeUrl}/graphql`, consumerToken, { query: "{ me { roles organisation { countryCode } } bookingEngines { name } }" });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.me).toEqual({ roles: ["CONSUMER"], organisation: { countryCode: "NL" } });
    });

    it("passes a subgraph's refusal to the client with its code, not as a failed fetch", async () => {
      const refused = await post(`${edgeUrl}/graphql`, consumerToken, { query: '{ suppliers(bookingEngineName: "ANY") { totalCount { count } } }' });
      expect(refused.body.errors?.[0].extensions.code).toBe("FORBIDDEN");
      // Absent is no refusal: a product that does not exist is null, without an error.
      const missing = await post(`${edgeUrl}/graphql`, consumerToken, { query: `{ product(id: "${toGlobalId("Product", 2147483000)}") { id } }` });
      expect(missing.body).toMatchObject({ data: { product: null } });
      expect(missing.body.errors).toBeUndefined();
      const invalid = await post(`${edgeUrl}/graphql`, consumerToken, { query: '{ searchProducts(query: "", first: 1001) { totalCount { count } } }' });
      expect(invalid.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", problems: [expect.objectContaining({ field: "first" })] });
    });

    it("refuses a direct call without the gateway's credential, on every subgraph", async () => {
      for (const name of subgraphNames) {
        const direct = await post(subgraphs[name].url, consumerToken, { query: entitiesQuery, variables: { r: representations } });
        expect(direct.status, name).toBe(403);
        expect(direct.body).toMatchObject({ status: 403, code: "FORBIDDEN", message: "This subgraph answers only the gateway", requestId: expect.any(String) });
        expect(JSON.stringify(direct.body)).not.toContain("margin notes");
      }
    });

    it("refuses a forged, a borrowed and a stale credential", async () => {
      const old = new ManualClock(new Date(Date.now() - 120_000));
      const stale = (await GatewayCredential.load(database.db, old)).sign(consumerToken);
      const borrowed = signed.sign(`${consumerToken}x`);
      const forged = `v1.${Math.floor(Date.now() / 1000)}.${"ab".repeat(32)}`;
      for (const credential of [forged, borrowed, stale, "", "v1"]) {
        const direct = await post(subgraphs.catalogue.url, consumerToken, { query: entitiesQuery, variables: { r: representations } }, { [GATEWAY_CREDENTIAL_HEADER]: credential });
        expect(direct.status, credential).toBe(403);
      }
    });

    it("answers the gateway's own signature — what the gate keeps from everyone else", async () => {
      const asGateway = await post(subgraphs.catalogue.url, consumerToken, { query: entitiesQuery, variables: { r: representations } }, { [GATEWAY_CREDENTIAL_HEADER]: signed.sign(consumerToken) });
      expect(asGateway.status).toBe(200);
      expect(asGateway.body.data._entities[2]).toEqual({ internalName: "margin notes" });
    });

    it("answers a service credential as a caller without roles: entity references, nothing a role would open", async () => {
      const asService = (body: unknown, credential = signed.signService("booking")) =>
        fetch(subgraphs.catalogue.url, { method: "POST", headers: { "content-type": "application/json", [SERVICE_CREDENTIAL_HEADER]: credential }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      const entities = await asService({ query: entitiesQuery, variables: { r: representations } });
      expect(entities.status).toBe(200);
      expect(entities.body.data._entities[2]).toEqual({ internalName: "margin notes" });
      const rootField = await asService({ query: "{ organisations { nodes { name } } }" });
      expect(rootField.body.errors?.[0].extensions.code).toBe("FORBIDDEN");
      // Forged, stale, or naming a service that may not call in its own name.
      const old = new ManualClock(new Date(Date.now() - 120_000));
      const stale = (await GatewayCredential.load(database.db, old)).signService("booking");
      const now = Math.floor(Date.now() / 1000);
      const forged = `v1.${now}.booking.${"ab".repeat(32)}`;
      const otherService = signed.signService("booking").replace(".booking.", ".reporting.");
      // A token-bound gateway credential is no service credential (its message differs).
      const gatewayShaped = signed.sign("service:booking").replace(/^v1\.(\d+)\./, "v1.$1.booking.");
      for (const credential of [stale, forged, otherService, gatewayShaped, "v1"]) {
        const refused = await asService({ query: entitiesQuery, variables: { r: representations } }, credential);
        expect(refused.status, credential).toBe(403);
        expect(JSON.stringify(refused.body)).not.toContain("margin notes");
      }
    });

    it("applies operation limits at the subgraph too", async () => {
      const aliases = Array.from({ length: 500 }, (_, i) => `a${i}: _service { sdl }`).join(" ");
      const bomb = await post(subgraphs.catalogue.url, consumerToken, { query: `{ ${aliases} }` }, { [GATEWAY_CREDENTIAL_HEADER]: signed.sign(consumerToken) });
      expect(bomb.status).toBe(400);
      expect(bomb.body.errors[0].extensions).toMatchObject({ code: "GRAPHQL_VALIDATION_FAILED", reason: "TOO_MANY_ALIASES" });
    });
  });

  describe("in the single process", () => {
    let stack: Stack;
    let database: Database;
    beforeAll(async () => {
      database = await openTestDatabase();
      stack = await startStack({ database });
    });
    afterAll(async () => {
      await stack?.close();
      await database?.close();
    });

    it("has no subgraph on HTTP: the references attack finds no endpoint", async () => {
      const partner = await contentPartner(stack);
      const consumerToken = await stack.tokenFor("CONSUMER");
      const organisation = (await partner.rest.get("/api/me")).body.organisation.id;
      for (const name of subgraphNames) {
        const direct = await post(`${stack.url}/subgraphs/${name}/graphql`, consumerToken, { query: entitiesQuery, variables: { r: [{ __typename: "Organisation", id: organisation }] } });
        expect(direct.status).toBe(404);
        expect(direct.body).toMatchObject({ status: 404, code: "NOT_FOUND" });
      }
    });
  });
});

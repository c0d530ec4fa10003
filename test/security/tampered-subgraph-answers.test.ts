import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../core/clock.js";
import type { Database } from "../../drizzle/database.js";
import { fastShapingCounts } from "../../gateway/result-shaping.js";
import { buildEdge, type Edge } from "../../server/edge.js";
import type { SubgraphName } from "../../subgraphs/subgraph.names.js";
import { signIn } from "../support/catalogue.js";
import { startSubgraphRoles } from "../support/subgraph-roles.js";
import type { Stack } from "../support/stack.js";

/**
 * A subgraph answer is not trusted to be what the client asked for: a compromised or buggy
 * subgraph may add fields the client API hides, answer an enum value it does not have, or break
 * a non-null promise. The gateway's planned result shaping (gateway/result-shaping.ts) writes
 * only the fields the client selected and hands anything wrong back to @apollo/gateway's own
 * walk, which answers it with an error, never with the value.
 */
type Tamper = (data: any) => void;

const QUERY = "{ me { roles organisation { legacyResourceId name countryCode commercialModel } } }";
/** What the client API hides, and what the catalogue subgraph could still put in an answer. */
const HIDDEN = { internalName: "margin notes", removed: true, supplierContact: { email: "ops@example.test" } };

/** Visits every object of an answer as it came, so a visit that adds objects does not walk them. */
function eachObject(value: unknown, visit: (object: Record<string, unknown>) => void): void {
  const objects: Record<string, unknown>[] = [];
  const collect = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === "object") {
      objects.push(node as Record<string, unknown>);
      Object.values(node).forEach(collect);
    }
  };
  collect(value);
  objects.forEach(visit);
}

describe("a tampered subgraph answer never reaches the client as data", () => {
  let database: Database;
  const subgraphs = {} as Record<SubgraphName, { url: string; close: () => Promise<void> }>;
  let proxy: Server;
  let tamper: Tamper | null = null;
  let edge: Edge;
  let edgeUrl: string;
  let consumerToken: string;
  let organisationName: string;

  /** The client's request through the edge, with the catalogue subgraph's answers passed through `with`. */
  async function ask(withTamper: Tamper | null) {
    tamper = withTamper;
    try {
      const response = await fetch(`${edgeUrl}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${consumerToken}` },
        body: JSON.stringify({ query: QUERY }),
      });
      const text = await response.text();
      return { status: response.status, text, body: JSON.parse(text) as any };
    } finally {
      tamper = null;
    }
  }

  beforeAll(async () => {
    const roles = await startSubgraphRoles();
    const { config, logger, identity } = roles;
    database = roles.database;
    Object.assign(subgraphs, roles.subgraphs);
    // Between the edge and the catalogue subgraph: passes requests on, and answers through `tamper`.
    proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string" && name !== "host" && name !== "content-length") headers[name] = value;
      const upstream = await fetch(subgraphs.catalogue.url, { method: "POST", headers, body: Buffer.concat(chunks) });
      const answer = (await upstream.json()) as { data?: unknown };
      try {
        if (tamper && answer.data) tamper(answer.data);
        response.writeHead(upstream.status, { "content-type": "application/json" });
        response.end(JSON.stringify(answer));
      } catch (error) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ errors: [{ message: `the test's tamper failed: ${error}` }] }));
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyPort = (proxy.address() as { port: number }).port;
    config.subgraphUrls = { catalogue: `http://127.0.0.1:${proxyPort}/graphql`, booking: subgraphs.booking.url, reporting: subgraphs.reporting.url };
    edge = await buildEdge({ config, database, identity, logger, clock: systemClock, mode: "remote" });
    await edge.app.listen({ port: 0, host: "127.0.0.1" });
    edgeUrl = `http://127.0.0.1:${(edge.app.server.address() as { port: number }).port}`;
    config.publicUrl = edgeUrl;
    organisationName = `Tamper target ${Date.now()}`;
    const account = { username: `consumer-tamper-${Date.now()}`, password: "consumer-password-1" };
    await identity.accounts.createAccount({ ...account, role: "CONSUMER", organisation: organisationName, country: "NL", model: "agent" });
    consumerToken = await signIn({ url: edgeUrl, tokenUrl: `${edgeUrl}${identity.paths.token}` } as Stack, account.username, account.password);
  }, 60_000);
  afterAll(async () => {
    await edge?.close();
    await new Promise((resolve) => proxy?.close(resolve));
    await Promise.all(Object.values(subgraphs).map((s) => s.close()));
    await database?.close();
  });

  it("answers an untampered request through the planned shaping", async () => {
    const before = fastShapingCounts();
    const clean = await ask(null);
    expect(clean.body).toEqual({ data: { me: { roles: ["CONSUMER"], organisation: { legacyResourceId: expect.any(Number), name: organisationName, countryCode: "NL", commercialModel: "AGENT" } } }, extensions: { cost: expect.any(Object) } });
    expect(fastShapingCounts().shaped).toBeGreaterThan(before.shaped);
  });

  it("drops fields the client did not select, hidden ones and prototype keys included", async () => {
    const clean = await ask(null);
    const before = fastShapingCounts();
    const padded = await ask((data) =>
      eachObject(data, (object) => {
        Object.assign(object, HIDDEN);
        // A JSON "__proto__" member is an own property after JSON.parse: copying it naively would pollute.
        Object.defineProperty(object, "__proto__", { value: { polluted: true }, enumerable: true, configurable: true, writable: true });
      }),
    );
    expect(padded.body.data).toEqual(clean.body.data);
    for (const hidden of ["margin notes", "removed", "supplierContact", "__proto__", "polluted"]) expect(padded.text).not.toContain(hidden);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The plan shaped it (extra members are no error), so this is the plan's own walk being checked.
    expect(fastShapingCounts().shaped).toBeGreaterThan(before.shaped);
  });

  it("answers an enum value the API schema does not have as a refusal, never as the value", async () => {
    const before = fastShapingCounts();
    const answer = await ask((data) => eachObject(data, (object) => {
      if ("commercialModel" in object) object.commercialModel = "INTERNAL_WHOLESALE";
    }));
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain("INTERNAL_WHOLESALE");
    // `commercialModel` is non-null, so the null reaches the nearest nullable parent. @apollo/gateway
    // reports what it refused of a subgraph's answer under `extensions.valueCompletion`.
    expect(answer.body.data.me).toEqual({ roles: ["CONSUMER"], organisation: null });
    expect(answer.body.extensions.valueCompletion).toEqual([expect.objectContaining({ path: ["me", "organisation", "commercialModel"], extensions: { code: "INVALID_GRAPHQL" } })]);
    expect(fastShapingCounts().handedBack).toBeGreaterThan(before.handedBack);
  });

  it("answers a broken non-null promise and a value of the wrong type as refusals, never as the value", async () => {
    const nullName = await ask((data) => eachObject(data, (object) => {
      if ("countryCode" in object) object.name = null;
    }));
    expect(nullName.body.data.me).toEqual({ roles: ["CONSUMER"], organisation: null });
    expect(nullName.body.extensions.valueCompletion).toEqual([expect.objectContaining({ path: ["me", "organisation", "name"] })]);
    const wrongType = await ask((data) => eachObject(data, (object) => {
      if ("countryCode" in object) object.legacyResourceId = "not-a-number; drop table bookings";
    }));
    expect(wrongType.text).not.toContain("drop table");
    expect(wrongType.body.data.me).toEqual({ roles: ["CONSUMER"], organisation: null });
    expect(wrongType.body.extensions.valueCompletion).toEqual([expect.objectContaining({ path: ["me", "organisation", "legacyResourceId"] })]);
    const roles = await ask((data) => eachObject(data, (object) => {
      if ("roles" in object) object.roles = ["CONSUMER", "SUPERUSER"];
    }));
    expect(roles.text).not.toContain("SUPERUSER");
    // `me` and its roles are non-null all the way up: the whole answer is refused.
    expect(roles.body.data).toBeNull();
    expect(roles.body.extensions.valueCompletion).toEqual([expect.objectContaining({ path: ["me", "roles", 1] })]);
  });
});

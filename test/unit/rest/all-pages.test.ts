import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import type { EdgeContext } from "../../../gateway/edge-context.js";
import type { EdgeGraph } from "../../../gateway/gateway.js";
import { errorBodySchema, RestError } from "../../../rest-compat/error-body.js";
import { registerRestRoute, type RestRoute } from "../../../rest-compat/rest-route.js";

interface Data {
  list: { nodes: number[]; next: string | null };
}

/** A graph that answers a list of `total` numbers `size` at a time, after a cursor that is the last number given; it records each `after` it was asked with. */
function pagedGraph(total: number, size: number, failAt?: string) {
  const asked: (string | null)[] = [];
  const graph = {
    execute: async (request: { variables: { after: string | null } }) => {
      const { after } = request.variables;
      asked.push(after);
      if (after === failAt) return { errors: [{ message: "Too many requests", extensions: { code: "TOO_MANY_REQUESTS", reason: "COST_BUDGET", retryAfterSeconds: 2 } }] };
      const start = after === null ? 0 : Number(after);
      const nodes = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i + 1);
      return { data: { list: { nodes, next: start + nodes.length < total ? String(start + nodes.length) : null } } };
    },
  };
  return { graph: graph as unknown as EdgeGraph, asked };
}

const route: RestRoute<Data> = {
  method: "GET",
  url: "/numbers",
  schema: { operationId: "numbers", summary: "Numbers", tags: ["Test"] },
  operation: "query ($after: String) { list(after: $after) { nodes next } }",
  variables: () => ({ first: 3 }),
  allPages: {
    after: (data) => data.list.next,
    merge: (pages) => ({ list: { nodes: pages.flatMap((page) => page.list.nodes), next: null } }),
  },
  respond: ({ list }) => ({ numbers: list.nodes }),
};

async function answer(graph: EdgeGraph) {
  const app = Fastify();
  app.addSchema(errorBodySchema);
  // The service's handler writes the whole error body (server/http-app.ts); the status and code are what this test reads.
  app.setErrorHandler((error, _request, reply) => {
    const [status, code] = error instanceof RestError ? [error.status, error.code] : [500, "UNEXPECTED"];
    return reply.code(status).send({ status, code, message: String(error), requestId: "test" });
  });
  app.decorateRequest("edgeContext", undefined);
  app.addHook("onRequest", async (request) => {
    request.edgeContext = {} as EdgeContext;
  });
  registerRestRoute(app, graph, route);
  const response = await app.inject({ method: "GET", url: "/numbers" });
  await app.close();
  return response;
}

/** A REST path that answers a whole list runs its connection's operation page after page (rest-route.ts, allPages). */
describe("a route that answers every page", () => {
  it("follows each page's cursor until the last, and answers the pages as one", async () => {
    const { graph, asked } = pagedGraph(8, 3);
    const response = await answer(graph);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ numbers: [1, 2, 3, 4, 5, 6, 7, 8] });
    expect(asked).toEqual([null, "3", "6"]);
  });

  it("runs once when the first page is the last, and answers an empty list", async () => {
    const { graph, asked } = pagedGraph(0, 3);
    expect((await answer(graph)).json()).toEqual({ numbers: [] });
    expect(asked).toEqual([null]);
  });

  it("answers a refusal of a later page as the request's error, with no partial list", async () => {
    const { graph, asked } = pagedGraph(8, 3, "6");
    const response = await answer(graph);
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(asked).toEqual([null, "3", "6"]);
  });
});

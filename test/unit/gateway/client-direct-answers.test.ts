import { ApolloServer, HeaderMap } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import type { GatewayExecutor, GatewayInterface } from "@apollo/server-gateway-interface";
import { buildSchema, GraphQLError, type GraphQLFormattedError } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../core/logger.js";
import { clientTextAdmission, directGatewayExecution } from "../../../gateway/direct-execution.js";
import type { EdgeContext } from "../../../gateway/edge-context.js";

/**
 * The direct path answers a client's admitted request with Apollo Server's status, headers and
 * body. The real gateway rarely answers without data or throws, so here a stand-in gateway does,
 * behind a real Apollo Server, and each answer of the direct path is compared with Apollo
 * Server's own for the same request.
 */
describe("the direct path's answers to clients, against Apollo Server's", () => {
  const schema = buildSchema("type Query { hello(n: Int): String }");
  let behaviour: GatewayExecutor = async () => ({ data: { hello: "world" } });
  // Apollo Server takes the executor from `load`; the direct path calls the gateway's own, as ApolloGateway has it.
  const executor: GatewayExecutor = (requestContext) => behaviour(requestContext as never);
  const listeners: Parameters<GatewayInterface["onSchemaLoadOrUpdate"]>[0][] = [];
  const gateway: GatewayInterface = {
    load: async () => {
      for (const listener of listeners) listener({ apiSchema: schema, coreSupergraphSdl: "" });
      return { executor };
    },
    onSchemaLoadOrUpdate: (listener) => {
      listeners.push(listener);
      return () => {};
    },
    stop: async () => {},
  };
  Object.assign(gateway, { executor });
  const formatError = (formatted: GraphQLFormattedError, error: unknown) => {
    if ((error as GraphQLError).message === "format me badly") throw new Error("formatter failed");
    return formatted;
  };
  const admission = clientTextAdmission();
  const server = new ApolloServer<EdgeContext>({ gateway, formatError, includeStacktraceInErrorResponses: false, plugins: [ApolloServerPluginCacheControlDisabled(), admission.plugin] });
  const logger = createLogger("silent");
  let direct: ReturnType<typeof directGatewayExecution>;
  const context = { caller: {}, token: "token", requestId: "r" } as unknown as EdgeContext;
  const body = { query: "query Hello($n: Int) { hello(n: $n) }", operationName: "Hello", variables: { n: 1 } };

  const throughApollo = async () => {
    const headers = new HeaderMap([["content-type", "application/json"]]);
    const response = await server.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: "POST", headers, search: "", body }, context: async () => context });
    if (response.body.kind !== "complete") throw new Error("chunked answer");
    return { status: response.status ?? 200, headers: Object.fromEntries(response.headers), body: response.body.string };
  };
  const throughDirect = async () => {
    const answer = await direct.answerClient({ body, contentType: "application/json", accept: undefined }, context);
    return answer && { status: answer.status, headers: Object.fromEntries(answer.headers), body: answer.body };
  };

  beforeAll(async () => {
    await server.start();
    direct = directGatewayExecution({ server, gateway: gateway as never, apiSchema: () => schema, formatError, logger, clientTexts: admission.texts });
    expect(await throughDirect()).toBeUndefined();
    expect((await throughApollo()).status).toBe(200);
  });
  afterAll(() => server.stop());

  const behaviours: [string, GatewayExecutor][] = [
    ["data", async () => ({ data: { hello: "world" } })],
    ["errors and data", async () => ({ data: { hello: null }, errors: [new GraphQLError("downstream", { path: ["hello"], extensions: { code: "NOT_FOUND" } })] })],
    ["errors without data (400)", async () => ({ errors: [new GraphQLError("no plan")] })],
    ["an error's HTTP status and headers", async () => ({ data: null, errors: [new GraphQLError("teapot", { extensions: { code: "TEAPOT", http: { status: 418, headers: new Map([["retry-after", "5"]]) } } })] })],
    ["a formatter that throws", async () => ({ data: { hello: null }, errors: [new GraphQLError("format me badly")] })],
    [
      "an executor that throws (500)",
      async () => {
        throw new Error("gateway failed");
      },
    ],
  ];

  for (const [name, executor] of behaviours) {
    it(`answers as Apollo Server does: ${name}`, async () => {
      behaviour = executor;
      const apollo = await throughApollo();
      const answer = await throughDirect();
      expect(answer).toEqual(apollo);
    });
  }

  it("had the statuses it mirrors to mirror", async () => {
    behaviour = behaviours[2][1];
    expect((await throughDirect())?.status).toBe(400);
    behaviour = behaviours[3][1];
    expect(await throughDirect()).toMatchObject({ status: 418, headers: { "retry-after": "5" } });
    behaviour = behaviours[5][1];
    expect((await throughDirect())?.status).toBe(500);
  });
});

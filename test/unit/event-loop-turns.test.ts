import "reflect-metadata";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { makeExecutableSchema } from "@graphql-tools/schema";
import { execute, parse } from "graphql";
import { Mutation, Query, Resolver } from "type-graphql";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TurnChain } from "../../core/event-loop-turns.js";
import { InProcessDataSource } from "../../gateway/data-sources.js";
import { apolloLimitOptions } from "../../gateway/operation-limits.js";
import type { EdgeContext } from "../../gateway/edge-context.js";
import { buildFederatedSchema } from "../../subgraphs/common/subgraph.build.js";
import type { RunningSubgraph } from "../../subgraphs/common/subgraph.running.js";

/**
 * An operation's phases, and a query's root fields, each start on a turn of the event loop of
 * their own, so that another caller's request is read in between (core/event-loop-turns.ts).
 * A turn is counted by an immediate that schedules itself again: two things seen with the same
 * count ran in one turn, with no poll for sockets between them.
 */
let turn = 0;
let counting = false;
const tick = () => {
  turn++;
  if (counting) setImmediate(tick);
};
beforeEach(() => {
  counting = true;
  setImmediate(tick);
});
afterEach(() => {
  counting = false;
});

describe("TurnChain", () => {
  it("gives a key's callers one turn each, in order, and the first the current one", async () => {
    const chain = new TurnChain<object>();
    const key = {};
    const seen: number[] = [];
    expect(chain.next(key)).toBeUndefined();
    seen.push(turn);
    await Promise.all(Array.from({ length: 5 }, () => chain.next(key)!.then(() => seen.push(turn))));
    expect(seen).toHaveLength(6);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  });

  it("does not make one key wait for another's turns", async () => {
    const chain = new TurnChain<object>();
    const busy = {};
    chain.next(busy);
    const waiting = Array.from({ length: 10 }, () => chain.next(busy));
    expect(chain.next({})).toBeUndefined();
    await Promise.all(waiting);
  });
});

@Resolver()
class TurnProbeResolver {
  @Query(() => Number)
  turnProbe(): number {
    return turn;
  }

  @Mutation(() => Number)
  turnProbeMutation(): number {
    return turn;
  }
}

describe("a subgraph's root fields", () => {
  it("start each on a turn of its own in a query of several, in the order asked", async () => {
    const schema = await buildFederatedSchema([TurnProbeResolver]);
    const result = await execute({ schema, document: parse("{ a: turnProbe b: turnProbe c: turnProbe d: turnProbe }"), contextValue: {} });
    const turns = Object.values(result.data as Record<string, number>);
    for (let i = 1; i < turns.length; i++) expect(turns[i]).toBeGreaterThan(turns[i - 1]);
  });

  it("leave a query of one root field, and a mutation's fields, as GraphQL runs them", async () => {
    const schema = await buildFederatedSchema([TurnProbeResolver]);
    // No promise: the one field resolves in the turn it was asked in.
    const single = execute({ schema, document: parse("{ turnProbe }"), contextValue: {} });
    expect(single).not.toBeInstanceOf(Promise);
    const mutation = await execute({ schema, document: parse("mutation { a: turnProbeMutation b: turnProbeMutation }"), contextValue: {} });
    const { a, b } = mutation.data as { a: number; b: number };
    expect(b).toBe(a);
  });
});

describe("an operation through Apollo Server's pipeline with the service's limits", () => {
  /** An Apollo Server with the edge's limits, recording the turn each request's phases ended or began on. */
  async function recordingServer() {
    const seen = new Map<string, { parsed?: number; validated?: number; executing?: number }>();
    const of = (query: string | undefined) => seen.get(query ?? "") ?? (seen.set(query ?? "", {}), seen.get(query ?? "")!);
    const recordPhases: ApolloServerPlugin = {
      async requestDidStart({ request }) {
        const phases = of(request.query);
        return {
          async parsingDidStart() {
            return async () => {
              phases.parsed = turn;
            };
          },
          async validationDidStart() {
            return async () => {
              phases.validated = turn;
            };
          },
          async executionDidStart() {
            phases.executing = turn;
          },
        };
      },
    };
    const { limitPlugins, ...limits } = apolloLimitOptions("edge");
    const server = new ApolloServer({
      schema: makeExecutableSchema({ typeDefs: "type Query { probe(n: Int): Int }", resolvers: { Query: { probe: () => turn } } }),
      ...limits,
      plugins: [...limitPlugins, recordPhases],
    });
    await server.start();
    return { server, seen };
  }

  it("parses, validates, estimates its cost and executes a text on turns of their own", async () => {
    const { server, seen } = await recordingServer();
    try {
      const response = await server.executeOperation({ query: "{ probe }" });
      if (response.body.kind !== "single") throw new Error("a single result was expected");
      const resolved = (response.body.singleResult.data as { probe: number }).probe;
      const phases = seen.get("{ probe }")!;
      expect(phases.validated).toBeGreaterThan(phases.parsed!);
      // The estimate's turn between validation and execution.
      expect(phases.executing).toBeGreaterThanOrEqual(phases.validated! + 2);
      expect(resolved).toBe(phases.executing);
    } finally {
      await server.stop();
    }
  });

  it("gives requests that arrive together a turn each for the same phase, not one turn for all", async () => {
    const { server, seen } = await recordingServer();
    try {
      const texts = Array.from({ length: 4 }, (_, i) => `{ probe(n: ${i}) }`);
      await Promise.all(texts.map((query) => server.executeOperation({ query })));
      const validated = texts.map((text) => seen.get(text)!.validated!);
      expect(new Set(validated).size).toBe(texts.length);
      const parsed = texts.map((text) => seen.get(text)!.parsed!);
      expect(new Set(parsed).size).toBe(texts.length);
    } finally {
      await server.stop();
    }
  });
});

describe("the gateway's call to a subgraph in the same process", () => {
  it("starts on the turn after the one its plan was made on", async () => {
    let calledAt = -1;
    const subgraph = {
      createContext: async () => ({}),
      executeInProcess: async () => {
        calledAt = turn;
        return { data: {} };
      },
    } as unknown as RunningSubgraph;
    const planned = turn;
    await new InProcessDataSource(subgraph).process({
      request: { query: "{ probe }" },
      context: { token: "t", requestId: "r" } as EdgeContext,
    } as Parameters<InProcessDataSource["process"]>[0]);
    expect(calledAt).toBeGreaterThan(planned);
  });
});

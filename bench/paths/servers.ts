import { randomUUID } from "node:crypto";
import { HeaderMap } from "@apollo/server";
import type { RemotePglite } from "../../drizzle/pglite-thread/remote.js";
import Fastify from "fastify";
import postgres from "postgres";
import type { Service } from "../../server/service.js";
import type { SubgraphName } from "../../subgraphs/subgraph.names.js";
import type { CapturedStatement, CapturedSubgraphCall } from "./capture.js";

/** What the limit route of one scenario replays and answers: the REST request's SQL and its body. */
export interface LimitPlan {
  statements: CapturedStatement[];
  /** UUIDs the request generated (first seen in an INSERT): fresh ones on every replay, so that rows never collide. */
  generated: string[];
  body: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * UUIDs whose first appearance in the statements is as a parameter of an INSERT: ids the request
 * made up. `known` are ids that existed before (the caller's account and session, from its token).
 */
export function generatedIds(statements: CapturedStatement[], known: string[] = []): string[] {
  const seen = new Set<string>(known);
  const generated: string[] = [];
  for (const statement of statements) {
    const insert = /^\s*insert/i.test(statement.sql);
    for (const param of statement.params) {
      if (typeof param !== "string" || !UUID.test(param) || seen.has(param)) continue;
      seen.add(param);
      if (insert) generated.push(param);
    }
  }
  return generated;
}

/** Replaces every key of the map by its value inside a string. */
export function substitute(text: string, map: Record<string, string>): string {
  let out = text;
  for (const [from, to] of Object.entries(map)) if (from !== to) out = out.split(from).join(to);
  return out;
}

const substituteParam = (param: unknown, map: Record<string, string>): unknown =>
  typeof param === "string" ? substitute(param, map) : Array.isArray(param) ? param.map((p) => substituteParam(p, map)) : param;

type Runner = { one(sql: string, params: unknown[]): Promise<unknown>; transaction(body: (run: (sql: string, params: unknown[]) => Promise<unknown>) => Promise<void>): Promise<void> };

/** Statements in order, those of one captured transaction inside one transaction again. */
async function replay(runner: Runner, statements: CapturedStatement[], map: Record<string, string>) {
  const params = (statement: CapturedStatement) => statement.params.map((p) => substituteParam(p, map));
  for (let i = 0; i < statements.length; ) {
    const tx = statements[i].tx;
    if (tx === undefined) {
      await runner.one(statements[i].sql, params(statements[i]));
      i++;
      continue;
    }
    let end = i;
    while (end < statements.length && statements[end].tx === tx) end++;
    const group = statements.slice(i, end);
    await runner.transaction(async (run) => {
      for (const statement of group) await run(statement.sql, params(statement));
    });
    i = end;
  }
}

/**
 * The bench's own HTTP server, beside the service: `POST /limit/:scenario` (the physical limit:
 * the REST request's SQL through postgres.js, or PGlite, and the REST body serialised with
 * JSON.stringify) and `POST /subgraph` (the gateway's subgraph calls, made on the in-process
 * subgraphs' Apollo Servers with no gateway in front). Never part of the production server.
 */
export async function startBenchServer(options: { service: Service; databaseUrl?: string; pglite?: RemotePglite; poolSize: number }) {
  const sql = options.databaseUrl ? postgres(options.databaseUrl, { max: options.poolSize, onnotice: () => {} }) : undefined;
  const pglite = options.pglite;
  const runner: Runner = sql
    ? {
        one: (text, params) => sql.unsafe(text, params as never[]),
        transaction: async (body) => {
          await sql.begin((tx) => body((text, params) => tx.unsafe(text, params as never[])));
        },
      }
    : {
        one: (text, params) => pglite!.query(text, params),
        transaction: async (body) => {
          await pglite!.transaction((tx) => body((text, params) => tx.query(text, params)));
        },
      };
  const plans = new Map<string, LimitPlan>();
  const app = Fastify({ logger: false, bodyLimit: 10 * 2 ** 20 });

  app.post<{ Params: { scenario: string }; Body: { map?: Record<string, string> } }>("/limit/:scenario", async (request, reply) => {
    const plan = plans.get(request.params.scenario);
    if (!plan) return reply.code(404).send({ error: "no such scenario" });
    const map: Record<string, string> = { ...request.body?.map };
    for (const id of plan.generated) map[id] = randomUUID();
    await replay(runner, plan.statements, map);
    return reply.header("content-type", "application/json; charset=utf-8").send(JSON.stringify(plan.body));
  });

  const subgraphs = options.service.edge!.subgraphs;
  app.post<{ Body: { calls: CapturedSubgraphCall[] } }>("/subgraph", async (request, reply) => {
    const results: unknown[] = [];
    for (const call of request.body.calls) {
      const running = subgraphs[call.subgraph as SubgraphName]!;
      const headers = new HeaderMap(Object.entries({ ...call.headers, authorization: String(request.headers.authorization ?? "") }));
      const contextValue = await running.createContext(headers);
      // As the gateway calls it (executeInProcess: directly once the text has answered once).
      const result = await running.executeInProcess({ query: call.query, variables: call.variables, operationName: call.operationName }, contextValue);
      if (result.errors?.length) return reply.code(500).send({ errors: result.errors });
      results.push(result);
    }
    return reply.header("content-type", "application/json; charset=utf-8").send(JSON.stringify(results));
  });

  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url,
    plans,
    async close() {
      await app.close();
      await sql?.end({ timeout: 5 });
    },
  };
}

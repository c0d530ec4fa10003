import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { EDGE_REFUSALS } from "../../../core/edge-refusals.js";
import { HTTP_STATUS_OF_CODE } from "../../../core/errors.js";
import { REFUSALS } from "../../../core/refusals.js";
import { createLogger } from "../../../core/logger.js";
import { EXPECTED_CODES, hideUnexpected } from "../../../gateway/subgraph-server.js";

/** What leaves a subgraph or the edge of an error, and what the log is told. */
function formatted(code: string) {
  const logged: Record<string, unknown>[] = [];
  const logger = createLogger("warn", { write: (line: string) => logged.push(JSON.parse(line)) });
  const error = new GraphQLError("it went so", { path: ["x"], extensions: { code, reason: "R", downstream: "http://inner/" } });
  return { out: hideUnexpected(error.toJSON(), error, logger, "request-1"), logged };
}

describe("the codes an error keeps on its way out", () => {
  it("are every code of the services' and the edge's refusal tables, and nothing else", () => {
    const tables = new Set([...Object.keys(HTTP_STATUS_OF_CODE), ...Object.values(REFUSALS).map((refusal) => refusal.code), ...Object.values(EDGE_REFUSALS).map((refusal) => refusal.code)]);
    tables.delete("INTERNAL_SERVER_ERROR");
    expect([...EXPECTED_CODES].sort()).toEqual([...tables].sort());
  });

  it("pass each such error through with its message and documented extensions only, unlogged", () => {
    for (const code of EXPECTED_CODES) {
      const { out, logged } = formatted(code);
      expect(out, code).toEqual({ message: "it went so", path: ["x"], extensions: { code, reason: "R" } });
      expect(logged).toEqual([]);
    }
  });

  it("hide any other code as an internal error, and log it with the request's id", () => {
    for (const code of ["DOWNSTREAM_SERVICE_ERROR", "ECONNREFUSED", "INTERNAL_SERVER_ERROR", "bad_user_input"]) {
      const { out, logged } = formatted(code);
      expect(out, code).toMatchObject({ message: "Internal server error", path: ["x"], extensions: { code: "INTERNAL_SERVER_ERROR" } });
      expect(JSON.stringify(out)).not.toContain("inner");
      expect(logged).toMatchObject([{ level: 50, requestId: "request-1", msg: "unexpected GraphQL error" }]);
    }
  });
});

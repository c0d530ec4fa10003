import { sql } from "drizzle-orm";
import { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../core/logger.js";
import { openDatabase, rows } from "../../drizzle/database.js";
import { restErrorFrom } from "../../rest-compat/graphql-errors.js";
import { hideUnexpected } from "../../gateway/subgraph-server.js";

describe("a time budget for every statement", () => {
  it("answers a statement cancelled at its timeout as OPERATION_TIMEOUT (REST 503), not as an internal error", () => {
    const cancelled = Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
    const wrapped = new GraphQLError("Failed query", { originalError: Object.assign(new Error("Failed query"), { cause: cancelled }) });
    const formatted = hideUnexpected(wrapped.toJSON(), wrapped, createLogger("silent"));
    expect(formatted.extensions).toEqual({ code: "OPERATION_TIMEOUT" });
    expect(restErrorFrom([formatted])).toMatchObject({ status: 503, code: "OPERATION_TIMEOUT" });
  });

  // On direct connections; through a pooler, test/integration/pooler.test.ts.
  if (process.env.DATABASE_URL && !process.env.DATABASE_DIRECT_URL) {
    it("cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS on every pooled connection, the key lookups' pool's too", async () => {
      const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, statementTimeoutMs: 200, maxConnections: 3 });
      try {
        for (const db of [database.db, database.forKeyLookups.db]) {
          const settings = await Promise.all([1, 2, 3].map(() => rows<{ statement_timeout: string }>(db, sql`show statement_timeout`)));
          expect(settings.map((r) => r[0].statement_timeout)).toEqual(["200ms", "200ms", "200ms"]);
          await expect(db.execute(sql`select pg_sleep(2)`)).rejects.toSatisfy((error: unknown) => JSON.stringify(error).includes("57014") || String((error as { cause?: { code?: string } }).cause?.code) === "57014");
          // The connection is usable again at once.
          expect(await rows<{ one: number }>(db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
        }
      } finally {
        await database.close();
      }
    });
  }
});

import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { GraphQLError } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../core/logger.js";
import { contentPartner, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  reqId?: string;
  err?: { type?: string; message?: string; stack?: string; code?: string; statement?: { operation?: string; table?: string }; cause?: LogLine["err"] };
}

/**
 * Issue 41, item 5: a statement that failed was logged with its whole SQL text and, through
 * drizzle's error message, its parameters: a caller's values (names, e-mail addresses, search
 * words) in the error log. A failed statement's line keeps the SQLSTATE, the statement's operation
 * and table and the request id, never the statement or its values.
 */
describe("a failed statement in the logs", () => {
  const logLines: string[] = [];
  // Its own database: the trigger below refuses rows on the suppliers table.
  const t = useStack({ logLines, ownDatabase: true, env: { WORKER_LOOPS: "false" } });
  const lines = () => logLines.map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    await t.database.db.execute(
      sql.raw(`create function refuse_poisoned_supplier() returns trigger language plpgsql as $$
        begin
          if new.name like 'Poisoned %' then raise exception 'this supplier is refused' using errcode = 'P0001'; end if;
          return new;
        end $$`),
    );
    await t.database.db.execute(sql.raw("create trigger refuse_poisoned_supplier before insert on suppliers for each row execute function refuse_poisoned_supplier()"));
  });

  it("carries the SQLSTATE, the operation and table and the request id, never the SQL or its values", async () => {
    const partner = await contentPartner(t.stack);
    const secret = `Poisoned ${randomUUID()}`;
    const email = `${randomUUID()}@secret.example`;
    const requestId = `failed-statement-${randomUUID()}`;
    const response = await fetch(`${t.stack.url}/api/supplier`, {
      method: "POST",
      headers: { authorization: `Bearer ${partner.token}`, "content-type": "application/json", "x-request-id": requestId },
      body: JSON.stringify(supplierRequest({ name: secret, supplierContact: { email } })),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: "INTERNAL_SERVER_ERROR", message: "Internal server error", requestId });

    await expect.poll(() => lines().filter((line) => line.level >= 50 && line.requestId === requestId).length).toBeGreaterThan(0);
    const failed = lines().find((line) => line.level >= 50 && line.requestId === requestId && JSON.stringify(line.err).includes("P0001"))!;
    expect(failed, JSON.stringify(lines().filter((line) => line.level >= 50))).toBeDefined();
    const chain = JSON.stringify(failed.err);
    expect(chain).toContain('"code":"P0001"');
    expect(chain).toContain('"statement":{"operation":"insert","table":"suppliers"}');
    expect(chain).toContain("this supplier is refused");

    const everything = logLines.join("\n");
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(email);
    expect(everything).not.toMatch(/insert into/i);
    expect(everything).not.toContain("params:");
    expect(everything).not.toContain("Failed query: ");
  });
});

describe("the logger's error serializer", () => {
  const logged = (err: unknown) => {
    const out: string[] = [];
    createLogger("info", { write: (line: string) => void out.push(line) }).error({ err }, "failed");
    return { line: out.join(""), err: (JSON.parse(out[0]) as LogLine).err! };
  };

  it("summarises drizzle's failed query and drops the driver's statement, parameters and row detail", () => {
    const database = Object.assign(new Error('duplicate key value violates unique constraint "accounts_username_key"'), {
      code: "23505",
      severity: "ERROR",
      detail: "Key (username)=(alice@secret.example) already exists.",
      table: "accounts",
      constraint: "accounts_username_key",
      query: "insert into \"accounts\" (\"username\") values ($1)",
      parameters: ["alice@secret.example"],
      params: ["alice@secret.example"],
      where: "SQL statement \"insert into accounts values ('alice@secret.example')\"",
    });
    const drizzle = new DrizzleQueryError('insert into "accounts" ("username", "password_hash") values ($1, $2) returning "id"', ["alice@secret.example", "$argon2id$secret"], database);
    // As graphql-js wraps what a resolver throws: the message and the stack copied.
    const wrapped = new GraphQLError(drizzle.message, { originalError: drizzle });
    const { line, err } = logged(wrapped);
    expect(line).not.toContain("alice@secret.example");
    expect(line).not.toContain("$argon2id$secret");
    expect(line).not.toMatch(/insert into/i);
    expect(err.message).toBe("Failed query (insert accounts)");
    expect(err.stack).toMatch(/^GraphQLError: Failed query \(insert accounts\)\n/);
    expect(err.cause).toMatchObject({ type: "DrizzleQueryError", message: "Failed query (insert accounts)", statement: { operation: "insert", table: "accounts" } });
    expect(err.cause!.cause).toMatchObject({ message: 'duplicate key value violates unique constraint "accounts_username_key"', code: "23505", table: "accounts", constraint: "accounts_username_key" });
  });

  it("keeps what other errors carry", () => {
    const error = Object.assign(new Error("the supplier answered 502"), { status: 502, engine: "PARIS" });
    const { err } = logged(error);
    expect(err).toMatchObject({ type: "Error", message: "the supplier answered 502", status: 502, engine: "PARIS" });
    expect(err.stack).toMatch(/^Error: the supplier answered 502\n\s+at /);
  });
});

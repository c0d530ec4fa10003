import "reflect-metadata";
import { describe, expect, it } from "vitest";
import { badInput, forbidden, notFound, serviceError } from "../../../core/errors.js";
import { rejected } from "../../../core/refusals.js";
import { keyOfGlobalId, parseGlobalId, toGlobalId } from "../../../core/global-id.js";
import { REFUSALS, statusOfRefusal, type RefusalCode } from "../../../core/refusals.js";
import { refusedUnlessEmpty, restField } from "../../../rest-compat/user-errors.js";
import { RestError } from "../../../rest-compat/error-body.js";
import { cappedCount, connectionFrom, cursorCodec, keyOrOffset, offsetCursor, offsetOf, offsetOfRequest, pageRequest, whenAsked } from "../../../subgraphs/common/relay/relay.connection.js";
import { payloadOf, userErrorsOf } from "../../../subgraphs/common/user.errors.js";

describe("global ids", () => {
  it("round-trip a type and a key, and name nothing for another type or a mangled id", () => {
    const id = toGlobalId("WebhookEndpoint", "5f0c1e4a-1b2c-4d5e-8f90-123456789abc");
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parseGlobalId(id)).toEqual({ typeName: "WebhookEndpoint", key: "5f0c1e4a-1b2c-4d5e-8f90-123456789abc" });
    expect(keyOfGlobalId(id, "WebhookEndpoint")).toBe("5f0c1e4a-1b2c-4d5e-8f90-123456789abc");
    expect(keyOfGlobalId(id, "WebhookMessage")).toBeNull();
    expect(keyOfGlobalId(toGlobalId("Product", 42), "Product")).toBe("42");
    for (const bad of ["", "!!", "bm90aGluZw", Buffer.from(":key").toString("base64url"), Buffer.from("lower:key").toString("base64url"), `${id}=`, "x".repeat(201)]) {
      expect(parseGlobalId(bad), bad).toBeNull();
    }
  });
});

describe("connections", () => {
  const decode = (cursor: string) => (cursor.startsWith("c") ? cursor.slice(1) : null);

  it("reads the paging arguments once for every connection, refusing what cannot be answered", () => {
    expect(pageRequest({}, 100, decode)).toEqual({ size: 20, direction: "forward", position: null });
    expect(pageRequest({ first: 5, after: "c7" }, 100, decode)).toEqual({ size: 5, direction: "forward", position: "7" });
    expect(pageRequest({ last: 3, before: "c9" }, 100, decode)).toEqual({ size: 3, direction: "backward", position: "9" });
    expect(pageRequest({ before: "c9" }, 100, decode)).toEqual({ size: 20, direction: "backward", position: "9" });
    const refusal = (args: Parameters<typeof pageRequest>[0]) => {
      try {
        pageRequest(args, 100, decode);
      } catch (error) {
        return (error as { extensions: { code: string; problems: { field: string }[] } }).extensions;
      }
      return null;
    };
    expect(refusal({ first: 1, last: 1 })).toMatchObject({ code: "BAD_USER_INPUT", problems: [{ field: "last" }] });
    expect(refusal({ after: "c1", before: "c2" })).toMatchObject({ problems: [{ field: "before" }] });
    expect(refusal({ first: 101 })).toMatchObject({ problems: [{ field: "first" }] });
    expect(refusal({ last: -1 })).toMatchObject({ problems: [{ field: "last" }] });
    expect(refusal({ first: 1, after: "nope" })).toMatchObject({ problems: [{ field: "after" }] });
  });

  it("writes an offset cursor that only an offset reads back", () => {
    expect(offsetOf(cursorCodec.decode(offsetCursor(0)))).toBe(0);
    expect(offsetOf(cursorCodec.decode(offsetCursor(2_147_483_646_000)))).toBe(2_147_483_646_000);
    for (const other of [[7], { offset: -1 }, { offset: 1.5 }, { offset: "3" }, { offset: 3, id: 4 }, null, "3"]) expect(offsetOf(other), JSON.stringify(other)).toBeNull();
    // A connection that takes both reads either; an offset is read forward only.
    const decode = keyOrOffset((position) => (Array.isArray(position) && typeof position[0] === "number" ? { id: position[0] } : null));
    expect(decode(offsetCursor(40))).toEqual({ offset: 40 });
    expect(decode(cursorCodec.encode([7]))).toEqual({ id: 7 });
    expect(decode(cursorCodec.encode(["x"]))).toBeNull();
    expect(offsetOfRequest(pageRequest({ first: 5, after: offsetCursor(40) }, 100, decode))).toBe(40);
    expect(offsetOfRequest(pageRequest({ first: 5, after: cursorCodec.encode([7]) }, 100, decode))).toBeNull();
    expect(() => offsetOfRequest(pageRequest({ last: 5, before: offsetCursor(40) }, 100, decode))).toThrow(/before takes a cursor of an edge/);
  });

  it("turns a keyset page into edges in the list's order, with pageInfo from the extra row and the cursor", async () => {
    const count = () => Promise.resolve({ count: 9, precision: "EXACT" as never });
    const forward = connectionFrom({ size: 2, direction: "forward", position: "4" }, [5, 6, 7], (n) => ({ n }), (n) => `c${n}`, count);
    expect(forward.edges).toEqual([{ cursor: "c5", node: { n: 5 } }, { cursor: "c6", node: { n: 6 } }]);
    expect(forward.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true, startCursor: "c5", endCursor: "c6" });
    // Read nearest first, answered in the list's order.
    const backward = connectionFrom({ size: 2, direction: "backward", position: null }, [9, 8], (n) => n, (n) => `c${n}`, count);
    expect(backward.nodes).toEqual([8, 9]);
    expect(backward.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: "c8", endCursor: "c9" });
    const empty = connectionFrom({ size: 0, direction: "forward", position: null }, [], (n: number) => n, String, count);
    expect(empty.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
    expect(await forward.totalCount).toEqual({ count: 9, precision: "EXACT" });
  });

  it("counts only when asked, and says AT_LEAST past the cap", async () => {
    let counted = 0;
    const lazy = whenAsked(async () => ++counted);
    expect(counted).toBe(0);
    expect(await lazy).toBe(1);
    expect(await lazy).toBe(1);
    expect(await cappedCount(10, async (limit) => Math.min(limit, 7))).toEqual({ count: 7, precision: "EXACT" });
    expect(await cappedCount(10, async (limit) => Math.min(limit, 50))).toEqual({ count: 10, precision: "AT_LEAST" });
  });
});

describe("refusals as data", () => {
  it("answers each refusal of the table as userErrors, naming the input field, and lets the rest through", async () => {
    expect(userErrorsOf(badInput("bad", [{ field: "eventTypes[1]", rule: "enum", message: "one of …" }, { field: "id", rule: "uuid", message: "a UUID" }]), { rename: { id: "webhookEndpointId" } })).toEqual([
      { code: "VALIDATION_FAILED", message: "one of …", field: ["input", "eventTypes", "1"], rule: "enum" },
      { code: "VALIDATION_FAILED", message: "a UUID", field: ["input", "webhookEndpointId"], rule: "uuid" },
    ]);
    expect(userErrorsOf(notFound("gone"), { notFound: "webhookEndpointId" })).toEqual([{ code: "NOT_FOUND", message: "gone", field: ["input", "webhookEndpointId"], rule: null }]);
    expect(userErrorsOf(serviceError("CONFLICT", "no key", { reason: "ENGINE_SECRETS_KEY_MISSING" }))).toEqual([{ code: "ENGINE_SECRETS_KEY_MISSING", message: "no key", field: null, rule: null }]);
    // The caller's role, a reason the table does not hold, and the unexpected stay errors.
    expect(userErrorsOf(forbidden())).toBeNull();
    expect(userErrorsOf(serviceError("BAD_USER_INPUT", "x", { reason: "SOMETHING_ELSE" }))).toBeNull();
    // A refusal with the contract's number carries it.
    expect(userErrorsOf(rejected("PRICES_CHANGED", "x"))).toEqual([{ code: "PRICES_CHANGED", errorCode: 9573, message: "x", field: null, rule: null }]);
    // In the table, but refused by a query (availableDates), which has no payload: not a UserErrorCode value.
    expect(userErrorsOf(rejected("INVALID_DATE_RANGE", "x"))).toBeNull();
    expect(userErrorsOf(rejected("INVALID_SETUP", "x", [{ field: "setup.units.0.price", rule: "too_small", message: "≥ 0" }]))).toEqual([
      { code: "INVALID_SETUP", message: "≥ 0", field: ["input", "setup", "units", "0", "price"], rule: "too_small" },
    ]);
    expect(userErrorsOf(new Error("boom"))).toBeNull();
    await expect(payloadOf(async () => ({ done: true }))).resolves.toEqual({ done: true, userErrors: [] });
    await expect(payloadOf(async () => Promise.reject(notFound("gone")))).resolves.toEqual({ userErrors: [expect.objectContaining({ code: "NOT_FOUND" })] });
    await expect(payloadOf(async () => Promise.reject(forbidden()))).rejects.toThrow();
  });

  it("gives REST the table's status and code, with each field as the caller named it", () => {
    expect(restField(["input", "eventTypes", "0"])).toBe("eventTypes[0]");
    expect(restField(["input", "webhookEndpointId"], { webhookEndpointId: "id" })).toBe("id");
    expect(restField(["input", "address", "lines", "2", "text"])).toBe("address.lines[2].text");
    const payload = { userErrors: [] };
    expect(refusedUnlessEmpty(payload)).toBe(payload);
    const refusedWith = (userErrors: Parameters<typeof refusedUnlessEmpty>[0]["userErrors"]) => {
      try {
        refusedUnlessEmpty({ userErrors }, { isEnabled: "enabled" });
      } catch (error) {
        return error as RestError;
      }
      throw new Error("not refused");
    };
    const invalid = refusedWith([{ code: "VALIDATION_FAILED", message: "true or false", field: ["input", "isEnabled"], rule: "type" }]);
    expect([invalid.status, invalid.code, invalid.message, invalid.details]).toEqual([400, "VALIDATION_FAILED", "enabled: true or false", [{ field: "enabled", rule: "type", message: "true or false" }]]);
    for (const code of Object.keys(REFUSALS) as RefusalCode[]) expect(refusedWith([{ code, message: "m" }]).status, code).toBe(statusOfRefusal(code));
    expect([statusOfRefusal("PRICES_CHANGED"), statusOfRefusal("NO_LONGER_AVAILABLE"), statusOfRefusal("ENGINE_SECRETS_KEY_MISSING"), statusOfRefusal("NOT_FOUND")]).toEqual([400, 500, 409, 404]);
    expect(refusedWith([{ code: "NOT_IN_THE_TABLE", message: "m" }]).status).toBe(500);
  });
});

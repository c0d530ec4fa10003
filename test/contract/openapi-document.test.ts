import { validate } from "@readme/openapi-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { beforeAll, describe, expect, it } from "vitest";
import { getJson, useStack } from "../support/stack.js";

type Method = "get" | "post" | "put" | "delete";

/**
 * Every REST path of the contract's index (shared/spec/README.md, 1 to 30) with each status its
 * document gives it. Where a document says the statuses are "not shown", the path still answers its
 * success status and, like every endpoint behind a token, 401 and 403 (spec 1, Authentication item 10).
 */
const contract: Record<string, number[]> = {
  /*  1 */ "post /auth/realms/activities/protocol/openid-connect/token": [200, 400, 401], // OAuth error bodies (RFC 6749 5.2)
  /*  2 */ "post /api/supplier": [201, 400, 401, 403, 500],
  /*  3 */ "get /api/supplier/{supplierId}": [200, 400, 401, 403, 404, 500],
  /*  4 */ "post /api/supplier/{supplierId}": [200, 400, 401, 403, 404, 500],
  /*  5 */ "delete /api/supplier/{supplierId}": [200, 400, 401, 403, 404, 500],
  /*  6 */ "get /api/suppliers": [200, 400, 401, 403, 500],
  /*  7 */ "post /api/supplier/{supplierId}/product": [201, 400, 401, 403, 404, 500],
  /*  8 */ "get /api/supplier/{supplierId}/products/": [200, 401, 403], // not shown
  /*  9 */ "get /booking-flow/v1/products/{productId}/availabilities": [200, 401, 403], // not shown
  /* 10 */ "get /booking-flow/v1/products/{productId}/availabilities/next": [200, 401, 403], // not shown
  /* 11 */ "get /booking-flow/v1/products/{productId}/availabilities/{date}/options": [200, 401, 403], // not shown
  /* 12 */ "put /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/options": [200, 401, 403], // not shown
  /* 13 */ "get /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices": [200, 401, 403], // not shown
  /* 14 */ "put /booking-flow/v1/products/{productId}/availabilities/{availabilityId}/prices": [200, 401, 403], // not shown
  /* 15 */ "post /booking-flow/v1/bookings": [201, 400, 401, 403, 500], // errorCode 6606 9510 9520 9531 9548 9573 / 6501 / 9563
  /* 16 */ "get /booking-flow/v1/bookings/{bookingId}/questions": [200, 401, 403], // not shown
  /* 17 */ "put /booking-flow/v1/bookings/{bookingId}/questions": [200, 401, 403], // not shown
  /* 18 */ "post /booking-flow/v1/bookings/{bookingId}/confirm": [200, 401, 403], // not shown
  /* 19 */ "get /booking-flow/v1/bookings/{bookingId}": [200, 401, 403], // not shown
  /* 20 */ "delete /booking-flow/v1/bookings/{bookingId}": [200, 401, 403], // not shown
  /* 21 */ "get /reporting/v1/bookings": [200, 400, 401, 403, 500],
  /* 22 */ "get /reporting/v1/bookings/{id}": [200, 400, 401, 403, 404, 500],
  /* 23 */ "get /api/consumer/products": [200, 400, 401, 403, 404, 500],
  /* 24 */ "get /api/consumer/diff/products": [200, 400, 401, 403, 404, 500], // same as search
  /* 25 */ "get /api/consumer/product/{productId}": [200, 400, 401, 403, 404, 500],
  /* 26 */ "get /api/consumer/taxonomy": [200, 401, 403], // not shown
  /* 27 */ "post /recommendation/v2/activities": [200, 401, 403], // not shown
  /* 27 */ "get /recommendation/v2/activities": [200, 401, 403], // the GET form
  /* 28 */ "get /recommendation/v1/top-activities": [200, 400, 401, 403, 500],
  /* 29 */ "get /content/v0/import/activities/active": [200, 401, 403], // not shown
  /* 30 */ "get /content/v0/import/activities/inactive": [200, 400, 401, 403, 500],
};

const TOKEN_PATH = "/auth/realms/activities/protocol/openid-connect/token";
const errorBody = { $ref: "#/components/schemas/ErrorBody" };

describe("the OpenAPI document the console serves", () => {
  const t = useStack();
  let document: OpenAPIV3_1.Document;
  beforeAll(async () => {
    const { status, body } = await getJson(`${t.stack.url}/api/content-partner/swagger-ui/json`);
    expect(status).toBe(200);
    document = body;
  });
  const operation = (key: string) => {
    const [method, path] = key.split(" ") as [Method, string];
    return document.paths?.[path]?.[method];
  };

  it("is a valid OpenAPI 3.1 document", async () => {
    // The validator resolves references in place: it gets a copy.
    const result = await validate(structuredClone(document) as never);
    expect(result, JSON.stringify(result.valid ? [] : result.errors)).toEqual({ valid: true, warnings: [], specification: "OpenAPI" });
  });

  it("refuses what it should refuse: the validation is not a formality", async () => {
    const broken = structuredClone(document);
    delete (broken.paths!["/api/supplier/{supplierId}"]!.get as { parameters?: unknown }).parameters;
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it("has no two templated paths OpenAPI counts as one, except the pair the contract itself names", () => {
    // OpenAPI 3.1, Paths Object: /pets/{petId} and /pets/{name} are identical. The contract names
    // GET …/availabilities/{date}/options and PUT …/availabilities/{availabilityId}/options; the
    // document keeps both names (they use different methods, so no operation is ambiguous).
    const byShape = new Map<string, string[]>();
    for (const path of Object.keys(document.paths!)) {
      const shape = path.replace(/\{[^}]+\}/g, "{}");
      byShape.set(shape, [...(byShape.get(shape) ?? []), path]);
    }
    const identical = [...byShape.values()].filter((paths) => paths.length > 1).map((paths) => paths.sort());
    expect(identical).toEqual([["/booking-flow/v1/products/{productId}/availabilities/{availabilityId}/options", "/booking-flow/v1/products/{productId}/availabilities/{date}/options"]]);
    const [date, availability] = ["{date}", "{availabilityId}"].map((name) => document.paths![`/booking-flow/v1/products/{productId}/availabilities/${name}/options`]!);
    expect(Object.keys(date)).toEqual(["get"]);
    expect(Object.keys(availability)).toEqual(["put"]);
  });

  it("documents every REST path of the contract with each status the contract gives it", () => {
    expect(Object.keys(contract)).toHaveLength(31);
    for (const [key, statuses] of Object.entries(contract)) {
      const documented = operation(key);
      expect(documented, `${key} is not in the document`).toBeDefined();
      expect(Object.keys(documented!.responses ?? {}), key).toEqual(expect.arrayContaining(statuses.map(String)));
    }
  });

  it("answers every error of a REST path in the one error body, and documents the statuses every path can answer", () => {
    for (const [path, item] of Object.entries(document.paths!)) {
      if (path === TOKEN_PATH) continue;
      for (const [method, documented] of Object.entries(item!) as [Method, OpenAPIV3_1.OperationObject][]) {
        const responses = documented.responses as Record<string, OpenAPIV3_1.ResponseObject>;
        for (const [status, response] of Object.entries(responses).filter(([status]) => Number(status) >= 400)) {
          expect(response.content?.["application/json"]?.schema, `${method} ${path} ${status}`).toEqual(errorBody);
        }
        // The signed voucher link is opened without a token: no 401, no rate of an account.
        if (path === "/booking-flow/v1/vouchers/{file}") continue;
        expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(["400", "401", "403", "429", "500", "503"]));
      }
    }
  });

  it("documents the token endpoint: a form body for either grant, the token body, and OAuth error bodies", () => {
    const token = document.paths![TOKEN_PATH]!.post!;
    expect(token.security).toEqual([]);
    const form = (token.requestBody as OpenAPIV3_1.RequestBodyObject).content["application/x-www-form-urlencoded"].schema as OpenAPIV3_1.SchemaObject;
    expect(form.oneOf!.map((grant) => [(grant as OpenAPIV3_1.SchemaObject).properties!.grant_type, (grant as OpenAPIV3_1.SchemaObject).required])).toEqual([
      [expect.objectContaining({ enum: ["password"] }), ["client_id", "grant_type", "username", "password"]],
      [expect.objectContaining({ enum: ["refresh_token"] }), ["client_id", "grant_type", "refresh_token"]],
    ]);
    const responses = token.responses as Record<string, OpenAPIV3_1.ResponseObject>;
    const body = (status: string) => responses[status].content!["application/json"].schema as OpenAPIV3_1.SchemaObject;
    expect(body("200").required).toEqual(expect.arrayContaining(["access_token", "refresh_token", "expires_in", "refresh_expires_in", "token_type"]));
    expect(body("400").properties!.error).toMatchObject({ enum: expect.arrayContaining(["invalid_request", "invalid_grant", "unsupported_grant_type"]) });
    expect(body("401").properties!.error).toMatchObject({ enum: ["invalid_client"] });
    expect(Object.keys(responses).sort()).toEqual(["200", "400", "401", "429", "503"]);
  });

  it("describes what the token endpoint answers: a real sign-in and a refusal match the documented bodies", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const token = document.paths![TOKEN_PATH]!.post!.responses as Record<string, OpenAPIV3_1.ResponseObject>;
    const properties = (status: string) => Object.keys((token[status].content!["application/json"].schema as OpenAPIV3_1.SchemaObject).properties!).sort();
    const signIn = await t.stack.login(username, password);
    expect(Object.keys(signIn).sort()).toEqual(properties("200"));
    const refused = await fetch(t.stack.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password: "not-the-password" }),
    });
    expect(refused.status).toBe(400);
    expect(Object.keys((await refused.json()) as object).sort()).toEqual(properties("400"));
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, startStack, type Stack } from "../support/stack.js";

const SUPPLIER_KEY = `octo-key-${randomUUID()}`;

/**
 * Registering an OCTO engine makes the service call the URL given, with the key given. In
 * production a caller must not be able to point it at the service's own network (the cloud
 * metadata service above all), nor make it keep a key it cannot seal properly.
 */
describe("registering an OCTO engine in production", () => {
  let stack: Stack;
  let platform: string;
  beforeAll(async () => {
    stack = await startStack({ database: await openTestDatabase(), env: { ENVIRONMENT: "production" } });
    const account = await stack.createAccount("PLATFORM_CATALOG_MANAGEMENT");
    platform = (await stack.login(account.username, account.password)).access_token;
  });
  afterAll(async () => stack?.close());

  const put = async (name: string, baseUrl: string) => {
    const response = await fetch(`${stack.url}/api/booking-engines/octo/${name}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${platform}`, "content-type": "application/json" },
      body: JSON.stringify({ baseUrl, apiKey: SUPPLIER_KEY, country: "FR" }),
    });
    return { status: response.status, body: (await response.json()) as { code: string; details?: { field: string; message: string }[] } };
  };

  it("asks for https and a public address, so a caller cannot point the service at its own network", async () => {
    for (const baseUrl of ["http://supplier.example", "https://127.0.0.1:4010", "https://169.254.169.254/latest", "https://[::ffff:169.254.169.254]/", "https://2852039166/", "https://10.1.2.3", "https://metadata.google.internal"]) {
      const refused = await put(`PROD_${randomUUID().slice(0, 6).toUpperCase()}`, baseUrl);
      expect({ baseUrl, status: refused.status, code: refused.body.code }).toEqual({ baseUrl, status: 400, code: "VALIDATION_FAILED" });
      expect(refused.body.details?.map((detail) => detail.field)).toContain("baseUrl");
    }
  });

  it("refuses to keep a supplier's key without ENGINE_SECRETS_KEY, before calling anyone", async () => {
    const refused = await put(`PROD_${randomUUID().slice(0, 6).toUpperCase()}`, "https://supplier.example");
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("ENGINE_SECRETS_KEY_MISSING");
  });
});

import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOctoSupplier, type OctoSupplier } from "../../octo-supplier/octo-supplier.js";
import { everyDay, familySetup, validAnswers } from "../support/booking.js";
import { productRequest, supplierRequest, uniqueEngineName } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

type Method = "get" | "post" | "put" | "delete";
type Schema = Record<string, unknown>;

interface Answer {
  operation: string;
  status: number;
  contentType: string | null;
  text: string;
}

const OCTO_KEY = `octo-key-${randomUUID()}`;
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The document's schemas with every object closed: a member an answer carries that the schema does
 * not declare fails, as it would for a client generated with strict types. An object whose members
 * are typed as a map (language objects: `additionalProperties: {type: string}`) keeps its map; a
 * free-form value is declared with `additionalProperties: {}`, and FREE_FORM lists each one.
 */
export function closedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedSchema);
  if (!schema || typeof schema !== "object") return schema;
  const copy: Schema = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === "properties" ? closedProperties(value as Schema) : closedSchema(value)]));
  const types = Array.isArray(copy.type) ? copy.type : [copy.type];
  if ((types.includes("object") || copy.properties) && (copy.additionalProperties === undefined || copy.additionalProperties === true)) copy.additionalProperties = false;
  return copy;
}
const closedProperties = (properties: Schema) => Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, closedSchema(value)]));

/**
 * The members of 2xx schemas that keep members beyond those declared (`additionalProperties: {}`),
 * by name, and why: each is someone's own document, answered as it was sent.
 */
const FREE_FORM = [
  // The content partner's metadata (spec 1: "free-form metadata").
  "metadata",
  // The booking setup, the whole answer of these two, kept as the partner wrote it (docs/booking-setup.md).
  "setBookingSetup",
  "getBookingSetup",
  // What a webhook event is about: the entity it announces (a booking, a product change).
  "data",
];

describe("every answer the OpenAPI document describes, validated against it", () => {
  const t = useStack({
    ownDatabase: true,
    env: { WORKER_LOOPS: "false", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", ENGINE_SECRETS_KEY: randomBytes(32).toString("hex") },
  });
  let document: OpenAPIV3_1.Document;
  const answers: Answer[] = [];
  const graphqlAnswers: Answer[] = [];
  let octo: OctoSupplier;
  let octoUrl: string;
  let receiver: Server;
  let receiverUrl: string;

  /** The operation of the document a request runs: its method and the path template it matches. */
  const operationOf = (method: string, path: string) => {
    const pathname = new URL(path, "http://x").pathname;
    for (const template of Object.keys(document.paths!)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
      if (pattern.test(pathname) && document.paths![template]![method.toLowerCase() as Method]) return `${method.toLowerCase()} ${template}`;
    }
    throw new Error(`${method} ${path} is in no path of the document`);
  };

  const call = async (token: string | undefined, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) => {
    const response = await fetch(`${t.stack.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    answers.push({ operation: operationOf(method, path), status: response.status, contentType: response.headers.get("content-type"), text });
    return { status: response.status, body: text && response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text };
  };
  /** A call that must succeed with the status given; returns the parsed body. */
  const ok = async (status: number, token: string | undefined, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) => {
    const answer = await call(token, method, path, options);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body).slice(0, 500)}`).toBe(status);
    return answer.body;
  };
  const signIn = async (username: string, password: string) => {
    const response = await fetch(t.stack.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }),
    });
    const text = await response.text();
    answers.push({ operation: operationOf("POST", t.stack.service.identity.paths.token), status: response.status, contentType: response.headers.get("content-type"), text });
    return JSON.parse(text).access_token as string;
  };

  beforeAll(async () => {
    const served = await fetch(`${t.stack.url}/api/content-partner/swagger-ui/json`);
    document = (await served.json()) as OpenAPIV3_1.Document;
    octo = await createOctoSupplier({ apiKey: OCTO_KEY });
    octoUrl = await octo.listen();
    receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await walkEveryOperation();
  }, 240_000);
  afterAll(async () => {
    receiver?.closeAllConnections();
    await Promise.all([octo?.close(), new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()))]);
  });

  /** One scenario that reaches every operation of the document with real data, and some of their refusals. */
  async function walkEveryOperation() {
    const { stack } = t;
    const word = `atlas${randomUUID().replace(/[^a-f]/g, "").slice(0, 8)}`;
    const engine = uniqueEngineName();
    const partnerAccount = await stack.createAccount("CONTENT_PARTNER", { bookingEngine: engine, country: "CH" });
    expect(await signIn(partnerAccount.username, "not-the-password")).toBeUndefined();
    const partnerToken = await signIn(partnerAccount.username, partnerAccount.password);
    const buyerAccount = await stack.createAccount("CONSUMER", { country: "CH" });
    const buyer = await signIn(buyerAccount.username, buyerAccount.password);
    const platformAccount = await stack.createAccount("PLATFORM_CATALOG_MANAGEMENT");
    const platform = await signIn(platformAccount.username, platformAccount.password);

    // Account and engines.
    await ok(200, buyer, "GET", "/api/me");
    await ok(200, platform, "GET", "/api/organisations");
    await ok(200, buyer, "GET", "/api/booking-engines");
    const octoName = `OCTO_${randomUUID().slice(0, 8).toUpperCase()}`;
    await ok(200, platform, "PUT", `/api/booking-engines/octo/${octoName}`, { body: { baseUrl: octoUrl, apiKey: OCTO_KEY, country: "FR" } });
    await ok(200, platform, "POST", `/api/booking-engines/octo/${octoName}/import`);

    // Suppliers.
    const supplier = await ok(201, partnerToken, "POST", "/api/supplier", { body: supplierRequest() });
    await ok(200, partnerToken, "GET", `/api/supplier/${supplier.id}`);
    await ok(200, partnerToken, "POST", `/api/supplier/${supplier.id}`, { body: supplierRequest({ externalId: supplier.externalId, name: "Zermatt Guides" }) });
    await ok(200, partnerToken, "GET", `/api/suppliers?bookingEngineName=${engine}`);
    const gone = await ok(201, partnerToken, "POST", "/api/supplier", { body: supplierRequest() });
    await ok(200, partnerToken, "DELETE", `/api/supplier/${gone.id}`);
    await call(partnerToken, "GET", `/api/supplier/${gone.id}`);

    // Products: one with every field the contract names.
    const full = productRequest({ ...everyField(), title: { en: `Matterhorn ${word} hike`, de: `Matterhorn ${word} Wanderung` }, availabilityPeriods: everyDay() });
    const product = await ok(201, partnerToken, "POST", `/api/supplier/${supplier.id}/product`, { body: full });
    await ok(200, partnerToken, "GET", `/api/supplier/${supplier.id}/products/`);
    await ok(200, partnerToken, "PUT", `/api/supplier/${supplier.id}/product/${product.id}`, { body: full });
    const other = await ok(201, partnerToken, "POST", `/api/supplier/${supplier.id}/product`, { body: productRequest({ title: { en: `Second ${word} walk` } }) });
    await ok(200, partnerToken, "POST", `/api/supplier/${supplier.id}/product/${other.id}/deprecate`);
    await ok(200, partnerToken, "POST", `/api/supplier/${supplier.id}/product/${other.id}/undeprecate`);
    await ok(200, partnerToken, "PUT", `/api/supplier/${supplier.id}/product/${other.id}/booking-setup`, { body: familySetup() });
    await ok(204, partnerToken, "DELETE", `/api/supplier/${supplier.id}/product/${other.id}/booking-setup`);
    await ok(200, partnerToken, "DELETE", `/api/supplier/${supplier.id}/product/${other.id}`);
    await ok(200, partnerToken, "PUT", `/api/supplier/${supplier.id}/product/${product.id}/booking-setup`, { body: familySetup({ confirmationDelaySeconds: 0 }) });
    await ok(200, partnerToken, "GET", `/api/supplier/${supplier.id}/product/${product.id}/booking-setup`);

    // Catalogue consumption.
    const search = encodeURIComponent(`title:${word} AND bookingEngine:${engine}`);
    await ok(200, buyer, "GET", `/api/consumer/products?Search=${search}&externalClientId=abc123`);
    await ok(200, buyer, "GET", `/api/consumer/diff/products?Search=${encodeURIComponent(`bookingEngine:${engine}`)}&date=${new Date().toISOString().slice(0, 10)}`);
    await ok(200, buyer, "GET", `/api/consumer/diff/products?Search=${search}`);
    await ok(200, buyer, "GET", `/api/consumer/product/${product.id}`, { headers: { "accept-language": "de" } });
    await ok(200, buyer, "GET", "/api/consumer/taxonomy");
    await ok(200, buyer, "POST", "/recommendation/v2/activities", { body: { interests: [word], currencyCode: "USD", bookingEngines: { include: [engine] } } });
    await ok(200, buyer, "GET", `/recommendation/v2/activities?interests=${word}&bookingEnginesInclude=${engine}`);
    await ok(200, buyer, "GET", "/recommendation/v1/top-activities?cityName=Zermatt");
    await ok(200, buyer, "GET", `/content/v0/import/activities/active?bookingEngineList=${engine}`);
    await ok(200, buyer, "GET", `/content/v0/import/activities/inactive?bookingEngineList=${engine}&modifiedSince=${new Date(Date.now() - 3_600_000).toISOString()}`);

    // Webhooks, then a booking whose status changes they announce.
    const endpoint = await ok(201, buyer, "POST", "/api/webhooks/endpoints", { body: { url: receiverUrl, eventTypes: ["booking.status_changed"], description: "answers" } });
    await ok(200, buyer, "GET", "/api/webhooks/endpoints");
    await ok(200, buyer, "PUT", `/api/webhooks/endpoints/${endpoint.endpoint.id}`, { body: { description: "every answer" } });
    await ok(200, buyer, "POST", `/api/webhooks/endpoints/${endpoint.endpoint.id}/secret`);

    const base = `/booking-flow/v1/products/${product.id}/availabilities`;
    const date = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await ok(200, buyer, "GET", `${base}?startDate=${date}`);
    await ok(200, buyer, "GET", `${base}/next`);
    let availability = await ok(200, buyer, "GET", `${base}/${date}/options`);
    for (;;) {
      const next = availability.availabilityOptions.find((option: { selectedOptionId?: string }) => option.selectedOptionId === undefined);
      if (!next) break;
      const value = next.dataType === "BOOLEAN" ? "true" : Object.keys(next.optionChoices)[0];
      availability = await ok(200, buyer, "PUT", `${base}/${availability.id}/options`, { body: { optionId: next.id, value } });
    }
    await ok(200, buyer, "GET", `${base}/${availability.id}/prices?currencyCode=EUR`);
    availability = await ok(200, buyer, "PUT", `${base}/${availability.id}/prices?currencyCode=EUR`, { body: [{ unitId: "adult", value: 2 }, { unitId: "child", value: 1 }] });
    let booking = await ok(201, buyer, "POST", "/booking-flow/v1/bookings", { body: { availabilityId: availability.id, resellerRef: `REF${word}` }, headers: { externalClientId: "traveller42" } });
    await ok(200, buyer, "GET", `/booking-flow/v1/bookings/${booking.id}/questions`);
    while (!booking.isQuestionStepComplete) booking = await ok(200, buyer, "PUT", `/booking-flow/v1/bookings/${booking.id}/questions`, { body: validAnswers(booking) });
    await ok(200, buyer, "POST", `/booking-flow/v1/bookings/${booking.id}/confirm`);
    await stack.service.worker!.runOnce();
    booking = await ok(200, buyer, "GET", `/booking-flow/v1/bookings/${booking.id}`);
    expect(booking.status).toBe("CONFIRMED");
    const voucher = new URL(booking.voucherUrl);
    await ok(200, undefined, "GET", `${voucher.pathname}${voucher.search}`);
    await ok(200, buyer, "GET", "/reporting/v1/bookings");
    await ok(200, buyer, "GET", "/reporting/v1/bookings", { headers: { accept: "text/csv" } });
    await ok(200, buyer, "DELETE", `/booking-flow/v1/bookings/${booking.id}?cancellationReason=${encodeURIComponent("Plans changed")}`);
    await ok(200, buyer, "GET", `/reporting/v1/bookings/${booking.id}`);

    await stack.service.worker!.deliverWebhooks();
    const messages = await ok(200, buyer, "GET", `/api/webhooks/endpoints/${endpoint.endpoint.id}/messages`);
    expect(messages.length).toBeGreaterThan(0);
    await ok(200, buyer, "POST", `/api/webhooks/messages/${messages[0].id}/redeliver`);
    await ok(204, buyer, "DELETE", `/api/webhooks/endpoints/${endpoint.endpoint.id}`);

    // Refusals: every operation without a token, and a few documented errors with one.
    for (const [template, item] of Object.entries(document.paths!)) {
      for (const method of Object.keys(item!) as Method[]) {
        if (template === stack.service.identity.paths.token || template.startsWith("/booking-flow/v1/vouchers/")) continue;
        await call(undefined, method.toUpperCase(), template.replace(/\{[^}]+\}/g, "1"), { body: method === "get" || method === "delete" ? undefined : {} });
      }
    }
    await call(buyer, "GET", "/api/consumer/products?Search=nofield");
    await call(buyer, "GET", `/api/consumer/product/2147483647`);
    await call(buyer, "GET", `/booking-flow/v1/bookings/${randomUUID()}`);
    await call(buyer, "POST", "/booking-flow/v1/bookings", { body: { availabilityId: randomUUID(), resellerRef: "REF1" } });
    await call(buyer, "GET", "/reporting/v1/bookings?status=LOST");
    await call(partnerToken, "GET", "/api/organisations");

    // GraphQL: an answer, a refusal of the operation, and a caller without a token.
    for (const [token, query] of [
      [buyer, "{ me { username } }"],
      [buyer, "{ me { nothing } }"],
      [undefined, "{ me { username } }"],
    ] as const) {
      const response = await fetch(`${stack.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query }),
      });
      graphqlAnswers.push({ operation: `POST /graphql ${query}`, status: response.status, contentType: response.headers.get("content-type"), text: await response.text() });
    }
    const get = await fetch(`${stack.url}/graphql?query=${encodeURIComponent("{ me { username } }")}`, { headers: { authorization: `Bearer ${buyer}` } });
    graphqlAnswers.push({ operation: "GET /graphql", status: get.status, contentType: get.headers.get("content-type"), text: await get.text() });
    expect((await graphql(`${stack.url}/graphql`, buyer, "{ me { username } }")).body.data).toEqual({ me: { username: buyerAccount.username } });
  }

  /** The validators of the document's answers, every object closed. */
  const validators = new Map<string, ValidateFunction>();
  const validatorFor = (operation: string, status: number, mediaType: string): ValidateFunction => {
    const key = `${operation} ${status} ${mediaType}`;
    let validate = validators.get(key);
    if (!validate) {
      const [method, path] = operation.split(" ") as [Method, string];
      const response = document.paths![path]![method]!.responses![String(status)] as OpenAPIV3_1.ResponseObject | undefined;
      if (!response) throw new Error(`${operation} answered ${status}, which the document does not list`);
      const schema = response.content?.[mediaType]?.schema;
      if (!schema) throw new Error(`${operation} ${status} answered ${mediaType}, which the document does not describe`);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      // ajv-formats is CommonJS: its default export is the plugin under NodeNext's typing too.
      (formats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
      ajv.addSchema({ $id: "document", components: closedSchema(document.components) as Schema });
      const resolved = JSON.parse(JSON.stringify(closedSchema(schema)).replaceAll('"#/components/', '"document#/components/'));
      validate = ajv.compile(resolved);
      validators.set(key, validate);
    }
    return validate;
  };

  it("names every operation with a unique camelCase operationId and describes every response", () => {
    const operations = Object.values(document.paths!).flatMap((item) => Object.values(item!) as OpenAPIV3_1.OperationObject[]);
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.filter((id) => !id || !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const undescribed = Object.entries(document.paths!).flatMap(([path, item]) =>
      Object.entries(item!).flatMap(([method, operation]) =>
        Object.entries((operation as OpenAPIV3_1.OperationObject).responses ?? {})
          .filter(([, response]) => !(response as OpenAPIV3_1.ResponseObject).description || (response as OpenAPIV3_1.ResponseObject).description === "Default Response")
          .map(([status]) => `${method} ${path} ${status}`),
      ),
    );
    expect(undescribed).toEqual([]);
  });

  it("reaches every operation of the document with a success", () => {
    const succeeded = new Set(answers.filter((answer) => answer.status < 300).map((answer) => answer.operation));
    const operations = Object.entries(document.paths!).flatMap(([path, item]) => Object.keys(item!).map((method) => `${method} ${path}`));
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((operation) => !succeeded.has(operation))).toEqual([]);
  });

  it("labels every JSON answer application/json, on every path of the document and on /graphql", () => {
    const unlabelled = [...answers, ...graphqlAnswers]
      .filter((answer) => answer.status !== 204 && !answer.contentType?.match(/^(text\/csv|application\/pdf)/))
      .filter((answer) => answer.contentType !== JSON_TYPE)
      .map((answer) => `${answer.operation} ${answer.status}: ${answer.contentType}`);
    expect(unlabelled).toEqual([]);
    for (const answer of graphqlAnswers) expect(() => JSON.parse(answer.text), answer.operation).not.toThrow();
  });

  it("answers only what the document declares: each body validates against its status's schema, no member undeclared", () => {
    const failures: string[] = [];
    for (const answer of answers) {
      if (answer.status === 204) continue;
      const mediaType = answer.contentType!.split(";")[0];
      if (mediaType !== "application/json") continue;
      const validate = validatorFor(answer.operation, answer.status, mediaType);
      if (!validate(JSON.parse(answer.text))) {
        failures.push(`${answer.operation} ${answer.status}: ${JSON.stringify(validate.errors!.slice(0, 8).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`))}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("declares every member a product record can carry: a product with every field answers them all", () => {
    const read = answers.find((answer) => answer.operation === "get /api/consumer/product/{productId}" && answer.status === 200)!;
    const declared = (document.paths!["/api/consumer/product/{productId}"]!.get!.responses!["200"] as OpenAPIV3_1.ResponseObject).content!["application/json"].schema as Schema;
    expect(Object.keys(JSON.parse(read.text)).sort()).toEqual(Object.keys(declared.properties as Schema).sort());
  });

  it("declares free-form values only where the answer is someone's own document, and leaves no object undeclared", () => {
    const freeForm = new Set<string>();
    const undeclared: string[] = [];
    const walked = new Set<unknown>();
    const walk = (schema: unknown, name: string, where: string): void => {
      if (Array.isArray(schema)) return schema.forEach((item) => walk(item, name, where));
      if (!schema || typeof schema !== "object") return;
      const node = schema as Schema;
      if (typeof node.$ref === "string") {
        const component = node.$ref.replace("#/components/schemas/", "");
        if (!walked.has(component)) {
          walked.add(component);
          walk(document.components!.schemas![component], component, where);
        }
        return;
      }
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (node.additionalProperties === true || (types.includes("object") && !node.properties && node.additionalProperties === undefined)) undeclared.push(`${where} ${name}`);
      const extra = node.additionalProperties;
      if (extra && typeof extra === "object" && Object.keys(extra).length === 0) freeForm.add(name);
      for (const [property, value] of Object.entries((node.properties ?? {}) as Schema)) walk(value, property, where);
      for (const keyword of ["items", "oneOf", "anyOf", "allOf"]) if (node[keyword]) walk(node[keyword], name, where);
    };
    for (const [path, item] of Object.entries(document.paths!)) {
      for (const [method, operation] of Object.entries(item!) as [Method, OpenAPIV3_1.OperationObject][]) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (status.startsWith("2")) walk((response as OpenAPIV3_1.ResponseObject).content?.["application/json"]?.schema, operation.operationId!, `${method} ${path} ${status}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
    expect([...freeForm].sort()).toEqual([...FREE_FORM].sort());
  });
});

/** The product fields productRequest leaves out, so that the product carries every field of spec 1. */
function everyField() {
  return {
    channel: "api",
    internalName: "Glacier hike (internal)",
    reference: "REF-GLACIER",
    instantDelivery: true,
    subtitle: { en: "Gorner glacier" },
    shortDescription: { en: "Onto the glacier" },
    averagePrice: 150,
    address: "Bahnhofstrasse 1, 3920 Zermatt",
    placeId: "ChIJ-zermatt",
    website: "https://guides.example/matterhorn",
    cancellationCutOff: { en: "24 hours before" },
    modalitiesIncluded: { en: "Guide/nCrampons" },
    modalitiesExcluded: { en: "Lunch" },
    modalitiesAdditionalInfo: { en: "Bring sunglasses" },
    estCommNet: 20,
    estCommFrpricePerc: 0.15,
    geoLocation: { latitude: 45.9763, longitude: 7.6586, geoHash: "u0m6w" },
  };
}

import { toGlobalId } from "../../core/global-id.js";
import { getNamedType, isObjectType, parse, type GraphQLField, type GraphQLSchema } from "graphql";
import { estimateOperation, expensiveCriteria, ROOT_FIELD_COSTS, SEARCH_CRITERION_COSTS, SEARCH_EXPRESSION_ARGUMENTS } from "../../gateway/operation-limits.js";
import { demoAccounts } from "../../seed/demo.js";
import type { Service } from "../../server/service.js";
import { everyDay, familySetup, validAnswers } from "../../test/support/booking.js";
import { productRequest, supplierRequest } from "../../test/support/catalogue.js";
import { addDays, call, FlowTarget, holdBooking, sleep, type Account } from "../booking/flow-client.js";
import { createBenchAccount } from "../bench-accounts.js";
import { fitCostModel, type Fit, type Observation } from "./fit.js";
import { cloneSelection, minimalSelectionOf, removePath, render, selectionOf, type Selection } from "./selections.js";
import { HEAVY_SEARCH, HEAVY_SEARCH_LABEL } from "../heavy-search.js";
import { parseBookingSetup } from "../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import { typedSetupOf } from "../../subgraphs/booking/booking-setup/booking-setup.document.js";

/**
 * The cost model's calibration: representative operations of every root field, each timed warm
 * (the median of several sequential runs through the gateway over HTTP), fitted to
 * ms = request + base(field) × occurrences + k × points (bench/cost/fit.ts).
 */
export interface CostOptions {
  service: Service;
  /** Timed runs per operation, after `warmUp` untimed ones. */
  repetitions: number;
  warmUp: number;
  log: (line: string) => void;
}

export interface Measured {
  field: string;
  label: string;
  aliases: number;
  /** The estimate's selected values (requested: page sizes and assumed list sizes). */
  points: number;
  /** The values the answer holds (actual), counted as the estimate counts them: what the fit uses. */
  values: number;
  fullText: number;
  fuzzy: number;
  medianMs: number;
}

export interface CostRun {
  measured: Measured[];
  /** The issue's heavy operation, measured apart from the fit and predicted by it. */
  check: { label: string; estimate: number; values: number; medianMs: number; predictedMs: number; fullText: number; fuzzy: number };
  /** Root fields not measured, with why (and, where assigned by analogy, the field they resemble). */
  unmeasured: { field: string; why: string }[];
  fit: Fit;
  products: number;
}

type Role = "consumer" | "partner" | "platform";

/** One root field's operation: arguments, whom to run it as, and for mutations a fresh set of variables per run. */
interface FieldCase {
  field: string;
  role: Role;
  /** Arguments in GraphQL syntax, `$name` for variables. */
  args?: string;
  variableTypes?: string;
  variables?: (run: number) => Record<string, unknown>;
  /** Page sizes to measure at: the argument's name and values. */
  pages?: { argument: string; sizes: number[] };
  /** Aliased occurrences to measure besides one (state changes: only where repeating one is harmless). */
  aliases?: number;
  label?: string;
}

const PASSWORD = "benchmark cost calibration 1";
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Mutations not run by the bench, and the measured field whose cost each takes. */
export const BY_ANALOGY: Record<string, { like: string; why: string }> = {
  "Mutation.createBooking": { like: "Mutation.answerBookingQuestions", why: "each run needs a freshly priced availability" },
  "Mutation.confirmBooking": { like: "Mutation.answerBookingQuestions", why: "once per booking, and it starts the supplier's confirmation" },
  "Mutation.cancelBooking": { like: "Mutation.answerBookingQuestions", why: "once per booking" },
  "Mutation.setAvailabilityOption": { like: "Mutation.setAvailabilityQuantities", why: "each option is set once per availability" },
  "Mutation.createProduct": { like: "Mutation.updateProduct", why: "the same validation and writes, once per externalId" },
  "Mutation.deleteProduct": { like: "Mutation.updateProduct", why: "once per product" },
  "Mutation.deprecateProduct": { like: "Mutation.updateProduct", why: "a state change that runs once" },
  "Mutation.undeprecateProduct": { like: "Mutation.updateProduct", why: "a state change that runs once" },
  "Mutation.deleteSupplier": { like: "Mutation.updateSupplier", why: "once per supplier" },
  "Mutation.createWebhookEndpoint": { like: "Mutation.updateWebhookEndpoint", why: "at most 10 endpoints per organisation" },
  "Mutation.deleteWebhookEndpoint": { like: "Mutation.updateWebhookEndpoint", why: "once per endpoint" },
  "Mutation.redeliverWebhookMessage": { like: "Mutation.updateWebhookEndpoint", why: "needs a delivered message; schedules a delivery" },
  "Mutation.removeProductBookingSetup": { like: "Mutation.setProductBookingSetup", why: "once per setup" },
  "Mutation.registerOctoEngine": { like: "Mutation.updateSupplier", why: "calls a supplier system; its weight is SUPPLIER_CALLING_MUTATIONS'" },
  "Mutation.importOctoEngine": { like: "Mutation.updateSupplier", why: "calls a supplier system; its weight is SUPPLIER_CALLING_MUTATIONS'" },
  "Query.bookingReport": { like: "Query.booking", why: "measured when the bench's consumer has a report to read (its held booking may have none yet)" },
  "Query.topActivities": { like: "Query.recommendations", why: "answers 200 with an error for every airport and city tried on the demo catalogue" },
  "Query.bookingVoucher": { like: "Query.booking", why: "needs a signed link of a confirmed booking; renders a PDF (measured in bench:paths)" },
  "Subscription.bookingStatusChanged": { like: "Query.booking", why: "resolved as the booking query at subscribe time and per event" },
  "Subscription.bookingEngineRegistered": { like: "Query.bookingEngine", why: "resolved as the engine query per event" },
};

export async function runCostCalibration(options: CostOptions): Promise<CostRun> {
  const { service, log } = options;
  const base = service.url!;
  const schema: GraphQLSchema = service.edge!.graph.apiSchema;
  const tokenPath = service.identity.paths.token;
  const target = new FlowTarget(base, tokenPath, PASSWORD);

  // The demo's own partner and platform accounts (their sandbox passwords): the demo catalogue is theirs.
  const demo = (role: string) => demoAccounts.find((account) => account.role === role)!;
  const accounts: Record<Role, Account & { password: string; signedInAt: number }> = {
    consumer: { username: await createBenchAccount(service, "CONSUMER", { prefix: "bench-cost", password: PASSWORD, consumerCountry: "FR" }), token: "", password: PASSWORD, signedInAt: 0 },
    partner: { username: demo("CONTENT_PARTNER").username, token: "", password: demo("CONTENT_PARTNER").sandboxPassword, signedInAt: 0 },
    platform: { username: demo("PLATFORM_CATALOG_MANAGEMENT").username, token: "", password: demo("PLATFORM_CATALOG_MANAGEMENT").sandboxPassword, signedInAt: 0 },
  };
  // Tokens live 300 s: a fresh one whenever the last is two minutes old.
  const tokenOf = async (role: Role) => {
    const account = accounts[role];
    if (Date.now() - account.signedInAt > 120_000) {
      const response = await fetch(`${base}${tokenPath}`, {
        method: "POST",
        body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: account.username, password: account.password }),
      });
      if (response.status !== 200) throw new Error(`sign-in of ${account.username}: ${response.status} ${await response.text()}`);
      account.token = ((await response.json()) as { access_token: string }).access_token;
      account.signedInAt = Date.now();
    }
    return account.token;
  };
  const post = async (role: Role, query: string, variables: Record<string, unknown> = {}) => {
    const token = await tokenOf(role);
    const started = performance.now();
    const response = await fetch(`${base}/graphql`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
    const text = await response.text();
    const ms = performance.now() - started;
    return { ms, status: response.status, body: JSON.parse(text) as { data?: any; errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[] } };
  };
  const must = async (role: Role, query: string, variables: Record<string, unknown> = {}) => {
    const answer = await post(role, query, variables);
    if (answer.body.errors) throw new Error(`${query}: ${JSON.stringify(answer.body.errors).slice(0, 500)}`);
    return answer.body.data;
  };

  // Fixtures: a bookable product of the demo partner, a booking of the bench's consumer on it, a webhook endpoint.
  await tokenOf("partner");
  await tokenOf("consumer");
  const today = new Date().toISOString().slice(0, 10);
  const partner = accounts.partner;
  const supplier = await call(target, partner, "", "POST", "/api/supplier", supplierRequest(), 201);
  const product = await call(target, partner, "", "POST", `/api/supplier/${supplier.id}/product`, productRequest({ availabilityPeriods: everyDay(today, addDays(today, 730)) }), 201);
  await call(target, partner, "", "PUT", `/api/supplier/${supplier.id}/product/${product.id}/booking-setup`, familySetup({ capacityPerSlot: 100_000, confirmationDelaySeconds: 0 }));
  target.productId = product.id;
  const booking = await holdBooking(target, accounts.consumer, 1);
  const answers = validAnswers(booking).map(({ id, value }) => ({ questionId: id, value }));
  const me = await must("consumer", "{ me { organisation { id } } }");
  const engines = await must("platform", "{ bookingEngines { id name } }");
  const engine = engines.bookingEngines.find((e: { name: string }) => e.name === "INVENTORY") ?? engines.bookingEngines[0];
  const demoSupplier = (await must("partner", `{ suppliers(bookingEngineName: "${engine.name}", first: 50) { nodes { id legacyResourceId } } }`)).suppliers.nodes.at(-1);
  const demoProduct = (await must("consumer", `{ searchProducts(query: "countryCode:FR", first: 1) { nodes { id } } }`)).searchProducts.nodes[0];
  const products = (await must("consumer", `{ searchProducts(query: "rating:>0", first: 1) { totalCount { count } } }`)).searchProducts.totalCount.count as number;
  const endpoint = (await must("consumer", `mutation { createWebhookEndpoint(input: { url: "https://receiver.example/hooks", eventTypes: [BOOKING_STATUS_CHANGED] }) { webhookEndpoint { id } } }`).catch((error) => {
    log(`no webhook endpoint: ${(error as Error).message}`);
    return undefined;
  }))?.createWebhookEndpoint.webhookEndpoint;
  const availability = await optionedAvailability(target, accounts.consumer, addDays(today, 5));
  const report = (await must("consumer", "{ bookingReports(first: 1) { nodes { id } } }")).bookingReports.nodes[0];

  const pages = (argument: string, sizes = [1, 20, 100]) => ({ argument, sizes });
  const searches = [
    { label: "structured", search: "countryCode:FR" },
    { label: "1 full-text", search: "title:tour" },
    { label: "3 full-text", search: "text:museum AND title:tour AND description:guided" },
    { label: "1 typo-tolerant", search: "title:~tour" },
    { label: "3 typo-tolerant", search: "text:~museum AND title:~tour AND cityName:~paris" },
  ];
  const { country, supplierContact, ...supplierFields } = supplierRequest({ externalId: supplier.externalId });
  const supplierInput = { ...supplierFields, countryCode: country, contact: supplierContact, supplierId: toGlobalId("Supplier", supplier.id) };
  const { availabilityPeriods: _periods, ...productInput } = productRequest({ externalId: product.externalId });
  const cases: FieldCase[] = [
    { field: "Query.me", role: "consumer", aliases: 3 },
    { field: "Query.organisation", role: "consumer", args: `id: "${me.me.organisation.id}"`, aliases: 3 },
    { field: "Query.organisations", role: "platform", pages: pages("first", [1, 20, 100]), aliases: 3 },
    { field: "Query.bookingEngine", role: "platform", args: `id: "${engine.id}"`, aliases: 3 },
    { field: "Query.bookingEngines", role: "platform", aliases: 3 },
    { field: "Query.taxonomy", role: "consumer", aliases: 3 },
    { field: "Query.product", role: "consumer", args: `id: "${demoProduct.id}"`, aliases: 3 },
    { field: "Query.supplier", role: "partner", args: `id: "${demoSupplier.id}"`, aliases: 3 },
    { field: "Query.suppliers", role: "partner", args: `bookingEngineName: "${engine.name}"`, pages: pages("first"), aliases: 3 },
    { field: "Query.productBookingSetup", role: "partner", args: `productId: "${toGlobalId("Product", product.id)}", supplierId: "${toGlobalId("Supplier", supplier.id)}"`, aliases: 3 },
    ...searches.map((s) => ({ field: "Query.searchProducts", role: "consumer" as const, label: s.label, args: `query: ${JSON.stringify(s.search)}`, pages: pages("first"), aliases: 3 })),
    { field: "Query.productChanges", role: "consumer", args: `since: "${addDays(today, -1)}", query: "countryCode:FR"`, pages: pages("first"), aliases: 3 },
    { field: "Query.activeActivities", role: "consumer", pages: pages("first"), aliases: 3 },
    { field: "Query.inactiveActivities", role: "consumer", args: `filter: { modifiedSince: "${addDays(today, -29)}T00:00:00.000Z" }`, pages: pages("first"), aliases: 3 },
    { field: "Query.recommendations", role: "consumer", args: `input: { interests: ["museum"] }`, pages: pages("first", [1, 10, 50]), aliases: 3 },
    { field: "Query.topActivities", role: "consumer", args: `iataCode: "CDG"`, pages: pages("first", [1, 5, 10]), aliases: 3 },
    { field: "Query.availableDates", role: "consumer", args: `productId: "${toGlobalId("Product", product.id)}", startDate: "${addDays(today, 1)}", endDate: "${addDays(today, 30)}"`, aliases: 3 },
    { field: "Query.nextAvailableDates", role: "consumer", args: `productId: "${toGlobalId("Product", product.id)}"`, aliases: 3 },
    { field: "Query.booking", role: "consumer", args: `id: "${toGlobalId("Booking", booking.id)}"`, aliases: 3 },
    ...(report ? [{ field: "Query.bookingReport", role: "consumer" as const, args: `id: "${report.id}"`, aliases: 3 }] : []),
    { field: "Query.bookingReports", role: "consumer", pages: pages("first", [1, 20, 100, 1000]), aliases: 3 },
    { field: "Query.reportingAccess", role: "consumer", aliases: 3 },
    { field: "Query.webhookEndpoints", role: "consumer", aliases: 3 },
    // State changes that give the same outcome when repeated, or a new row each time at no risk.
    { field: "Mutation.createAvailability", role: "consumer", args: `input: { productId: "${toGlobalId("Product", product.id)}", date: $date }`, variableTypes: "$date: Date!", variables: (run) => ({ date: addDays(today, 10 + (run % 600)) }), aliases: 1 },
    { field: "Mutation.priceAvailability", role: "consumer", args: `input: { availabilityId: "${toGlobalId("Availability", availability.id)}", currencyCode: "EUR" }` },
    { field: "Mutation.setAvailabilityQuantities", role: "consumer", args: `input: { availabilityId: "${toGlobalId("Availability", availability.id)}", currencyCode: "EUR", quantities: [{ unitId: "adult", quantity: 2 }] }` },
    { field: "Mutation.answerBookingQuestions", role: "consumer", args: `input: { bookingId: "${toGlobalId("Booking", booking.id)}", answers: $answers }`, variableTypes: "$answers: [AnswerInput!]!", variables: () => ({ answers }) },
    { field: "Mutation.createSupplier", role: "partner", args: "input: $input", variableTypes: "$input: CreateSupplierInput!", variables: () => ({ input: { ...supplierFields, countryCode: country, contact: supplierContact, externalId: supplierRequest().externalId } }) },
    { field: "Mutation.updateSupplier", role: "partner", args: "input: $input", variableTypes: "$input: UpdateSupplierInput!", variables: () => ({ input: supplierInput }) },
    { field: "Mutation.updateProduct", role: "partner", args: "input: $input", variableTypes: "$input: UpdateProductInput!", variables: () => ({ input: { ...productInput, productId: toGlobalId("Product", product.id) } }) },
    {
      field: "Mutation.setProductBookingSetup",
      role: "partner",
      args: "input: $input",
      variableTypes: "$input: SetProductBookingSetupInput!",
      variables: () => ({ input: { productId: toGlobalId("Product", product.id), setup: typedSetupOf(parseBookingSetup(familySetup({ capacityPerSlot: 100_000, confirmationDelaySeconds: 0 })).setup!) } }),
    },
    ...(endpoint
      ? [
          { field: "Mutation.updateWebhookEndpoint", role: "consumer" as const, args: `input: { webhookEndpointId: "${endpoint.id}", description: "bench" }` },
          { field: "Mutation.rotateWebhookEndpointSecret", role: "consumer" as const, args: `input: { webhookEndpointId: "${endpoint.id}" }` },
        ]
      : []),
  ];

  const measured: Measured[] = [];
  const unmeasured: CostRun["unmeasured"] = [];
  const rootFieldOf = (key: string): GraphQLField<unknown, unknown> | undefined => {
    const [typeName, fieldName] = key.split(".");
    const type = schema.getType(typeName);
    return isObjectType(type) ? type.getFields()[fieldName] : undefined;
  };

  for (const c of cases) {
    const field = rootFieldOf(c.field);
    if (!field) {
      unmeasured.push({ field: c.field, why: "not in the schema" });
      continue;
    }
    const operation = c.field.startsWith("Mutation.") ? "mutation" : "query";
    const named = getNamedType(field.type);
    const shapes: { label: string; selection: Selection | null }[] = [
      { label: "minimal", selection: minimalSelectionOf(named) },
      { label: "leaves", selection: selectionOf(named, 1) },
      { label: "two levels", selection: selectionOf(named, 2) },
      { label: "three levels", selection: selectionOf(named, 3) },
    ];
    const sizes = c.pages?.sizes ?? [undefined];
    const mutation = operation === "mutation";
    // State changes: the two smallest shapes only, one occurrence (unless repeating one is harmless).
    const combos = shapes.flatMap((shape, s) => (mutation && s > 1 ? [] : sizes.map((size) => ({ shape, size }))));
    let failure: string | undefined;
    for (const { shape, size } of combos) {
      for (const aliases of [1, ...(c.aliases && c.aliases > 1 && size === sizes[Math.floor(sizes.length / 2)] && shape.label !== "three levels" ? [c.aliases] : [])]) {
        const selection = cloneSelection(shape.selection);
        const argList = [c.args, c.pages && size !== undefined ? `${c.pages.argument}: ${size}` : undefined].filter(Boolean).join(", ");
        const text = () => {
          const one = `${c.field.split(".")[1]}${argList ? `(${argList})` : ""} ${render(selection)}`;
          const body = Array.from({ length: aliases }, (_, i) => `a${i}: ${one}`).join(" ");
          return `${operation}${c.variableTypes ? ` (${c.variableTypes})` : ""} { ${body} }`;
        };
        // Fields the role may not read, or that fail here, are dropped from the selection (at most 20 rounds).
        let run = 0;
        let answer = await post(c.role, text(), c.variables?.(run++) ?? {});
        for (let round = 0; answer.body.errors && round < 20; round++) {
          const removable = answer.body.errors.filter((error) => error.path && error.path.length > 1 && selection && removePath(selection, error.path.slice(1)));
          if (!removable.length) break;
          answer = await post(c.role, text(), c.variables?.(run++) ?? {});
        }
        if (answer.body.errors || answer.status !== 200) {
          failure = `${answer.status} ${answer.body.errors?.[0]?.message ?? ""}`.slice(0, 200);
          log(`  ${c.field} ${shape.label}${size !== undefined ? ` page ${size}` : ""}: ${failure}`);
          continue;
        }
        const query = text();
        const variables = c.variables?.(run) ?? {};
        const { values } = estimateOperation(schema, parse(query), variables, undefined);
        const searchArgument = SEARCH_EXPRESSION_ARGUMENTS[c.field];
        const criteria = searchArgument ? expensiveCriteria(/search: ("(?:[^"\\]|\\.)*")/.exec(argList)?.[1] ? JSON.parse(/search: ("(?:[^"\\]|\\.)*")/.exec(argList)![1]) : undefined) : { fullText: 0, fuzzy: 0 };
        for (let i = 0; i < options.warmUp; i++) await post(c.role, query, c.variables?.(run++) ?? {});
        const times: number[] = [];
        for (let i = 0; i < options.repetitions; i++) {
          const timed = await post(c.role, query, c.variables?.(run++) ?? {});
          if (timed.body.errors) throw new Error(`${c.field}: a timed run failed: ${JSON.stringify(timed.body.errors).slice(0, 300)}`);
          times.push(timed.ms);
        }
        const label = `${c.label ? `${c.label}, ` : ""}${shape.label}${size !== undefined ? `, ${c.pages!.argument} ${size}` : ""}`;
        const entry = { field: c.field, label, aliases, points: values, values: answeredValues(answer.body.data), fullText: criteria.fullText * aliases, fuzzy: criteria.fuzzy * aliases, medianMs: median(times) };
        measured.push(entry);
        log(`  ${c.field} (${label}) ×${aliases}: ${entry.values} values (estimate ${values}), ${entry.medianMs.toFixed(2)} ms`);
      }
    }
    if (!measured.some((m) => m.field === c.field)) unmeasured.push({ field: c.field, why: `every operation failed: ${failure}` });
  }

  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => t !== null && t !== undefined);
  for (const type of roots) {
    for (const name of Object.keys(type.getFields())) {
      const key = `${type.name}.${name}`;
      if (measured.some((m) => m.field === key) || unmeasured.some((u) => u.field === key)) continue;
      const analogy = BY_ANALOGY[key];
      unmeasured.push({ field: key, why: analogy ? `${analogy.why}: as ${analogy.like}` : "no representative operation in bench:cost" });
    }
  }

  // The operation issue 41 measured: 30 aliases of a search with three typo-tolerant criteria. Not fitted: predicted.
  const heavy = HEAVY_SEARCH;
  const heavyAnswer = await post("consumer", heavy);
  if (heavyAnswer.body.errors) throw new Error(`the heavy operation failed: ${JSON.stringify(heavyAnswer.body.errors).slice(0, 300)}`);
  for (let i = 0; i < options.warmUp; i++) await post("consumer", heavy);
  const heavyTimes: number[] = [];
  for (let i = 0; i < Math.max(5, Math.ceil(options.repetitions / 3)); i++) heavyTimes.push((await post("consumer", heavy)).ms);

  const observations: Observation[] = measured.map((m) => ({ occurrences: { [m.field]: m.aliases }, points: m.values, fullText: m.fullText, fuzzy: m.fuzzy, ms: m.medianMs }));
  const fit = fitCostModel(observations);
  const heavyValues = answeredValues(heavyAnswer.body.data);
  const check = {
    label: HEAVY_SEARCH_LABEL,
    estimate: estimateOperation(schema, parse(heavy), {}, undefined).values,
    values: heavyValues,
    medianMs: median(heavyTimes),
    predictedMs: fit.requestMs + 30 * (fit.baseMs["Query.searchProducts"] ?? 0) + fit.msPerPoint * heavyValues + 90 * fit.fuzzyMs,
    fullText: 0,
    fuzzy: 90,
  };
  log(`  the heavy operation: ${heavyValues} values, ${check.medianMs.toFixed(1)} ms, predicted ${check.predictedMs.toFixed(1)} ms`);
  // Quiet the fixtures: nothing else to clean up, the database is the bench's own.
  await sleep(0);
  return { measured, unmeasured, fit, products, check };
}

/**
 * The values an answer holds, counted as the estimator counts a selection: 1 for each field, and
 * a list's items each counted; a JSON record's keys count as the typed fields they stand for.
 */
export function answeredValues(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + answeredValues(item), 0);
  if (value === null || typeof value !== "object") return 0;
  return Object.values(value).reduce((sum: number, item) => sum + 1 + answeredValues(item), 0);
}

/** An availability of the product on `date` with every option set (its prices and quantities can then be set again and again). */
async function optionedAvailability(target: FlowTarget, account: Account, date: string) {
  const path = `/booking-flow/v1/products/${target.productId}/availabilities`;
  let availability = await call(target, account, "options", "GET", `${path}/${date}/options`);
  for (;;) {
    const next = availability.availabilityOptions.find((o: { selectedOptionId?: string }) => o.selectedOptionId === undefined);
    if (!next) return availability as { id: string };
    const value = next.dataType === "BOOLEAN" ? "true" : next.label === "Start time" ? "09:00" : Object.keys(next.optionChoices)[0];
    availability = await call(target, account, "set option", "PUT", `${path}/${availability.id}/options`, { optionId: next.id, value });
  }
}

/** Points for a duration at the fitted ms per point, rounded; at least 1 for a positive base. */
export const toPoints = (ms: number, fit: Fit) => (ms <= 0 ? 0 : Math.max(1, Math.round(ms / fit.msPerPoint)));

/**
 * Fitted costs below this are within a run's noise (a field or criterion that costs less than the
 * average request, by the fit): they are set to it, so no root field occurrence is free.
 */
export const FLOOR_MS = 1;

/** What ROOT_FIELD_COSTS and SEARCH_CRITERION_COSTS should hold after this run: measured fields from the fit, the rest by analogy. */
export function suggestedCosts(run: CostRun): { roots: Record<string, number>; criteria: { fullText: number; fuzzy: number } } {
  const { fit } = run;
  const floored = (ms: number) => toPoints(Math.max(FLOOR_MS, ms), fit);
  const roots: Record<string, number> = {};
  for (const [field, ms] of Object.entries(fit.baseMs)) roots[field] = floored(ms);
  for (const { field } of run.unmeasured) {
    const like = BY_ANALOGY[field]?.like;
    roots[field] = like && roots[like] !== undefined ? roots[like] : floored(0);
  }
  const fullText = floored(fit.fullTextMs);
  // A typo-tolerant criterion does a full-text match and a trigram comparison: never less than a full-text one.
  const fuzzy = Math.max(floored(fit.fuzzyMs), fullText);
  return { roots: Object.fromEntries(Object.entries(roots).sort(([a], [b]) => a.localeCompare(b))), criteria: { fullText, fuzzy } };
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

/** The run's full report: the fitted numbers, each operation with its residual, and what was not measured. */
export function renderCostRun(run: CostRun, meta: { date: string; machine: string; commit: string; database: string; command: string; repetitions: number; warmUp: number }): string {
  const { fit } = run;
  const lines = [
    `## Cost model calibration (${meta.database}), ${meta.date}`,
    "",
    `\`${meta.command}\` on ${meta.machine}, commit ${meta.commit}; ${meta.database}, demo catalogue (${run.products.toLocaleString("en")} products visible to a consumer). Each operation is posted to /graphql over HTTP by a client in the service's process, one at a time: ${meta.warmUp} untimed runs, then the median of ${meta.repetitions}. Fitted by least squares: ms = request + base(field) × occurrences + k × values + c × expensive Search criteria, where values are those the answer holds, counted in the estimate's unit (1 per field, list items each): the estimate itself counts full pages and assumed list sizes, an upper bound that on the demo catalogue is often far above the answer, so fitting to it would understate k by a different factor for every field. Both are listed per operation.`,
    "",
    `- k = **${fixed(fit.msPerPoint, 5)} ms per point** (1 point = one selected value); R² = ${fixed(fit.rSquared, 3)} over ${run.measured.length} operations`,
    `- any request: ${fixed(fit.requestMs)} ms (${toPoints(fit.requestMs, fit)} points), charged once per operation, not per field`,
    `- each full-text Search criterion: ${fixed(fit.fullTextMs)} ms (${toPoints(fit.fullTextMs, fit)} points); each typo-tolerant (\`~\`) one: ${fixed(fit.fuzzyMs)} ms (${toPoints(fit.fuzzyMs, fit)} points)`,
    "",
    `- below ${FLOOR_MS} ms (noise: less than the average request) a cost is set to ${FLOOR_MS} ms = ${toPoints(FLOOR_MS, fit)} points`,
    "",
    "| root field | base ms | base points | set to (points) | in ROOT_FIELD_COSTS at this commit | operations | largest residual ms |",
    "|---|---|---|---|---|---|---|",
  ];
  const suggested = suggestedCosts(run);
  const fields = Object.keys(fit.baseMs).sort();
  for (const field of fields) {
    const indexes = run.measured.map((m, i) => (m.field === field ? i : -1)).filter((i) => i >= 0);
    const worst = indexes.reduce((w, i) => (Math.abs(fit.residuals[i]) > Math.abs(w) ? fit.residuals[i] : w), 0);
    lines.push(`| ${field} | ${fixed(fit.baseMs[field])} | ${toPoints(fit.baseMs[field], fit)} | ${suggested.roots[field]} | ${ROOT_FIELD_COSTS[field] ?? "–"} | ${indexes.length} | ${fixed(worst)} |`);
  }
  const { check } = run;
  const charged = (suggested.roots["Query.searchProducts"] ?? 0) * 30 + check.fuzzy * suggested.criteria.fuzzy + check.estimate;
  lines.push(
    "",
    `Check, not fitted: the issue's heavy operation, ${check.label}: ${check.values.toLocaleString("en")} values answered, median ${fixed(check.medianMs, 1)} ms; the fit predicts ${fixed(check.predictedMs, 1)} ms. Its estimate with the costs below: ${charged.toLocaleString("en")} points (${check.estimate.toLocaleString("en")} of them for the selection), ${fixed(charged * fit.msPerPoint, 1)} ms at k.`,
  );
  lines.push("", "Not measured (their cost is assigned by analogy):", "");
  for (const u of run.unmeasured) lines.push(`- ${u.field}: ${u.why} (${suggested.roots[u.field]} points; ${ROOT_FIELD_COSTS[u.field] ?? "–"} at this commit)`);
  lines.push(
    "",
    `Search criteria: full-text ${suggested.criteria.fullText} points, typo-tolerant ${suggested.criteria.fuzzy} points (SEARCH_CRITERION_COSTS at this commit: ${SEARCH_CRITERION_COSTS.fullText} and ${SEARCH_CRITERION_COSTS.fuzzy}).`,
    "",
    "As gateway/operation-limits.ts holds them:",
    "",
    "```ts",
    ...Object.entries(suggested.roots).map(([field, points]) => `  "${field}": ${points},`),
    `export const SEARCH_CRITERION_COSTS = { fullText: ${suggested.criteria.fullText}, fuzzy: ${suggested.criteria.fuzzy} };`,
    "```",
  );
  lines.push("", "### Operations", "", "| root field | operation | aliases | values answered | estimate (points) | median ms | predicted ms | residual ms |", "|---|---|---|---|---|---|---|---|");
  run.measured.forEach((m, i) => lines.push(`| ${m.field} | ${m.label} | ${m.aliases} | ${m.values} | ${m.points} | ${fixed(m.medianMs)} | ${fixed(fit.predicted[i])} | ${fixed(fit.residuals[i])} |`));
  return `${lines.join("\n")}\n`;
}

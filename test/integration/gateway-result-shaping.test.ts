import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "graphql";
import { fastShapingCounts, installedShaping } from "../../gateway/result-shaping.js";
import { contentPartner, supplierInput } from "../support/catalogue.js";
import { graphql, useStack } from "../support/stack.js";

const require = createRequire(import.meta.url);
const internals = require("@apollo/federation-internals") as {
  buildSchema(sdl: string): unknown;
  operationFromDocument(schema: unknown, document: unknown, options?: { validate?: boolean }): unknown;
};

/**
 * The gateway's answers are shaped by a walk planned once per operation (gateway/result-shaping.ts)
 * in place of @apollo/gateway's own. Whatever the subgraphs answered, both must give the same data
 * and the same errors: the plan must never let through what the gateway's walk would refuse.
 */
const SDL = `
  scalar JSON
  enum Status { ON_HOLD CONFIRMED CANCELLED }
  interface Node { id: ID! }
  type Item { sku: String! qty: Int! price: Float }
  type Person { name: String! age: Int }
  type Company { name: String! vat: ID }
  union Owner = Person | Company
  type Booking implements Node {
    id: ID!
    status: Status!
    total: Float
    count: Int
    flag: Boolean
    tags: [String!]!
    meta: JSON
    items: [Item]
    owner: Owner
    related: [Node!]
  }
  type Query {
    booking(id: ID!): Booking
    node(id: ID!): Node
    bookings: [Booking!]!
    version: String
  }
`;

const OPERATIONS = [
  `query { version booking(id: "1") { id status total count flag tags meta } }`,
  `query ($withItems: Boolean!, $skipTotal: Boolean = false) {
     booking(id: "1") { id total @skip(if: $skipTotal) items @include(if: $withItems) { sku qty price } }
   }`,
  `query { b: booking(id: "1") { key: id state: status __typename kind: __typename } other: booking(id: "2") { id } }`,
  `query { booking(id: "1") { id id status owner { __typename ... on Person { name age } ... on Company { name vat } } } }`,
  `query { node(id: "1") { id __typename ... on Booking { status related { id ... on Booking { tags } } } } }`,
  `query { bookings { ...Parts owner { ...Who } } }
   fragment Parts on Booking { id status items { sku } items { qty } }
   fragment Who on Owner { ... on Person { name } ... on Company { vat } }`,
  `query { booking(id: "1") { ... on Node { __typename id } owner { ... on Owner { __typename } } } }`,
  `query ($on: Boolean!) { booking(id: "1") { ... @include(if: $on) { id status } ... @skip(if: true) { total } count } }`,
];

/** A seeded generator: the same cases on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Answers in the operation's response shape: mostly valid, sometimes wrong in the ways a subgraph can be. */
function answerFor(rand: () => number, document: ReturnType<typeof parse>): Record<string, unknown> {
  const fragments = new Map<string, any>();
  for (const definition of document.definitions) if (definition.kind === "FragmentDefinition") fragments.set(definition.name.value, definition);
  const operation = document.definitions.find((d) => d.kind === "OperationDefinition") as any;
  const pick = <T,>(values: T[]) => values[Math.floor(rand() * values.length)];
  const leafFor: Record<string, () => unknown> = {
    id: () => pick(["1", 2, "b-3", 1.5, true, 1e21]),
    status: () => pick(["ON_HOLD", "CONFIRMED", "CONFIRMED", "UNKNOWN", 3]),
    total: () => pick([12.5, 3, "12.5", Infinity, null]),
    count: () => pick([1, 2, 2.5, "2", 2 ** 40]),
    flag: () => pick([true, false, "true", 0]),
    meta: () => pick([{ any: ["thing"] }, 7, "x", null]),
    sku: () => pick(["A1", "B2", 5]),
    qty: () => pick([1, 4, null, "4"]),
    price: () => pick([1.25, null, "1"]),
    name: () => pick(["Ada", "Acme", null, 1]),
    age: () => pick([30, null, 30.5]),
    vat: () => pick(["CH-1", 12, null]),
    version: () => pick(["1.0", null]),
  };
  const typenames = ["Booking", "Person", "Company", "Nope", "Node", "", undefined, 5];
  const fill = (selections: readonly any[], into: Record<string, unknown>, depth: number) => {
    for (const selection of selections) {
      if (selection.kind === "InlineFragment") fill(selection.selectionSet.selections, into, depth);
      else if (selection.kind === "FragmentSpread") fill(fragments.get(selection.name.value).selectionSet.selections, into, depth);
      else {
        const name = selection.name.value as string;
        const key = selection.alias?.value ?? name;
        if (rand() < 0.04) continue; // missing altogether
        if (name === "__typename") {
          into[key] = pick(typenames);
          continue;
        }
        if (!selection.selectionSet) {
          into[key] = rand() < 0.05 ? null : (leafFor[name]?.() ?? "text");
          if (name === "tags") into[key] = pick([["a", "b"], [], null, ["a", null], "a"]);
          continue;
        }
        const object = () => {
          if (rand() < 0.06) return null;
          const record: Record<string, unknown> = rand() < 0.7 ? { __typename: pick(typenames) } : {};
          if (depth < 3) fill(selection.selectionSet.selections, record, depth + 1);
          return record;
        };
        const listy = ["bookings", "items", "related"].includes(name);
        into[key] = listy ? (rand() < 0.08 ? pick([null, "x", {}, [undefined]]) : Array.from({ length: Math.floor(rand() * 4) }, object)) : rand() < 0.03 ? [] : object();
      }
    }
  };
  const data = Object.create(null) as Record<string, unknown>;
  fill(operation.selectionSet.selections, data, 0);
  return data;
}

/** Data with its prototypes, and errors by what a client sees of them. */
function seen(run: () => { data: unknown; errors: unknown[] }) {
  try {
    const { data, errors } = run();
    const walk = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(walk);
      if (value && typeof value === "object") return { proto: Object.getPrototypeOf(value) === null ? "null" : "object", ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)])) };
      return value;
    };
    return { data: walk(data), errors: (errors as { message: string; path?: unknown; extensions?: { code?: unknown } }[]).map((e) => ({ message: e.message, path: e.path, code: e.extensions?.code })) };
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

describe("the gateway's answers shaped by a planned walk", () => {
  const schema = internals.buildSchema(SDL);
  const { fast, original } = installedShaping();

  it("gives the gateway's own data and errors for every operation, over valid and broken subgraph answers", () => {
    const rand = random(20261126);
    let compared = 0;
    let withErrors = 0;
    const before = fastShapingCounts();
    for (const text of OPERATIONS) {
      const document = parse(text);
      const operation = internals.operationFromDocument(schema, document, { validate: false }) as never;
      for (let i = 0; i < 300; i++) {
        const input = answerFor(rand, document);
        const variables = { withItems: rand() < 0.5, on: rand() < 0.5, ...(rand() < 0.3 ? { skipTotal: pick(rand, [true, false, "yes", undefined]) } : {}) };
        const args = { operation, variables, input, introspectionHandling: () => null } as never;
        const ours = seen(() => fast(args));
        const theirs = seen(() => original(args));
        expect(ours, `${text}\n${JSON.stringify(input)}\n${JSON.stringify(variables)}`).toEqual(theirs);
        compared++;
        if ("threw" in theirs || theirs.errors.length) withErrors++;
      }
    }
    const after = fastShapingCounts();
    expect(compared).toBe(OPERATIONS.length * 300);
    // Both kinds of case were met: answers shaped here, and answers handed back to the gateway's walk.
    expect(withErrors).toBeGreaterThan(200);
    expect(after.shaped - before.shaped).toBeGreaterThan(200);
    expect(after.handedBack - before.handedBack).toBeGreaterThanOrEqual(withErrors);
  });

  it("keeps to the gateway's answer for a null root and for introspection", () => {
    const operation = internals.operationFromDocument(schema, parse(`query { version __schema { queryType { name } } }`), { validate: false }) as never;
    const introspectionHandling = () => ({ queryType: { name: "Query" } });
    for (const input of [null, undefined, { version: "1" }]) {
      const args = { operation, variables: {}, input, introspectionHandling } as never;
      expect(seen(() => fast(args))).toEqual(seen(() => original(args)));
    }
  });
});

function pick<T>(rand: () => number, values: T[]): T {
  return values[Math.floor(rand() * values.length)];
}

describe("the running gateway shapes its answers with the planned walk", () => {
  const t = useStack();
  let partner: Awaited<ReturnType<typeof contentPartner>>;
  beforeAll(async () => {
    partner = await contentPartner(t.stack);
  });

  it("answers a client's operation through it, with the right data", async () => {
    const gql = (query: string, variables: Record<string, unknown> = {}) => graphql(`${t.stack.url}/graphql`, partner.token, query, variables);
    const input = supplierInput();
    const created = await gql(`mutation ($input: CreateSupplierInput!) { createSupplier(input: $input) { supplier { id } } }`, { input });
    const id = created.body.data!.createSupplier.supplier.id;
    const text = `query ($id: ID!, $withEngine: Boolean!) { supplier(id: $id) { id name countryCode engine: bookingEngine @include(if: $withEngine) { name } } }`;
    const before = fastShapingCounts();
    const full = await gql(text, { id, withEngine: true });
    const narrow = await gql(text, { id, withEngine: false });
    const after = fastShapingCounts();
    expect(full.body.errors).toBeUndefined();
    expect(full.body.data!.supplier).toEqual({ id, name: input.name, countryCode: "CH", engine: { name: partner.engineName } });
    expect(narrow.body.data!.supplier).toEqual({ id, name: input.name, countryCode: "CH" });
    expect(after.shaped - before.shaped).toBe(2);
    expect(after.handedBack - before.handedBack).toBe(0);
  });
});

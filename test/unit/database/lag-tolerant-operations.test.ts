import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { toleratesLag } from "../../../gateway/subgraph-server.js";
import { REPLICA_READING_ROLES } from "../../../server/service-database.js";
import { subgraphDefinitions, subgraphNames } from "../../../subgraphs/subgraph.names.js";

const catalogue = subgraphDefinitions.catalogue.readsTolerateLag;
const tolerates = (text: string, operationName?: string) => toleratesLag(getOperationAST(parse(text), operationName), catalogue);

describe("which operations may read from the replica", () => {
  it("a query of lag-tolerant root fields only, aliased or repeated, with __typename beside them", () => {
    expect(tolerates("{ searchProducts(query: \"x\") { totalCount { count } } }")).toBe(true);
    expect(tolerates("query P { a: product(id: 1) { title } b: product(id: 2) { title } __typename taxonomy { name } }")).toBe(true);
    expect(tolerates("query A { me { username } } query B { taxonomy { name } }", "B")).toBe(true);
  });

  it("not a query with any other root field, a mutation, a fragment on the root, __typename alone, or a subgraph with none", () => {
    expect(tolerates("{ product(id: 1) { title } supplier(id: \"U3VwcGxpZXI6MQ\") { id } }")).toBe(false);
    expect(tolerates("{ productChanges { totalCount { count } } }")).toBe(false);
    expect(tolerates("mutation { product(id: 1) { title } }")).toBe(false);
    expect(tolerates("{ ...Root } fragment Root on Query { product(id: 1) { title } }")).toBe(false);
    expect(tolerates("{ ... on Query { product(id: 1) { title } } }")).toBe(false);
    expect(tolerates("{ __typename }")).toBe(false);
    expect(tolerates("query A { me { username } } query B { taxonomy { name } }", "A")).toBe(false);
    expect(toleratesLag(getOperationAST(parse("{ booking(id: \"x\") { id } }")), subgraphDefinitions.booking.readsTolerateLag)).toBe(false);
  });

  it("names as the replica's readers exactly the roles whose subgraph has such reads, and the single process", () => {
    const readers = subgraphNames.filter((name) => subgraphDefinitions[name].readsTolerateLag.size > 0);
    expect([...REPLICA_READING_ROLES].sort()).toEqual(["all", ...readers].sort());
  });
});

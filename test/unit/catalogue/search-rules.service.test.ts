import DataLoader from "dataloader";
import type { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import type { Caller } from "../../../core/caller.js";
import { ManualClock } from "../../../core/clock.js";
import type { Database } from "../../../drizzle/database.js";
import type { CatalogueContext, CatalogueLoaders } from "../../../subgraphs/catalogue/catalogue.loaders.js";
import type { OrganisationRow } from "../../../subgraphs/catalogue/organisation/organisation.repository.js";
import type { ProductRow } from "../../../subgraphs/catalogue/product/product.repository.js";
import { ProductSortField } from "../../../subgraphs/catalogue/product/product.type.js";
import type { SearchPageQuery, SearchRow } from "../../../subgraphs/catalogue/search/product-search.repository.js";
import { DEFAULT_PRODUCT_ORDER, pageSearch, type SearchRequest } from "../../../subgraphs/catalogue/search/search.service.js";
import { visibleToConsumers } from "../../../subgraphs/catalogue/search/product-search.repository.js";
import { CountPrecision, offsetCursor, OrderDirection } from "../../../subgraphs/common/relay/relay.connection.js";

/*
 * The service tier of search: every rule a search request is judged by (access, paging, the
 * expression's syntax, fields, operators and values), with the page read by a fake repository
 * passed through the context. A refused request must never reach the repository; an accepted one
 * must ask it for exactly the page, order, country and language the request means. What matches
 * what is SQL, and stays with the database's tests (test/integration/full-text-query.test.ts).
 */

interface SearchWorld {
  ctx: CatalogueContext;
  asked: SearchPageQuery[];
  primed: number[];
}

function searchWorld(options: { caller?: Partial<Caller>; languages?: string[]; rows?: number; country?: string | null } = {}): SearchWorld {
  const asked: SearchPageQuery[] = [];
  const primed: number[] = [];
  const rows = Array.from({ length: options.rows ?? 0 }, (_, i) => ({ id: 100 + i, deletedAt: null, taxonomyUuids: [] }) as unknown as SearchRow);
  const product = new DataLoader<number, ProductRow | undefined>(async (ids) => ids.map(() => undefined));
  const prime = product.prime.bind(product);
  product.prime = (id, row) => {
    primed.push(id);
    return prime(id, row);
  };
  const loaders = {
    organisation: new DataLoader(async (ids: readonly number[]) => ids.map((id) => ({ id, countryCode: options.country === undefined ? "CH" : options.country }) as OrganisationRow)),
    product,
    knowTaxonomyLinks: () => {},
    search: {
      page: async (_db, query) => {
        asked.push(query);
        query.onRows?.(rows);
        return { rows, total: query.withTotal ? { count: rows.length, estimated: false } : null };
      },
    },
  } as Partial<CatalogueLoaders> as CatalogueLoaders;
  const caller = { accountId: "account", username: "consumer", roles: ["CONSUMER"], scopes: ["catalogue:read"], organisationId: 7, environment: "sandbox", ...options.caller } as Caller;
  const ctx: CatalogueContext = {
    caller,
    requestId: "request",
    languages: options.languages ?? ["en"],
    database: { db: {} } as Database,
    loaders,
    clock: new ManualClock(),
    publicUrl: "https://activities.test",
    accountExists: async () => true,
  };
  return { ctx, asked, primed };
}

const request = (over: Partial<SearchRequest> = {}): SearchRequest => ({ query: null, orderBy: DEFAULT_PRODUCT_ORDER, withTotal: false, ...over });

/** The refusal: its name (reason, else code) and the fields its problems name. */
async function refusal(work: Promise<unknown>): Promise<{ reason: string; fields: string[]; message: string }> {
  try {
    await work;
  } catch (error) {
    const extensions = (error as GraphQLError).extensions;
    const problems = (extensions.problems ?? []) as { field: string }[];
    return { reason: String(extensions.reason ?? extensions.code), fields: problems.map((p) => p.field), message: (error as Error).message };
  }
  throw new Error("the search was not refused");
}

describe("search rules, at the service", () => {
  it("needs the catalogue:read scope", async () => {
    const world = searchWorld({ caller: { scopes: ["booking"] } });
    expect((await refusal(pageSearch(world.ctx, request(), visibleToConsumers))).reason).toBe("FORBIDDEN");
    expect(world.asked).toEqual([]);
  });

  it.each([
    [{ first: 1001 }, "first"],
    [{ first: -1 }, "first"],
    [{ last: 1001, before: offsetCursor(2000) }, "last"],
    [{ first: 10, last: 10 }, "last"],
    [{ after: offsetCursor(1), before: offsetCursor(5) }, "before"],
    [{ after: "not-a-cursor" }, "after"],
    [{ last: 10 }, "before"],
  ] as [Partial<SearchRequest>, string][])("refuses the paging %j, naming %s, before any read", async (paging, field) => {
    const world = searchWorld();
    const refused = await refusal(pageSearch(world.ctx, request(paging), visibleToConsumers));
    expect(refused.reason).toBe("BAD_USER_INPUT");
    expect(refused.fields).toEqual([field]);
    expect(world.asked).toEqual([]);
  });

  it.each([
    ["empty", "", /empty/],
    ["a word without a field", "museum", /Expected ':'/],
    ["an unclosed group", "(title:museum", /closing parenthesis/],
    ["an unknown field", "colour:red", /Unknown field colour/],
    ["Object.prototype's name", "__proto__:x", /Unknown field __proto__/],
    ["an operator the field lacks", "countryCode:>CH", /Operator > does not apply to countryCode/],
    ["a word for a number", "rating:>high", /rating takes a number/],
    ["an infinite number", "minPrice:<1e999", /minPrice takes a number/],
    ["21 criteria", Array.from({ length: 21 }, (_, i) => `title:x${i}`).join(" OR "), /At most 20 criteria/],
    ["2,001 characters", `title:${"x".repeat(2001)}`, /longer than 2000/],
  ])("refuses an expression (%s) as INVALID_SEARCH on query, before any read", async (_what, query, message) => {
    const world = searchWorld();
    const refused = await refusal(pageSearch(world.ctx, request({ query }), visibleToConsumers));
    expect(refused).toEqual({ reason: "INVALID_SEARCH", fields: ["query"], message: expect.stringMatching(message) });
    expect(world.asked).toEqual([]);
  });

  it("asks the repository for the page, order, country and language the request means, one row beyond to know more follow", async () => {
    const world = searchWorld({ rows: 3, languages: ["de", "en"] });
    const page = await pageSearch(
      world.ctx,
      request({ query: "title:museum AND rating:>4 AND countryCode:ch", orderBy: { field: ProductSortField.RATING, direction: OrderDirection.DESC }, first: 2, after: offsetCursor(2), withTotal: true }),
      visibleToConsumers,
    );
    expect(world.asked).toHaveLength(1);
    expect(world.asked[0]).toEqual(expect.objectContaining({ sortingField: "rating", descending: true, preferredCountry: "CH", language: "de", offset: 2, limit: 3, withTotal: true }));
    expect(world.asked[0].where).not.toBe(visibleToConsumers);
    expect(page).toEqual(expect.objectContaining({ start: 2, hasNextPage: true, hasPreviousPage: true, total: { count: 3, precision: CountPrecision.EXACT } }));
    expect(page.rows.map((row) => row.id)).toEqual([100, 101]);
    expect(world.primed).toEqual([100, 101]);
  });

  it("reads every product in play without an expression, ranks none first without an organisation country, and says when the page is the last", async () => {
    const world = searchWorld({ rows: 2, country: null });
    const page = await pageSearch(world.ctx, request({ first: 5 }), visibleToConsumers);
    expect(world.asked[0]).toEqual(expect.objectContaining({ where: visibleToConsumers, sortingField: "title", descending: false, preferredCountry: null, language: "en", offset: 0, limit: 6, withTotal: false }));
    expect(page).toEqual(expect.objectContaining({ start: 0, hasNextPage: false, hasPreviousPage: false, total: null }));
  });

  it("pages back from a cursor: the rows before its edge, exactly as many as asked", async () => {
    const world = searchWorld({ rows: 2 });
    const page = await pageSearch(world.ctx, request({ last: 2, before: offsetCursor(10) }), visibleToConsumers);
    expect(world.asked[0]).toEqual(expect.objectContaining({ offset: 7, limit: 2 }));
    expect(page).toEqual(expect.objectContaining({ start: 7, hasNextPage: true, hasPreviousPage: true }));
  });
});

import { or, sql, type SQL } from "drizzle-orm";
import { bookingEngines, products, searchConfigs, suppliers, taxonomyNodes } from "../../../drizzle/schema.js";
import type { SearchOperator } from "./search.expression.js";
import { tsQuery, type FullTextQuery } from "./search.full-text.js";

/** Similarity from which a typo-tolerant match counts (pg_trgm word similarity). */
const FUZZY_THRESHOLD = 0.45;

/** Escapes LIKE's wildcards; identifiers keep their case, texts are compared in lower case by the callers. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const likePattern = (value: string) => escapeLike(value.toLowerCase());

/** A text criterion's words, parsed and checked (search.full-text.ts), and the caller's language, whose dictionary stems them. */
export interface SearchWords {
  query: FullTextQuery;
  language: string;
}

/** The words in the caller's language's configuration or in none (`simple`), as `websearch_to_tsquery` reads them. */
function matches(document: SQL, words: SearchWords): SQL {
  const config = searchConfigs[words.language] ?? "simple";
  return sql`${document} @@ (${tsQuery(words.query, config)} || ${tsQuery(words.query, "simple")})`;
}

/** Or, typo-tolerant, a title word like the value. */
const orTitleLike = (condition: SQL, value: string): SQL => sql`(${condition} or ${value.toLowerCase()} <% ${products.titleText})`;

function compared(column: SQL | typeof products.rating, operator: SearchOperator, n: number): SQL {
  if (operator === "<") return sql`${column} < ${n}`;
  if (operator === ">") return sql`${column} > ${n}`;
  return sql`${column} = ${n}`;
}

const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;

/**
 * A bound on an integer column: PostgreSQL reads the value as the column's type, and one past 32
 * bits (`priceLevel:<1e20`) would fail the statement. The comparison is decided here instead, with
 * the same meaning: below a bound past the largest integer is every row with a value, above it
 * none, and equal to a fraction or to a value out of range none.
 */
function comparedInteger(column: SQL, operator: SearchOperator, n: number): SQL {
  if (operator === "<") {
    const bound = Math.ceil(n);
    if (bound > INT4_MAX) return sql`${column} is not null`;
    return bound <= INT4_MIN ? sql`false` : sql`${column} < ${bound}`;
  }
  if (operator === ">") {
    const bound = Math.floor(n);
    if (bound < INT4_MIN) return sql`${column} is not null`;
    return bound >= INT4_MAX ? sql`false` : sql`${column} > ${bound}`;
  }
  return Number.isInteger(n) && n >= INT4_MIN && n <= INT4_MAX ? sql`${column} = ${n}` : sql`false`;
}

const numericColumns = { rating: products.rating, minPrice: sql`${products.minPrice}`, maxPrice: sql`${products.maxPrice}` };
const integerColumns = { numberOfRatings: sql`${products.numberOfRatings}`, priceLevel: sql`${products.priceLevel}` };

/**
 * The condition on a product of each criterion of `Search` (docs/search.md), from values that
 * search.sql.ts has checked: the search repository runs them in its pages and counts.
 */
export const searchCriterionRepository = {
  /** `typoTolerant`: the value, also matched by title words like it. */
  titleWords(words: SearchWords, typoTolerant: string | null): SQL {
    const condition = matches(sql`${products.titleDocument}`, words);
    return typoTolerant === null ? condition : orTitleLike(condition, typoTolerant);
  },

  titleStartsWith(value: string): SQL {
    return sql`${products.titleText} like ${`%"${likePattern(value)}%`}`;
  },

  descriptionWords(words: SearchWords): SQL {
    return matches(sql`${products.descriptionDocument}`, words);
  },

  /** Words of the title or the descriptions; `typoTolerant` as for the title. */
  textWords(words: SearchWords, typoTolerant: string | null): SQL {
    const condition = or(matches(sql`${products.titleDocument}`, words), matches(sql`${products.descriptionDocument}`, words))!;
    return typoTolerant === null ? condition : orTitleLike(condition, typoTolerant);
  },

  supplierExternalId(value: string, prefix: boolean): SQL {
    return sql`exists (select 1 from ${suppliers} where ${suppliers.id} = ${products.supplierId} and ${
      prefix ? sql`${suppliers.externalId} like ${`${escapeLike(value)}%`}` : sql`${suppliers.externalId} = ${value}`
    })`;
  },

  // On the product's own nodes (kept equal to product_taxonomies by triggers): a filter that an
  // index-only walk of the caller's country can test, where a join read each match's links.
  taxonomySlug(value: string): SQL {
    return sql`${products.taxonomyUuids} && array(select ${taxonomyNodes.uuid} from ${taxonomyNodes} where ${taxonomyNodes.slug} = ${value})`;
  },

  externalId(value: string, prefix: boolean): SQL {
    return prefix ? sql`${products.externalId} like ${`${escapeLike(value)}%`}` : sql`${products.externalId} = ${value}`;
  },

  /** Ignoring case; ^ starting with, ~ typo-tolerant. */
  cityName(value: string, operator: SearchOperator): SQL {
    if (operator === "^") return sql`lower(${products.cityName}) like ${`${likePattern(value)}%`}`;
    if (operator === "~") return sql`similarity(lower(${products.cityName}), ${value.toLowerCase()}) >= ${FUZZY_THRESHOLD}`;
    return sql`lower(${products.cityName}) = ${value.toLowerCase()}`;
  },

  countryCode(value: string): SQL {
    return sql`${products.countryCode} = ${value.toUpperCase()}`;
  },

  bookingEngineName(value: string): SQL {
    return sql`exists (select 1 from ${bookingEngines} where ${bookingEngines.id} = ${products.bookingEngineId} and ${bookingEngines.name} = ${value})`;
  },

  numeric(field: keyof typeof numericColumns, operator: SearchOperator, n: number): SQL {
    return compared(numericColumns[field], operator, n);
  },

  integer(field: keyof typeof integerColumns, operator: SearchOperator, n: number): SQL {
    return comparedInteger(integerColumns[field], operator, n);
  },
};

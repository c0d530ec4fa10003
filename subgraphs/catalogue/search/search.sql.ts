import { and, or, sql, type SQL } from "drizzle-orm";
import { products, suppliers, bookingEngines, taxonomyNodes, searchConfigs } from "../../../drizzle/schema.js";
import { SearchSyntaxError, type SearchNode, type SearchOperator } from "./search.expression.js";
import { FullTextProblem, parseFullText, tsQuery } from "./search.full-text.js";

type Criterion = Extract<SearchNode, { kind: "criterion" }>;
type Compiler = (value: string, operator: SearchOperator, context: SearchContext, criterion: Criterion) => SQL;

export interface SearchContext {
  /** The caller's language: its dictionary stems the words of text criteria. */
  language: string;
}

/** Similarity from which a typo-tolerant match counts (pg_trgm word similarity). */
export const FUZZY_THRESHOLD = 0.45;

/** Escapes LIKE's wildcards; identifiers keep their case, texts are compared in lower case by the callers. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const likePattern = (value: string) => escapeLike(value.toLowerCase());

/**
 * Words of the value in the caller's language's configuration or in none (`simple`), as
 * `websearch_to_tsquery` reads them, built from sanitised terms (search.full-text.ts): what PostgreSQL's
 * tsquery parser would refuse is refused here, naming the criterion.
 */
function fullText(column: SQL, value: string, context: SearchContext, criterion: Criterion): SQL {
  const config = searchConfigs[context.language] ?? "simple";
  let query;
  try {
    query = parseFullText(value);
  } catch (error) {
    if (!(error instanceof FullTextProblem)) throw error;
    throw new SearchSyntaxError(`The value of ${criterion.field}: ${error.message}`, criterion.valuePosition);
  }
  return sql`${column} @@ (${tsQuery(query, config)} || ${tsQuery(query, "simple")})`;
}

function numberOf(value: string, criterion: Criterion): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) throw new SearchSyntaxError(`${criterion.field} takes a number, not '${value}'`, criterion.position);
  return parsed;
}

const numeric =
  (column: SQL | typeof products.rating): Compiler =>
  (value, operator, _context, criterion) => {
    const n = numberOf(value, criterion);
    if (operator === "<") return sql`${column} < ${n}`;
    if (operator === ">") return sql`${column} > ${n}`;
    return sql`${column} = ${n}`;
  };

const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;

/**
 * A criterion on an integer column: PostgreSQL reads the value as the column's type, and one past
 * 32 bits (`priceLevel:<1e20`) would fail the statement. The comparison is decided here instead,
 * with the same meaning: below a bound past the largest integer is every row with a value, above
 * it none, and equal to a fraction or to a value out of range none.
 */
const integer =
  (column: SQL): Compiler =>
  (value, operator, _context, criterion) => {
    const n = numberOf(value, criterion);
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
  };

/** Each searchable field, the operators it takes, and the SQL of a criterion on it. */
const fields: Record<string, { operators: SearchOperator[]; compile: Compiler; description: string }> = {
  title: {
    operators: ["=", "^", "~"],
    description: "words of the title (any language); ^ a title starting with; ~ typo-tolerant",
    compile: (value, operator, context, criterion) => {
      if (operator === "^") return sql`${products.titleText} like ${`%"${likePattern(value)}%`}`;
      if (operator === "~") return sql`(${fullText(sql`${products.titleDocument}`, value, context, criterion)} or ${value.toLowerCase()} <% ${products.titleText})`;
      return fullText(sql`${products.titleDocument}`, value, context, criterion);
    },
  },
  description: {
    operators: ["="],
    description: "words of the short or full description",
    compile: (value, _operator, context, criterion) => fullText(sql`${products.descriptionDocument}`, value, context, criterion),
  },
  text: {
    operators: ["=", "~"],
    description: "words of the title or the descriptions; ~ adds typo-tolerant title matches",
    compile: (value, operator, context, criterion) => {
      const words = or(fullText(sql`${products.titleDocument}`, value, context, criterion), fullText(sql`${products.descriptionDocument}`, value, context, criterion))!;
      return operator === "~" ? sql`(${words} or ${value.toLowerCase()} <% ${products.titleText})` : words;
    },
  },
  supplierExternalId: {
    operators: ["=", "^"],
    description: "the supplier's externalId, exactly or by prefix",
    compile: (value, operator) =>
      sql`exists (select 1 from ${suppliers} where ${suppliers.id} = ${products.supplierId} and ${
        operator === "^" ? sql`${suppliers.externalId} like ${`${escapeLike(value)}%`}` : sql`${suppliers.externalId} = ${value}`
      })`,
  },
  taxonomy: {
    operators: ["="],
    description: "a taxonomy slug, exactly (level 1 or 2)",
    // On the product's own nodes (kept equal to product_taxonomies by triggers): a filter that an
    // index-only walk of the caller's country can test, where a join read each match's links.
    compile: (value) => sql`${products.taxonomyUuids} && array(select ${taxonomyNodes.uuid} from ${taxonomyNodes} where ${taxonomyNodes.slug} = ${value})`,
  },
  externalId: {
    operators: ["=", "^"],
    description: "the product's externalId, exactly or by prefix",
    compile: (value, operator) => (operator === "^" ? sql`${products.externalId} like ${`${escapeLike(value)}%`}` : sql`${products.externalId} = ${value}`),
  },
  cityName: {
    operators: ["=", "^", "~"],
    description: "the city, ignoring case; ^ starting with; ~ typo-tolerant",
    compile: (value, operator) => {
      if (operator === "^") return sql`lower(${products.cityName}) like ${`${likePattern(value)}%`}`;
      if (operator === "~") return sql`similarity(lower(${products.cityName}), ${value.toLowerCase()}) >= ${FUZZY_THRESHOLD}`;
      return sql`lower(${products.cityName}) = ${value.toLowerCase()}`;
    },
  },
  countryCode: { operators: ["="], description: "ISO 3166-1 alpha-2", compile: (value) => sql`${products.countryCode} = ${value.toUpperCase()}` },
  bookingEngine: {
    operators: ["="],
    description: "the booking engine name",
    compile: (value) => sql`exists (select 1 from ${bookingEngines} where ${bookingEngines.id} = ${products.bookingEngineId} and ${bookingEngines.name} = ${value})`,
  },
  rating: { operators: ["=", "<", ">"], description: "0 to 5", compile: numeric(products.rating) },
  numberOfRatings: { operators: ["=", "<", ">"], description: "count of ratings", compile: integer(sql`${products.numberOfRatings}`) },
  minPrice: { operators: ["=", "<", ">"], description: "in the product's currency", compile: numeric(sql`${products.minPrice}`) },
  maxPrice: { operators: ["=", "<", ">"], description: "in the product's currency", compile: numeric(sql`${products.maxPrice}`) },
  priceLevel: { operators: ["=", "<", ">"], description: "1 to 4", compile: integer(sql`${products.priceLevel}`) },
};

export const searchFields = Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, { operators: f.operators, description: f.description }]));

/** The SQL condition of a parsed expression; an unknown field, operator or value is a SearchSyntaxError at its position. */
export function compileSearch(node: SearchNode, context: SearchContext): SQL {
  if (node.kind !== "criterion") {
    const parts = node.operands.map((operand) => compileSearch(operand, context));
    return (node.kind === "and" ? and(...parts) : or(...parts))!;
  }
  // Own properties only: a field named toString or __proto__ is unknown, not Object.prototype's.
  const field = Object.hasOwn(fields, node.field) ? fields[node.field] : undefined;
  if (!field) throw new SearchSyntaxError(`Unknown field ${node.field}; searchable fields are ${Object.keys(fields).join(", ")}`, node.position);
  if (!field.operators.includes(node.operator)) {
    const allowed = field.operators.map((o) => (o === "=" ? "none" : o)).join(", ");
    throw new SearchSyntaxError(`Operator ${node.operator} does not apply to ${node.field} (allowed: ${allowed})`, node.position);
  }
  return sql`(${field.compile(node.value, node.operator, context, node)})`;
}

import { and, or, sql, type SQL } from "drizzle-orm";
import { SearchSyntaxError, type SearchNode, type SearchOperator } from "./search.expression.js";
import { FullTextProblem, parseFullText } from "./search.full-text.js";
import { searchCriterionRepository as conditions, type SearchWords } from "./search-criterion.repository.js";

type Criterion = Extract<SearchNode, { kind: "criterion" }>;
type Compiler = (value: string, operator: SearchOperator, context: SearchContext, criterion: Criterion) => SQL;

export interface SearchContext {
  /** The caller's language: its dictionary stems the words of text criteria. */
  language: string;
}

/**
 * The value's words, as `websearch_to_tsquery` reads them (search.full-text.ts): what PostgreSQL's
 * tsquery parser would refuse is refused here, naming the criterion.
 */
function wordsOf(value: string, context: SearchContext, criterion: Criterion): SearchWords {
  try {
    return { query: parseFullText(value), language: context.language };
  } catch (error) {
    if (!(error instanceof FullTextProblem)) throw error;
    throw new SearchSyntaxError(`The value of ${criterion.field}: ${error.message}`, criterion.valuePosition);
  }
}

function numberOf(value: string, criterion: Criterion): number {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed)) throw new SearchSyntaxError(`${criterion.field} takes a number, not '${value}'`, criterion.position);
  return parsed;
}

const numeric =
  (field: Parameters<typeof conditions.numeric>[0]): Compiler =>
  (value, operator, _context, criterion) =>
    conditions.numeric(field, operator, numberOf(value, criterion));

/** A number past an integer column's range is decided by the repository, not sent (priceLevel:<1e20). */
const integer =
  (field: Parameters<typeof conditions.integer>[0]): Compiler =>
  (value, operator, _context, criterion) =>
    conditions.integer(field, operator, numberOf(value, criterion));

/** Each searchable field, the operators it takes, and its condition (search-criterion.repository.ts) of a checked value. */
const fields: Record<string, { operators: SearchOperator[]; compile: Compiler; description: string }> = {
  title: {
    operators: ["=", "^", "~"],
    description: "words of the title (any language); ^ a title starting with; ~ typo-tolerant",
    compile: (value, operator, context, criterion) =>
      operator === "^" ? conditions.titleStartsWith(value) : conditions.titleWords(wordsOf(value, context, criterion), operator === "~" ? value : null),
  },
  description: {
    operators: ["="],
    description: "words of the short or full description",
    compile: (value, _operator, context, criterion) => conditions.descriptionWords(wordsOf(value, context, criterion)),
  },
  text: {
    operators: ["=", "~"],
    description: "words of the title or the descriptions; ~ adds typo-tolerant title matches",
    compile: (value, operator, context, criterion) => conditions.textWords(wordsOf(value, context, criterion), operator === "~" ? value : null),
  },
  supplierExternalId: {
    operators: ["=", "^"],
    description: "the supplier's externalId, exactly or by prefix",
    compile: (value, operator) => conditions.supplierExternalId(value, operator === "^"),
  },
  taxonomy: { operators: ["="], description: "a taxonomy slug, exactly (level 1 or 2)", compile: (value) => conditions.taxonomySlug(value) },
  externalId: {
    operators: ["=", "^"],
    description: "the product's externalId, exactly or by prefix",
    compile: (value, operator) => conditions.externalId(value, operator === "^"),
  },
  cityName: { operators: ["=", "^", "~"], description: "the city, ignoring case; ^ starting with; ~ typo-tolerant", compile: (value, operator) => conditions.cityName(value, operator) },
  countryCode: { operators: ["="], description: "ISO 3166-1 alpha-2", compile: (value) => conditions.countryCode(value) },
  bookingEngine: { operators: ["="], description: "the booking engine name", compile: (value) => conditions.bookingEngineName(value) },
  rating: { operators: ["=", "<", ">"], description: "0 to 5", compile: numeric("rating") },
  numberOfRatings: { operators: ["=", "<", ">"], description: "count of ratings", compile: integer("numberOfRatings") },
  minPrice: { operators: ["=", "<", ">"], description: "in the product's currency", compile: numeric("minPrice") },
  maxPrice: { operators: ["=", "<", ">"], description: "in the product's currency", compile: numeric("maxPrice") },
  priceLevel: { operators: ["=", "<", ">"], description: "1 to 4", compile: integer("priceLevel") },
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

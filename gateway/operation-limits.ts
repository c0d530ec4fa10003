import { MAX_JSON_DEPTH, nestsDeeperThan } from "../core/input-text.js";
import type { ApolloServerOptions, ApolloServerPlugin, BaseContext } from "@apollo/server";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import {
  getNamedType,
  getOperationAST,
  getVariableValues,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isListType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
  visit,
} from "graphql";
import { getComplexity, type ComplexityEstimator } from "graphql-query-complexity";
import { edgeError } from "../core/edge-refusals.js";
import { badInput } from "../core/errors.js";
import { checkOperationText } from "../core/input-text.js";
import { queuedTurn } from "../core/event-loop-turns.js";
import { MAX_SUPPLIER_PRODUCTS_PAGE } from "../subgraphs/catalogue/product/product.service.js";
import { MAX_IMPORT_PAGE } from "../subgraphs/catalogue/import/activity-import.service.js";
import { MAX_TOP_ACTIVITIES } from "../subgraphs/catalogue/recommendation/recommendation.resolver.js";
import { MAX_WEBHOOK_MESSAGE_PAGE } from "../subgraphs/booking/webhooks/webhook.service.js";
import { MAX_ORGANISATION_PAGE } from "../subgraphs/catalogue/organisation/organisation.service.js";
import { DEFAULT_PAGE_SIZE } from "../subgraphs/common/relay/relay.connection.js";
import { MAX_NODES } from "../subgraphs/node/node.subgraph.js";
import { MAX_RECOMMENDATION_PAGE } from "../subgraphs/catalogue/recommendation/recommendation.rules.js";
import { MAX_SEARCH_PAGE_SIZE } from "../subgraphs/catalogue/search/search.service.js";
import { parseSearch, type SearchNode } from "../subgraphs/catalogue/search/search.expression.js";
import { MAX_SUPPLIER_PAGE } from "../subgraphs/catalogue/supplier/supplier.service.js";
import { MAX_REPORT_PAGE } from "../subgraphs/reporting/booking-report/booking-report.query.js";

/**
 * Every bound on a GraphQL operation, in one place (docs/spec-decisions.md, "Operation limits").
 * Each check is linear in the size of the document: fragments are expanded with memoisation or
 * under a node budget, so a small document of nested fragments cannot make a check exponential.
 * The REST layer's own operations pass the same limits at their largest pages (tested).
 */
export const OPERATION_LIMITS = {
  /** Lexical tokens in a document: the parser stops counting there, before any tree is built. */
  maxTokens: 3_000,
  /** Field selections with every fragment spread expanded (Apollo's recursive-selection rule). */
  maxSelections: 2_000,
  /** Aliased fields, fragments expanded: the 1,000-alias batch of one expensive field. */
  maxAliases: 30,
  /** Directives used in one operation. */
  maxDirectives: 30,
  /** Nesting of fields; fragments and inline fragments add no level. */
  maxDepth: 12,
  /** Root fields of a mutation operation: each is a state change run in turn. */
  maxMutations: 5,
  /** Estimated work: list fields multiply what they select by their page size (see listSize). */
  maxCost: 300_000,
} as const;

/**
 * Subgraphs see only the gateway's query plans, which can be longer and (for `_entities`) wider
 * than the operation a client sent; their bounds are a backstop against a misbehaving gateway,
 * set so that no plan of an operation within the edge's limits reaches them.
 */
const SUBGRAPH_FACTOR = 4;

export type LimitsScope = "edge" | "subgraph";

const limitsFor = (scope: LimitsScope) => {
  const factor = scope === "edge" ? 1 : SUBGRAPH_FACTOR;
  return {
    maxTokens: OPERATION_LIMITS.maxTokens * factor,
    maxSelections: OPERATION_LIMITS.maxSelections * factor,
    maxAliases: OPERATION_LIMITS.maxAliases * factor,
    maxDirectives: OPERATION_LIMITS.maxDirectives * factor,
    maxDepth: OPERATION_LIMITS.maxDepth + (scope === "edge" ? 0 : 2),
    maxMutations: OPERATION_LIMITS.maxMutations,
    maxCost: OPERATION_LIMITS.maxCost * factor,
  };
};

/** Arguments that set how many items a field returns: the field's cost is multiplied by them. */
export const PAGE_SIZE_ARGUMENTS = ["first", "last"] as const;

/**
 * The largest page each paged field accepts. A larger request is refused by the field itself,
 * naming its argument (REST callers see their own parameter named), so the estimate counts at
 * most this many items rather than refusing the operation as too costly.
 */
export const PAGE_SIZE_MAXIMA: Record<string, number> = {
  "Query.searchProducts": MAX_SEARCH_PAGE_SIZE,
  "Query.productChanges": MAX_SEARCH_PAGE_SIZE,
  "Query.suppliers": MAX_SUPPLIER_PAGE,
  "Query.activeActivities": MAX_IMPORT_PAGE,
  "Query.inactiveActivities": MAX_IMPORT_PAGE,
  "Query.bookingReports": MAX_REPORT_PAGE,
  "Query.recommendations": MAX_RECOMMENDATION_PAGE,
  "Query.topActivities": MAX_TOP_ACTIVITIES,
  "WebhookEndpoint.messages": MAX_WEBHOOK_MESSAGE_PAGE,
  "Query.organisations": MAX_ORGANISATION_PAGE,
  // The cyclic walk product → supplier → products → … multiplies by this at every turn.
  "Supplier.products": MAX_SUPPLIER_PRODUCTS_PAGE,
};

/**
 * How many items a list field is assumed to hold when the caller does not choose a page size.
 * Items of a page object count 1: the field returning the page was already multiplied by its
 * page-size argument. A test requires every list field of the API schema to be named here, so
 * a new list gets a deliberate size.
 */
export const LIST_SIZES: Record<string, number> = {
  // Pages: sized by the page-size argument of the field that returns them.
  "Query.bookingEngines": 50,
  "Query.taxonomy": 50,
  "TaxonomyNode.children": 20,
  "Product.taxonomies": 3,
  "Product.categories": 5,
  "Product.descriptors": 5,
  "Product.galleryImages": 10,
  // One per language of the title: rarely more than a handful.
  "Product.onlineBookable": 5,
  // A text's languages: a product's partner writes two or three.
  "LocalizedText.translations": 3,
  // Seasons of a year, and a day's opening spans.
  "AvailabilityPeriods.weeklyPeriods": 2,
  "DayOpening.hours": 2,
  // A route's stops or days, and a unit's items.
  "Itinerary.units": 5,
  "ItineraryUnit.items": 3,
  "Availability.options": 10,
  "AvailabilityOption.choices": 20,
  "Availability.pricingIssues": 10,
  "Availability.units": 10,
  "BookingReport.availabilityOptions": 10,
  "BookingReport.cancellationPolicy": 5,
  "Cancellation.policy": 5,
  // A booking's questions as bookings have them: a few per level, a few participants, and a
  // follow-up only where an answer opened one. REST selects follow-ups five levels deep (the
  // setup's limit), so a size of 2 counted 62 questions under each one asked; a booking whose
  // questions outnumber these is charged what its answer held (cost-budget.ts).
  "BookingQuestions.booking": 5,
  "BookingQuestions.customer": 5,
  "BookingQuestions.participants": 4,
  "ParticipantQuestions.questions": 5,
  "Question.conditions": 1,
  "Question.choices": 20,
  "Question.followUpQuestions": 1,
  // A booking setup is one stored document, read whole: these are its usual sizes, not its
  // limits (20 options and units, 100 choices, 30 questions a group and their follow-ups), since
  // its lists cost no statement of their own.
  "BookingSetup.options": 5,
  "BookingSetup.units": 5,
  "BookingSetup.cancellationTiers": 3,
  // A label's languages, as a product's texts.
  "BookingSetupText.translations": 3,
  "BookingSetupOption.choices": 10,
  "BookingSetupQuestion.choices": 10,
  "BookingSetupQuestions.customer": 10,
  "BookingSetupQuestions.booking": 10,
  "BookingSetupQuestions.participant": 10,
  // Connections: sized by `first` or `last` on the field that returns them (DEFAULT_PAGE_SIZE without).
  "WebhookMessageConnection.edges": 1,
  "WebhookMessageConnection.nodes": 1,
  "OrganisationConnection.edges": 1,
  "OrganisationConnection.nodes": 1,
  "SupplierConnection.edges": 1,
  "SupplierConnection.nodes": 1,
  "BookingReportConnection.edges": 1,
  "BookingReportConnection.nodes": 1,
  "ActiveActivityConnection.edges": 1,
  "ActiveActivityConnection.nodes": 1,
  "InactiveActivityConnection.edges": 1,
  "InactiveActivityConnection.nodes": 1,
  "RecommendationConnection.edges": 1,
  "RecommendationConnection.nodes": 1,
  "ProductConnection.edges": 1,
  "ProductConnection.nodes": 1,
  "ProductChangeConnection.edges": 1,
  "ProductChangeConnection.nodes": 1,
  // A product's changes since a day of the last eight: a handful.
  "ProductChangeEdge.changes": 5,
  // As many as the ids asked for (listSize reads them); this many when they come from a variable not yet known.
  "Query.nodes": MAX_NODES,
  // An organisation's endpoints (at most 10); a message's tries (8, and a few redeliveries).
  "Query.webhookEndpoints": 10,
  "WebhookMessage.attemptLog": 10,
  // Refusals of one import: most imports have none; a supplier's whole list at worst.
  "OctoImport.refusedProducts": 20,
  // Introspection (sandbox only, by default): sizes of this schema, so the standard introspection
  // query fits while a walk of types → fields → type → fields → … multiplies out of bounds.
  "__Schema.types": 100,
  "__Schema.directives": 15,
  "__Type.fields": 15,
  "__Type.inputFields": 15,
  "__Type.enumValues": 10,
  "__Type.interfaces": 2,
  "__Type.possibleTypes": 5,
  "__Field.args": 3,
  "__Directive.args": 3,
};

/**
 * JSON-scalar fields that stand for a whole record of typed fields (spec 3's import and consumer
 * records): a leaf to the estimator, but each builds about as many values as selecting every
 * field of the record one by one, so they count that many. A test holds each weight above the
 * values a real record carries, so aliasing a record cannot buy more work than the typed fields.
 */
export const RECORD_WEIGHTS: Record<string, number> = {
  "ActiveActivityConnection.records": 150,
  "Product.consumerRecord": 150,
};

/**
 * Mutations that make the service call a supplier system (and, for an import, rewrite a whole
 * supplier's catalogue): each costs more than half the limit, so one operation holds one of them
 * and aliasing cannot turn one request into several rounds of outbound calls.
 */
export const SUPPLIER_CALLING_MUTATIONS = ["Mutation.registerOctoEngine", "Mutation.importOctoEngine"] as const;
const SUPPLIER_CALL_WEIGHT = OPERATION_LIMITS.maxCost / 2 + 1;

/**
 * What a root field costs before it selects anything, in points (1 point = one selected value,
 * the estimate's unit): its statements, its authorisation and the gateway's plan. Counted once
 * per occurrence, so every alias of a field pays it again. Fitted against measured time by
 * `npm run bench:cost` on both databases (bench/results/2026-11-28-cost-calibration.md: ms =
 * request + base per occurrence + k × values; each field's base in ms divided by k, rounded;
 * k = 0.00180 ms a point on the embedded database, 0.00176 on PostgreSQL, 2026-11-28), each
 * field the larger of its two fits, so that the budget holds on whichever database runs. A base
 * the fit puts under 1 ms is within the run's noise and is set to 1 ms (555 and 567 points): no
 * occurrence is free. Rerun bench:cost on both whenever the graph changes (a root field added, a
 * resolver's statements changed) and set these from the tables it prints: a test requires every
 * root field of the schema here, so a new field gets a deliberate cost. Fields the bench cannot
 * run repeatably (state changes that run once, outbound calls, one-time links) carry the cost of
 * the field they resemble, named beside them; a subscription is charged as the query it resolves like.
 */
export const ROOT_FIELD_COSTS: Record<string, number> = {
  "Mutation.answerBookingQuestions": 761,
  "Mutation.cancelBooking": 761, // as Mutation.answerBookingQuestions
  "Mutation.confirmBooking": 761, // as Mutation.answerBookingQuestions
  "Mutation.createAvailability": 1460,
  "Mutation.createBooking": 761, // as Mutation.answerBookingQuestions
  "Mutation.createProduct": 8552, // as Mutation.updateProduct
  "Mutation.createSupplier": 1803,
  "Mutation.createWebhookEndpoint": 567, // as Mutation.updateWebhookEndpoint
  "Mutation.deleteProduct": 8552, // as Mutation.updateProduct
  "Mutation.deleteSupplier": 2962, // as Mutation.updateSupplier
  "Mutation.deleteWebhookEndpoint": 567, // as Mutation.updateWebhookEndpoint
  "Mutation.deprecateProduct": 8552, // as Mutation.updateProduct
  "Mutation.importOctoEngine": 2962, // as Mutation.updateSupplier
  "Mutation.priceAvailability": 567,
  "Mutation.redeliverWebhookMessage": 567, // as Mutation.updateWebhookEndpoint
  "Mutation.registerOctoEngine": 2962, // as Mutation.updateSupplier
  "Mutation.removeProductBookingSetup": 8535, // as Mutation.setProductBookingSetup
  "Mutation.rotateWebhookEndpointSecret": 567,
  "Mutation.setAvailabilityOption": 2023, // as Mutation.setAvailabilityQuantities
  "Mutation.setAvailabilityQuantities": 2023,
  "Mutation.setProductBookingSetup": 8535,
  "Mutation.undeprecateProduct": 8552, // as Mutation.updateProduct
  "Mutation.updateProduct": 8552,
  "Mutation.updateSupplier": 2962,
  "Mutation.updateWebhookEndpoint": 567,
  "Query.activeActivities": 1502,
  "Query.availableDates": 567,
  "Query.booking": 608,
  "Query.bookingEngine": 567,
  "Query.bookingEngines": 567,
  "Query.bookingReport": 608, // as Query.booking
  "Query.bookingReports": 567,
  "Query.bookingVoucher": 608, // as Query.booking
  "Query.inactiveActivities": 907,
  "Query.me": 567,
  "Query.nextAvailableDates": 567,
  "Query.organisation": 567,
  "Query.organisations": 567,
  "Query.product": 567,
  "Query.productBookingSetup": 897,
  "Query.productChanges": 3668,
  "Query.recommendations": 1796,
  "Query.reportingAccess": 567,
  "Query.searchProducts": 4577,
  "Query.supplier": 1723,
  "Query.suppliers": 3297,
  "Query.taxonomy": 567,
  "Query.topActivities": 1796, // as Query.recommendations
  "Query.webhookEndpoints": 567,
  // The node subgraph's visibility check, then the owner's fetch: twice a plain lookup.
  "Query.node": 1134,
  "Query.nodes": 1134, // as Query.node: one statement a type, however many ids
  "Subscription.bookingEngineRegistered": 567, // as Query.bookingEngine
  "Subscription.bookingStatusChanged": 608, // as Query.booking
};

/**
 * Search criteria that cost far more than the rest of a search, in points each, added to the
 * root field's cost for every such criterion of its `search` argument (bench:cost fits them with
 * the root costs): a full-text criterion (title, description or text without an operator) ranks
 * and matches text documents; a typo-tolerant one (`~` on title, text or cityName) compares
 * trigrams of every candidate row. Other criteria (equality, prefix, numbers) use indexes and
 * cost no more than the field's base. An expression that does not parse counts none: the field
 * refuses it before any SQL runs. On the demo catalogue a full-text criterion fits under the
 * 1 ms floor on both databases and a typo-tolerant one at about 1.1 ms on PostgreSQL; both grow
 * with the rows a criterion compares, so a larger catalogue calls for a run of bench:cost on it.
 */
export const SEARCH_CRITERION_COSTS = { fullText: 567, fuzzy: 633 };

/** Root fields whose argument is a Search expression (docs/search.md), by the argument's name. */
export const SEARCH_EXPRESSION_ARGUMENTS: Record<string, string> = {
  "Query.searchProducts": "query",
  "Query.productChanges": "query",
};

const FULL_TEXT_FIELDS = new Set(["title", "description", "text"]);
const FUZZY_FIELDS = new Set(["title", "text", "cityName"]);

/** How many full-text and typo-tolerant criteria an expression holds; none when it does not parse. */
export function expensiveCriteria(expression: unknown): { fullText: number; fuzzy: number } {
  const counts = { fullText: 0, fuzzy: 0 };
  if (typeof expression !== "string") return counts;
  let tree: SearchNode;
  try {
    tree = parseSearch(expression);
  } catch {
    return counts;
  }
  const walk = (node: SearchNode) => {
    if (node.kind !== "criterion") return node.operands.forEach(walk);
    if (node.operator === "~" && FUZZY_FIELDS.has(node.field)) counts.fuzzy++;
    else if (node.operator === "=" && FULL_TEXT_FIELDS.has(node.field)) counts.fullText++;
  };
  walk(tree);
  return counts;
}

/** A root field's fixed cost for one occurrence with these arguments. */
export function rootFieldCost(key: string, args: Record<string, unknown>): number {
  let cost = ROOT_FIELD_COSTS[key] ?? 0;
  const searchArgument = SEARCH_EXPRESSION_ARGUMENTS[key];
  if (searchArgument) {
    const { fullText, fuzzy } = expensiveCriteria(args[searchArgument]);
    cost += fullText * SEARCH_CRITERION_COSTS.fullText + fuzzy * SEARCH_CRITERION_COSTS.fuzzy;
  }
  return cost;
}

/** A page-size argument on a field missing from PAGE_SIZE_MAXIMA counts at face value up to this. */
const MAX_UNLISTED_PAGE = 1_000_000;

/** A mutation payload's refusals: one a refused field, and few fields refused at once. */
export const USER_ERRORS_SIZE = 5;

/** A list not named in LIST_SIZES (a test keeps every list of the API schema named). */
const DEFAULT_LIST_SIZE = 20;

function listSize(typeName: string, fieldName: string, returnsList: boolean, args: Record<string, unknown>): number {
  if (fieldName === "_entities" && Array.isArray(args.representations)) return Math.max(1, args.representations.length);
  if (typeName === "Query" && fieldName === "nodes" && Array.isArray(args.ids)) return Math.min(Math.max(1, args.ids.length), MAX_NODES);
  for (const name of PAGE_SIZE_ARGUMENTS) {
    const value = args[name];
    if (typeof value !== "number" || !Number.isFinite(value)) continue;
    const maximum = PAGE_SIZE_MAXIMA[`${typeName}.${fieldName}`] ?? MAX_UNLISTED_PAGE;
    return Math.min(Math.max(1, value), maximum);
  }
  // A connection asked for no page size answers its default page.
  if (!returnsList) return `${typeName}.${fieldName}` in PAGE_SIZE_MAXIMA ? DEFAULT_PAGE_SIZE : 1;
  if (fieldName === "userErrors" && typeName.endsWith("Payload")) return USER_ERRORS_SIZE;
  return LIST_SIZES[`${typeName}.${fieldName}`] ?? DEFAULT_LIST_SIZE;
}

/** One for the field, plus what it selects times the number of items it returns; a record its weight. */
const listAwareEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const recordWeight = RECORD_WEIGHTS[`${type.name}.${field.name}`];
  // A list of records (one per item of the page the parent was multiplied by) counts each one.
  if (recordWeight !== undefined) return recordWeight;
  if ((SUPPLIER_CALLING_MUTATIONS as readonly string[]).includes(`${type.name}.${field.name}`)) return SUPPLIER_CALL_WEIGHT + childComplexity;
  const nullable = getNullableType(field.type);
  const returnsList = isListType(nullable) && isCompositeType(getNamedType(field.type));
  return 1 + listSize(type.name, field.name, returnsList, args) * childComplexity;
};

/** The selection estimate, plus each root field's fixed cost (ROOT_FIELD_COSTS) where the parent is a root type of the schema. */
function rootAwareEstimator(schema: GraphQLSchema, onFixed?: (cost: number) => void): ComplexityEstimator {
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name, schema.getSubscriptionType()?.name].filter(Boolean));
  return (options) => {
    const selection = listAwareEstimator(options) as number;
    if (!roots.has(options.type.name)) return selection;
    const fixed = rootFieldCost(`${options.type.name}.${options.field.name}`, options.args);
    onFixed?.(fixed);
    return selection + fixed;
  };
}

/**
 * The estimate of an operation without any limit applied: `values` counts what it selects (lists
 * multiplied by their page sizes), `total` adds each root field's fixed cost. bench:cost fits
 * measured time to `values` per root field; checkOperationCost charges `total`.
 */
export function estimateOperation(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | undefined): { values: number; total: number } {
  const run = (estimator: ComplexityEstimator) =>
    getComplexity({ estimators: [estimator], schema, query: document, variables: variables ?? {}, operationName, maxQueryNodes: OPERATION_LIMITS.maxSelections * 2 * SUBGRAPH_FACTOR });
  return { values: run(listAwareEstimator), total: run(rootAwareEstimator(schema)) };
}

/** An operation's estimate: `total` is what it is charged, `fixed` the part of it its root fields cost whatever they answer. */
export interface OperationCost {
  total: number;
  fixed: number;
}

/** The operation's estimated cost; throws the refusal when it is over the scope's limit. */
export function checkOperationCost(
  scope: LimitsScope,
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
): number {
  return checkOperationCostParts(scope, schema, document, variables, operationName).total;
}

/** As checkOperationCost, with the fixed part apart: the cost budget gives back only what the answer's values did not use. */
export function checkOperationCostParts(
  scope: LimitsScope,
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
): OperationCost {
  const { maxCost, maxSelections } = limitsFor(scope);
  checkVariables(schema, document, variables, operationName);
  const estimate = (): OperationCost | GraphQLError => {
    let fixed = 0;
    try {
      const total = getComplexity({
        estimators: [rootAwareEstimator(schema, (cost) => (fixed += cost))],
        schema,
        query: document,
        variables: variables ?? {},
        operationName,
        // A budget of visited nodes keeps the estimate linear even where fragments are expanded.
        maxQueryNodes: maxSelections * 2,
      });
      return { total, fixed };
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return edgeError("OPERATION_TOO_LARGE", error.message, { http: true });
    }
  };
  const cost = costMemo.of(scope, schema, document, variables, operationName, estimate);
  if (cost instanceof GraphQLError) throw cost;
  if (cost.total > maxCost) throw edgeError("COST_LIMIT_EXCEEDED", `The operation's estimated cost is ${cost.total}; the limit is ${maxCost}. Ask for smaller pages or fewer nested lists.`, { http: true });
  return cost;
}

/**
 * Estimates by document, per value of the variables the estimate reads: those given to a
 * page-size argument, to a Search expression argument, to `_entities`' representations (only
 * their count) and to a directive (@skip, @include). The estimator reads nothing else of a request, and walking the document
 * was about a tenth of the service's CPU in the booking flow: every step is the same few
 * documents (parsed once by Apollo's document store, so the same object) with other ids.
 */
class CostMemo {
  private readonly byDocument = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, { inputs: VariableInput[]; costs: Map<string, OperationCost | GraphQLError> }>>();
  /** Estimates kept per document: a caller varying page sizes only ever refills one document's map. */
  private readonly perDocument = 64;

  of(
    scope: LimitsScope,
    schema: GraphQLSchema,
    document: DocumentNode,
    variables: Record<string, unknown> | undefined,
    operationName: string | undefined,
    estimate: () => OperationCost | GraphQLError,
  ): OperationCost | GraphQLError {
    let documents = this.byDocument.get(schema);
    if (!documents) this.byDocument.set(schema, (documents = new WeakMap()));
    let entry = documents.get(document);
    if (!entry) documents.set(document, (entry = { inputs: costInputs(document), costs: new Map() }));
    const key = JSON.stringify([scope, operationName ?? null, entry.inputs.map(({ name, count }) => inputValue(variables?.[name], count))]);
    let cost = entry.costs.get(key);
    if (cost === undefined) {
      cost = estimate();
      if (entry.costs.size >= this.perDocument) entry.costs.clear();
      entry.costs.set(key, cost);
    }
    return cost;
  }
}

interface VariableInput {
  name: string;
  /** Only the number of items matters (`_entities`' representations). */
  count: boolean;
}

const costMemo = new CostMemo();

const SEARCH_ARGUMENT_NAMES = new Set(Object.values(SEARCH_EXPRESSION_ARGUMENTS));

/** A variable's part of the key: absent and null stay apart, a list counts by its length where only that is read. */
function inputValue(value: unknown, count: boolean): unknown {
  if (value === undefined) return ["absent"];
  return count && Array.isArray(value) ? ["items", value.length] : value;
}

/** The variables whose values the estimate reads, in a stable order. */
function costInputs(document: DocumentNode): VariableInput[] {
  const inputs = new Map<string, boolean>();
  const add = (value: ValueNode, count: boolean) => {
    visit(value, {
      Variable(node) {
        // A variable read in full somewhere is keyed in full.
        inputs.set(node.name.value, (inputs.get(node.name.value) ?? true) && count);
      },
    });
  };
  visit(document, {
    Directive(node) {
      for (const argument of node.arguments ?? []) add(argument.value, false);
    },
    Argument(node) {
      // A Search expression's criteria price its root field (SEARCH_CRITERION_COSTS).
      if ((PAGE_SIZE_ARGUMENTS as readonly string[]).includes(node.name.value) || SEARCH_ARGUMENT_NAMES.has(node.name.value)) add(node.value, false);
      else if (node.name.value === "representations") add(node.value, true);
    },
  });
  return [...inputs.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, count]) => ({ name, count }));
}

/**
 * Variables coerced to their declared types before anything else: a wrong one is the caller's
 * input (BAD_USER_INPUT naming `$variable.path`), not an operation too large to estimate.
 */
function checkVariables(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName: string | undefined): void {
  const operation = getOperationAST(document, operationName);
  if (!operation) return;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 20 });
  if (!coerced.errors) return;
  const problems = coerced.errors.map((error) => {
    const match = /^Variable "\$(\w+)"(?: got invalid value .*? at "([^"]+)")?/.exec(error.message);
    const field = `$${match?.[2] ?? match?.[1] ?? ""}`;
    return { field, rule: "type", message: error.message };
  });
  throw badInput(coerced.errors[0].message, problems);
}

/** graphql-armor's rules report through the validation context instead of throwing out of validate(). */
const reportAs = (refusal: "TOO_MANY_ALIASES" | "TOO_MANY_DIRECTIVES" | "TOO_DEEP") => ({
  propagateOnRejection: false,
  exposeLimits: true,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(edgeError(refusal, error.message.replace(/^Syntax Error: /, ""))),
  ],
});

/** At most `max` root fields in a mutation operation (fragments at the root expanded). */
function maxMutationsRule(max: number): ValidationRule {
  return (context) => ({
    OperationDefinition(node: OperationDefinitionNode) {
      if (node.operation !== "mutation") return;
      const fragments = new Map<string, FragmentDefinitionNode>();
      for (const definition of context.getDocument().definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
      }
      const seen = new Set<string>();
      const count = (selectionSet: SelectionSetNode): number => {
        let fields = 0;
        for (const selection of selectionSet.selections) {
          if (selection.kind === Kind.FIELD) {
            if (selection.name.value !== "__typename") fields++;
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            fields += count(selection.selectionSet);
          } else if (!seen.has(selection.name.value)) {
            // A fragment spread twice at the root selects the same fields: they merge.
            seen.add(selection.name.value);
            const fragment = fragments.get(selection.name.value);
            if (fragment) fields += count(fragment.selectionSet);
          }
        }
        return fields;
      };
      const mutations = count(node.selectionSet);
      if (mutations > max) {
        context.reportError(edgeError("TOO_MANY_MUTATIONS", `The operation runs ${mutations} mutations; the limit is ${max} per operation`, { nodes: [node] }));
      }
    },
  });
}

/** Rules that depend on the document only, so a validated document may be cached. */
export function limitValidationRules(scope: LimitsScope): ValidationRule[] {
  const limits = limitsFor(scope);
  return [
    maxAliasesRule({ n: limits.maxAliases, ...reportAs("TOO_MANY_ALIASES") }) as ValidationRule,
    maxDirectivesRule({ n: limits.maxDirectives, ...reportAs("TOO_MANY_DIRECTIVES") }) as ValidationRule,
    // The standard introspection query is 15 levels deep (nested ofType); introspection is
    // bounded by the cost estimate instead, with this schema's sizes.
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, ignoreIntrospection: true, ...reportAs("TOO_DEEP") }) as ValidationRule,
    maxMutationsRule(limits.maxMutations),
  ];
}

export const parseOptionsFor = (scope: LimitsScope) => ({ maxTokens: limitsFor(scope).maxTokens });

export const maxSelectionsFor = (scope: LimitsScope) => limitsFor(scope).maxSelections;

/**
 * The cost depends on variables (page sizes), and Apollo caches validated documents by their
 * text: so it is checked per request, once the operation is resolved, not as a validation rule.
 * Text no database can store (NUL, lone surrogates) is refused at the same point, before any
 * resolver runs.
 */
function costLimitPlugin<TContext extends BaseContext>(scope: LimitsScope): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        // A text's parsing, its validation, its estimate, and its planning and execution each on a
        // turn of the loop to itself (core/event-loop-turns.ts): together they ran 200 ms for a text
        // of 30 aliased searches, and no other request was read meanwhile.
        async parsingDidStart() {
          await queuedTurn();
        },
        async validationDidStart() {
          await queuedTurn();
        },
        async didResolveOperation({ schema, document, request, operationName }) {
          await queuedTurn();
          checkOperationText(document, request.variables);
          checkOperationCost(scope, schema, document, request.variables, operationName ?? undefined);
        },
        async responseForOperation() {
          await queuedTurn();
          return null;
        },
      };
    },
  };
}

/**
 * Parses and validates an operation with every limit of the edge, as the gateway's Apollo Server
 * does: for operations the edge runs itself (graphql-ws). Refusals carry `extensions.code`; an
 * accepted operation comes with its estimated cost (what a subscription is admitted and charged by).
 */
export function checkEdgeOperation(
  schema: GraphQLSchema,
  request: { query: string; variables?: Record<string, unknown>; operationName?: string },
  disclosure: { introspection: boolean; suggestions: boolean },
  /** Documents already parsed and validated against this schema and disclosure, by their text. */
  validated?: ValidatedDocuments,
): { document: DocumentNode; cost: number } | { errors: GraphQLError[] } {
  // Over HTTP the body parser has bounded this already; a WebSocket message comes here directly.
  if (nestsDeeperThan(request.variables)) {
    return { errors: [edgeError("BAD_USER_INPUT", `The variables nest deeper than ${MAX_JSON_DEPTH} levels`)] };
  }
  let document = validated?.get(request.query);
  if (!document) {
    const checked = parseAndValidate(schema, request.query, disclosure);
    if ("errors" in checked) return checked;
    document = checked.document;
    validated?.set(request.query, document);
  }
  let cost: number;
  try {
    checkOperationText(document, request.variables);
    cost = checkOperationCost("edge", schema, document, request.variables, request.operationName);
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [error] };
    throw error;
  }
  return { document, cost };
}

/**
 * Parsed and validated documents by their text, the oldest forgotten beyond `capacity` or beyond
 * `budget` characters of text in all. A document is never changed once parsed, so every
 * operation with the same text (100,000 subscribers of one client's subscription) shares one,
 * instead of each holding its own tree with every token's location.
 *
 * The budget is what bounds the memory: a parsed document keeps every token with its location,
 * about 500 bytes of heap a token, so a text of the edge's 3,000 tokens weighs about 1.5 MB and
 * a count alone let a token holder pin 500 such texts (750 MB) with as many harmless requests.
 * Counted in characters (a token takes one at least, most take several), 100,000 characters
 * hold a few tens of megabytes at worst, and far more than the few dozen texts real callers repeat.
 */
export class ValidatedDocuments<Entry = DocumentNode> {
  private readonly documents = new Map<string, Entry>();
  private held = 0;

  /** At most `capacity` documents of at most `maxLength` characters each and `budget` characters in all: the cache stays small whatever clients send. */
  constructor(
    private readonly capacity = 1000,
    private readonly maxLength = 10_000,
    private readonly budget = 100_000,
  ) {}

  get(query: string): Entry | undefined {
    return this.documents.get(query);
  }

  set(query: string, document: Entry): void {
    if (query.length > this.maxLength || query.length > this.budget) return;
    if (this.documents.delete(query)) this.held -= query.length;
    while (this.documents.size && (this.documents.size >= this.capacity || this.held + query.length > this.budget)) {
      const oldest = this.documents.keys().next().value!;
      this.documents.delete(oldest);
      this.held -= oldest.length;
    }
    this.documents.set(query, document);
    this.held += query.length;
  }

  /** How many documents, and how many characters of text, the cache holds. */
  get size(): { documents: number; characters: number } {
    return { documents: this.documents.size, characters: this.held };
  }
}

function parseAndValidate(
  schema: GraphQLSchema,
  query: string,
  disclosure: { introspection: boolean; suggestions: boolean },
): { document: DocumentNode } | { errors: GraphQLError[] } {
  let document: DocumentNode;
  try {
    document = parse(query, parseOptionsFor("edge"));
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : "The operation could not be parsed";
    return { errors: [edgeError("GRAPHQL_PARSE_FAILED", message)] };
  }
  const rules = [...specifiedRules, ...(disclosure.introspection ? [] : [NoSchemaIntrospectionCustomRule]), ...limitValidationRules("edge")];
  const invalid = validate(schema, document, rules, { maxErrors: 20 });
  if (invalid.length) {
    return {
      // The limits' own refusals keep their reason.
      errors: invalid.map((error) =>
        edgeError("GRAPHQL_VALIDATION_FAILED", disclosure.suggestions ? error.message : withoutSuggestions(error.message), { nodes: error.nodes, extensions: error.extensions }),
      ),
    };
  }
  return { document };
}

/** Apollo's own rule for hiding schema details (plugin/disableSuggestions). */
const withoutSuggestions = (message: string) => message.replace(/ ?Did you mean(.+?)\?$/, "");

/** The Apollo Server options that enforce every limit of the scope. */
export function apolloLimitOptions<TContext extends BaseContext>(scope: LimitsScope) {
  return {
    parseOptions: parseOptionsFor(scope),
    maxRecursiveSelections: maxSelectionsFor(scope),
    validationRules: limitValidationRules(scope),
    limitPlugins: [costLimitPlugin<TContext>(scope)],
  } satisfies Partial<ApolloServerOptions<TContext>> & { limitPlugins: ApolloServerPlugin<TContext>[] };
}

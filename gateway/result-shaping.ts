import { createRequire } from "node:module";

/**
 * @apollo/gateway shapes every answer it returns (`computeResponse` in its resultShaping module):
 * it walks the operation over the subgraphs' data, field by field, to drop what the client did not
 * ask for, apply `@skip`/`@include`, check each leaf against the API schema (an `@inaccessible`
 * enum value must not reach a client) and null out a non-null field the subgraphs left null. Its
 * walk reads every directive, type and schema member through the federation internals' object
 * model and re-exported getters on each field of each record: about 0.3 ms of a booking's answer
 * and most of what the gateway adds over the subgraph on a long page.
 *
 * Here the same walk is planned once per operation (the gateway reuses one `Operation` per parsed
 * document: operation-cache.ts) and then runs over plain arrays. It produces the answer only when
 * nothing is wrong: at the first thing the gateway's own walk would report or treat specially (a
 * null in a non-null field, a leaf the schema refuses, an unknown `__typename`, introspection, a
 * malformed `@skip`/`@include` variable, data of the wrong shape) it stops and the gateway's own
 * `computeResponse` shapes the whole answer again, so every error and its path stays exactly the
 * gateway's. The gateway reads the function from the module's exports at each call, so replacing
 * the export is the seam, as for `operationFromDocument`.
 */

// The federation internals' object model, as far as this walk reads it.
interface NamedType {
  kind: "ObjectType" | "InterfaceType" | "UnionType" | "ScalarType" | "EnumType" | "InputObjectType";
  name: string;
  value?(name: string): unknown;
}
interface WrapperType {
  kind: "NonNullType" | "ListType";
  ofType: OutputType;
}
type OutputType = NamedType | WrapperType;
interface Schema {
  type(name: string): NamedType | undefined;
  skipDirective(): unknown;
  includeDirective(): unknown;
  booleanType(): NamedType;
  intType(): NamedType;
  floatType(): NamedType;
  idType(): NamedType;
  stringType(): NamedType;
  schemaDefinition: { rootType(kind: string): NamedType | undefined };
}
interface Directive {
  arguments(): { if?: unknown };
}
interface Element {
  appliedDirectivesOf(definition: unknown): Directive[];
}
interface FieldElement extends Element {
  name: string;
  responseName(): string;
  definition: { type: OutputType; isSchemaIntrospectionField(): boolean };
}
interface FragmentElement extends Element {
  typeCondition?: NamedType;
}
interface Selection {
  kind: "FieldSelection" | "FragmentSelection";
  element: FieldElement | FragmentElement;
  selectionSet?: SelectionSet;
}
interface SelectionSet {
  selections(): readonly Selection[];
}
interface Operation {
  schema(): Schema;
  rootKind: string;
  selectionSet: SelectionSet;
  collectDefaultedVariableValues(): Record<string, unknown>;
}
interface ShapingInput {
  operation: Operation;
  variables?: Record<string, unknown>;
  input: Record<string, unknown> | null | undefined;
  introspectionHandling: unknown;
}
type ComputeResponse = ((input: ShapingInput) => { data: unknown; errors: unknown[] }) & { [PATCHED]?: true };
interface Internals {
  isSubtype(type: NamedType, maybeSubType: NamedType): boolean;
  isValidLeafValue(schema: Schema, value: unknown, type: NamedType): boolean;
  typenameFieldName: string;
  Variable: new (...args: never[]) => { name: string };
}

/** `@skip(if:)` or `@include(if:)` on a selection: a literal or a variable. */
interface Condition {
  skip: boolean;
  variable?: string;
  literal?: unknown;
}

type Step = FieldStep | TypenameStep | FragmentStep;
interface FieldStep {
  kind: "field";
  conditions?: Condition[];
  responseName: string;
  value: ValueShape;
}
interface TypenameStep {
  kind: "typename";
  conditions?: Condition[];
  responseName: string;
}
interface FragmentStep {
  kind: "fragment";
  conditions?: Condition[];
  typeCondition?: NamedType;
  steps: Step[];
  /** typeConditionApplies by the input's `__typename` (a string) or the parent type. */
  applies: Map<string | NamedType, boolean>;
}
/** A field's value by its type; `leafy` when the field has no selection set (its type ends in a leaf). */
type ValueShape =
  | { kind: "nonNull"; leafy: boolean; of: ValueShape }
  | { kind: "list"; leafy: boolean; of: ValueShape }
  | { kind: "composite"; leafy: false; type: NamedType; steps: Step[] }
  | { kind: "leaf"; leafy: true; valid: (value: unknown) => boolean };

/** Thrown inside the walk to hand the answer to the gateway's own shaping. */
const GIVE_UP = Symbol("give up");
const PATCHED = Symbol.for("activities.fastResultShaping");
const counts = { planned: 0, shaped: 0, handedBack: 0 };
let installed: { fast: ComputeResponse; original: ComputeResponse } | undefined;
/** The API schemas of gateways that run with this shaping off (PERFORMANCE_SHORTCUTS_OFF=result-shaping): their answers go to the gateway's own. */
const plainSchemas = new WeakSet<object>();

/** Leaves every answer of operations on this (federation) API schema to the gateway's own shaping, whoever installed this one. */
export function shapeGatewayResultsPlainly(apiSchema: object): void {
  plainSchemas.add(apiSchema);
}

interface Plan {
  steps: Step[];
  rootType: NamedType;
  defaults: Record<string, unknown>;
}

export function shapeGatewayResultsFast(): void {
  const require = createRequire(import.meta.url);
  const shaping = require("@apollo/gateway/dist/resultShaping.js") as { computeResponse: ComputeResponse };
  if (shaping.computeResponse[PATCHED]) return;
  const internals = require("@apollo/federation-internals") as Internals;
  const original = shaping.computeResponse;
  const plans = new WeakMap<Operation, Plan | null>();

  const fast: ComputeResponse = (args) => {
    const { operation, input } = args;
    if (!input || plainSchemas.has(operation.schema())) return original(args);
    let plan = plans.get(operation);
    if (plan === undefined) {
      plan = planOperation(operation, internals);
      plans.set(operation, plan);
      counts.planned++;
    }
    if (plan) {
      try {
        const data = Object.create(null) as Record<string, unknown>;
        walk(plan.steps, input, data, plan.rootType, { plan, variables: args.variables, internals, schema: operation.schema() });
        counts.shaped++;
        return { data, errors: [] };
      } catch (error) {
        if (error !== GIVE_UP) throw error;
      }
    }
    counts.handedBack++;
    return original(args);
  };
  fast[PATCHED] = true;
  shaping.computeResponse = fast;
  installed = { fast, original };
}

/** The installed shaping and the gateway's own, side by side (tests compare their answers). */
export function installedShaping(): { fast: ComputeResponse; original: ComputeResponse } {
  shapeGatewayResultsFast();
  return installed!;
}

/** How often answers were shaped here and handed back to the gateway's own shaping (tests read it). */
export function fastShapingCounts(): { planned: number; shaped: number; handedBack: number } {
  return { ...counts };
}

/** The walk's plan for an operation, or null when its shape is one only the gateway's own walk handles. */
function planOperation(operation: Operation, internals: Internals): Plan | null {
  const schema = operation.schema();
  const rootType = schema.schemaDefinition.rootType(operation.rootKind);
  if (!rootType) return null;
  const leafCheckers = new Map<NamedType, (value: unknown) => boolean>();
  const planValue = (type: OutputType, selectionSet: SelectionSet | undefined): ValueShape | null => {
    switch (type.kind) {
      case "NonNullType": {
        const of = planValue(type.ofType, selectionSet);
        return of && { kind: "nonNull", leafy: of.leafy, of };
      }
      case "ListType": {
        const of = planValue(type.ofType, selectionSet);
        return of && { kind: "list", leafy: of.leafy, of };
      }
      case "ObjectType":
      case "InterfaceType":
      case "UnionType": {
        if (!selectionSet) return null;
        const steps = planSelections(selectionSet);
        return steps && { kind: "composite", leafy: false, type, steps };
      }
      case "ScalarType":
      case "EnumType": {
        if (selectionSet) return null;
        let valid = leafCheckers.get(type);
        if (!valid) leafCheckers.set(type, (valid = leafChecker(schema, type, internals)));
        return { kind: "leaf", leafy: true, valid };
      }
      default:
        return null;
    }
  };
  const planSelections = (selectionSet: SelectionSet): Step[] | null => {
    const steps: Step[] = [];
    for (const selection of selectionSet.selections()) {
      const conditions = conditionsOf(selection.element, schema, internals);
      if (selection.kind === "FieldSelection") {
        const field = selection.element as FieldElement;
        if (field.definition.isSchemaIntrospectionField()) return null;
        if (field.name === internals.typenameFieldName) {
          steps.push({ kind: "typename", conditions, responseName: field.responseName() });
          continue;
        }
        const value = planValue(field.definition.type, selection.selectionSet);
        if (!value) return null;
        steps.push({ kind: "field", conditions, responseName: field.responseName(), value });
      } else {
        if (!selection.selectionSet) return null;
        const inner = planSelections(selection.selectionSet);
        if (!inner) return null;
        steps.push({ kind: "fragment", conditions, typeCondition: (selection.element as FragmentElement).typeCondition, steps: inner, applies: new Map() });
      }
    }
    return steps;
  };
  const steps = planSelections(operation.selectionSet);
  return steps && { steps, rootType, defaults: operation.collectDefaultedVariableValues() };
}

/** The selection's first `@skip` and first `@include`, as the gateway reads them; undefined when it has neither. */
function conditionsOf(element: Element, schema: Schema, internals: Internals): Condition[] | undefined {
  const conditions: Condition[] = [];
  for (const [skip, definition] of [
    [true, schema.skipDirective()],
    [false, schema.includeDirective()],
  ] as const) {
    const directive = element.appliedDirectivesOf(definition)[0];
    if (!directive) continue;
    const value = directive.arguments().if;
    if (value instanceof internals.Variable) conditions.push({ skip, variable: value.name });
    else conditions.push({ skip, literal: value });
  }
  return conditions.length ? conditions : undefined;
}

/** The gateway's `isValidLeafValue` for one type, decided once: the same answer for every value. */
function leafChecker(schema: Schema, type: NamedType, internals: Internals): (value: unknown) => boolean {
  const integer = /^-?(?:0|[1-9][0-9]*)$/;
  if (type.kind === "EnumType") return (value) => typeof value === "string" && type.value!(value) !== undefined;
  if (type === schema.booleanType()) return (value) => typeof value === "boolean";
  if (type === schema.intType() || type === schema.idType()) {
    const acceptsStrings = type === schema.idType();
    return (value) => (typeof value === "number" ? Number.isFinite(value) && integer.test(String(value)) : typeof value === "string" && acceptsStrings);
  }
  if (type === schema.floatType()) return (value) => typeof value === "number" && Number.isFinite(value);
  if (type === schema.stringType()) return (value) => typeof value === "string";
  // Custom scalars: whatever the gateway decides (it accepts any value).
  return (value) => internals.isValidLeafValue(schema, value, type);
}

interface WalkState {
  plan: Plan;
  variables: Record<string, unknown> | undefined;
  internals: Internals;
  schema: Schema;
}

function skipped(conditions: Condition[], state: WalkState): boolean {
  let skip = false;
  let include = true;
  for (const condition of conditions) {
    let value = condition.literal;
    if (condition.variable !== undefined) {
      const name = condition.variable;
      value = state.variables && Object.hasOwn(state.variables, name) ? state.variables[name] : state.plan.defaults[name];
      if (typeof value !== "boolean") throw GIVE_UP;
    }
    if (condition.skip) skip = Boolean(value);
    else include = Boolean(value);
  }
  return skip || !include;
}

function walk(steps: Step[], input: Record<string, unknown>, output: Record<string, unknown>, parentType: NamedType, state: WalkState): void {
  const typenameField = state.internals.typenameFieldName;
  for (const step of steps) {
    if (step.conditions && skipped(step.conditions, state)) continue;
    if (step.kind === "field") {
      const inputValue = Object.hasOwn(input, step.responseName) ? (input[step.responseName] ?? null) : null;
      output[step.responseName] = value(step.value, output[step.responseName], inputValue, state);
    } else if (step.kind === "typename") {
      if (output[step.responseName] !== undefined) continue;
      let name = Object.hasOwn(input, step.responseName) ? (input[step.responseName] ?? null) : null;
      if (name === null && step.responseName !== typenameField) name = input[typenameField] ?? null;
      const type = typeof name === "string" ? (state.schema.type(name) ?? parentType) : parentType;
      if (type.kind !== "ObjectType") throw GIVE_UP;
      output[step.responseName] = type.name;
    } else {
      const typename = input[typenameField];
      if (typename !== undefined && typename !== null && typeof typename !== "string") throw GIVE_UP;
      if (applies(step, typename || undefined, parentType, state)) walk(step.steps, input, output, step.typeCondition ?? parentType, state);
    }
  }
}

function applies(step: FragmentStep, typename: string | undefined, parentType: NamedType, state: WalkState): boolean {
  if (!step.typeCondition) return true;
  const key = typename ?? parentType;
  let answer = step.applies.get(key);
  if (answer === undefined) {
    if (typename) {
      const type = state.schema.type(typename);
      answer = !!type && state.internals.isSubtype(step.typeCondition, type);
    } else answer = state.internals.isSubtype(step.typeCondition, parentType);
    // Bounded: a subgraph names at most the schema's types.
    if (step.applies.size < 256) step.applies.set(key, answer);
  }
  return answer;
}

function value(shape: ValueShape, outputValue: unknown, inputValue: unknown, state: WalkState): unknown {
  // A second selection of the same response name: the gateway keeps what the first wrote.
  if (outputValue === null || (outputValue !== undefined && shape.leafy)) return outputValue;
  switch (shape.kind) {
    case "nonNull": {
      const updated = value(shape.of, outputValue, inputValue, state);
      if (updated === null) throw GIVE_UP;
      return updated;
    }
    case "list": {
      if (inputValue === null) return null;
      if (!Array.isArray(inputValue)) throw GIVE_UP;
      if (outputValue !== undefined && (!Array.isArray(outputValue) || outputValue.length !== inputValue.length)) throw GIVE_UP;
      const out = new Array(inputValue.length);
      for (let i = 0; i < inputValue.length; i++) {
        const element: unknown = inputValue[i];
        if (element === undefined) throw GIVE_UP;
        out[i] = value(shape.of, outputValue === undefined ? undefined : (outputValue as unknown[])[i], element, state);
      }
      return out;
    }
    case "composite": {
      if (inputValue === null) return null;
      if (typeof inputValue !== "object" || Array.isArray(inputValue)) throw GIVE_UP;
      if (outputValue !== undefined && typeof outputValue !== "object") throw GIVE_UP;
      const record = inputValue as Record<string, unknown>;
      const typename = record[state.internals.typenameFieldName];
      let type = shape.type;
      if (typename !== undefined) {
        if (typeof typename !== "string") throw GIVE_UP;
        if (typename) {
          const named = state.schema.type(typename);
          if (!named || (named.kind !== "ObjectType" && named.kind !== "InterfaceType" && named.kind !== "UnionType")) throw GIVE_UP;
          type = named;
        }
      }
      const out = (outputValue ?? Object.create(null)) as Record<string, unknown>;
      walk(shape.steps, record, out, type, state);
      return out;
    }
    case "leaf":
      if (inputValue === null) return null;
      if (!shape.valid(inputValue)) throw GIVE_UP;
      return inputValue;
  }
}

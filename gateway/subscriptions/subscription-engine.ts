import {
  GraphQLError,
  Kind,
  print,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { getArgumentValues } from "graphql/execution/values.js";
import type { Caller } from "../../core/caller.js";
import type { Logger } from "../../core/logger.js";
import type { EventChannel } from "../../drizzle/events.js";
import type { EdgeContext } from "../edge-context.js";
import type { EdgeGraph } from "../gateway.js";
import { AsyncQueue } from "./async-queue.js";
import type { EdgeSubscription } from "./edge-subscriptions.js";

export interface SubscriptionRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variableValues: Record<string, unknown>;
  caller: Caller;
  requestId: string;
  acceptLanguage?: string;
}

export interface SubscriptionEngineDeps {
  graph: EdgeGraph;
  events: EventChannel;
  subscriptions: EdgeSubscription[];
  /** A fresh token for the caller for each message; throws when the session is over. */
  delegatedToken: (caller: Caller) => Promise<string>;
  logger: Logger;
}

/**
 * Turns a subscription operation into a stream of results: listens on the field's event channel
 * and, for each event the subscriber may see, runs the subscriber's own selection as an entity
 * query through the gateway.
 */
export class SubscriptionEngine {
  constructor(private readonly deps: SubscriptionEngineDeps) {}

  async subscribe(request: SubscriptionRequest): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const fieldNode = request.operation.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
    if (!fieldNode || request.operation.selectionSet.selections.length !== 1) {
      return failure("A subscription selects exactly one field directly (no fragments at the top level)", "BAD_USER_INPUT");
    }
    const definition = this.deps.subscriptions.find((s) => s.field === fieldNode.name.value);
    const fieldDef = request.schema.getSubscriptionType()?.getFields()[fieldNode.name.value];
    if (!definition || !fieldDef) return failure(`Unknown subscription ${fieldNode.name.value}`, "BAD_USER_INPUT");
    const args = getArgumentValues(fieldDef, fieldNode, request.variableValues);
    try {
      definition.authorize(request.caller, args);
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [error] };
      throw error;
    }
    const query = entityQuery(request.document, request.operation, fieldNode, definition);
    let current: Record<string, unknown> | undefined;
    if (definition.entityArgument) {
      const read = await this.read(request, definition, args[definition.entityArgument] as string | number);
      if (!("entity" in read)) return read;
      current = read.entity;
    }
    const responseKey = fieldNode.alias?.value ?? fieldNode.name.value;
    const logger = this.deps.logger.child({ subscription: definition.field, requestId: request.requestId });

    let stopListening: () => Promise<void> = async () => {};
    const output = new AsyncQueue<ExecutionResult>(() => stopListening());
    const delivery: Delivery = { request, query, responseKey, definition, output, logger };
    // Events are handled one at a time, in arrival order, so messages keep the order of changes.
    let chain = Promise.resolve();
    const onEvent = (payload: unknown) => {
      if (typeof payload !== "object" || payload === null) return;
      const id = definition.match(payload as Record<string, unknown>, args);
      if (id === undefined) return;
      chain = chain.then(() => this.deliver(delivery, id));
    };
    stopListening = await this.deps.events.subscribe(definition.channel, onEvent);
    if (current && definition.entityArgument) {
      // The entity is read again only now that the listener runs: a change made at any moment
      // before is in this read, and any change after brings an event. An entity already final
      // completes the subscription at once.
      const id = args[definition.entityArgument] as string | number;
      chain = chain.then(() => this.deliver(delivery, id));
    }
    return output;
  }

  /** Reads the entity as the subscriber (its state fields only); an error result when they may not, or it does not exist. */
  private async read(request: SubscriptionRequest, definition: EdgeSubscription, id: string | number): Promise<{ entity: Record<string, unknown> } | ExecutionResult> {
    const token = await this.deps.delegatedToken(request.caller);
    const context: EdgeContext = { caller: request.caller, token, requestId: request.requestId, acceptLanguage: request.acceptLanguage };
    const selection = definition.stateFields?.join(" ") ?? "__typename";
    const result = await this.deps.graph.execute<{ entity: Record<string, unknown> }>(
      { query: `query EdgeSubscriptionCheck($id: ${definition.entityQuery.idType}) { entity: ${definition.entityQuery.field}(id: $id) { ${selection} } }`, variables: { id } },
      context,
    );
    if (result.errors?.length || !result.data) return { errors: (result.errors ?? []).map(toGraphQLError) };
    return { entity: result.data.entity };
  }

  private async deliver(delivery: Delivery, id: string | number): Promise<void> {
    const { request, query, responseKey, definition, output, logger } = delivery;
    if (output.isClosed) return;
    let token: string;
    try {
      token = await this.deps.delegatedToken(request.caller);
    } catch {
      output.push({ errors: [new GraphQLError("The session has ended; subscribe again with a new token", { extensions: { code: "UNAUTHENTICATED" } })] });
      await output.close();
      return;
    }
    const context: EdgeContext = { caller: request.caller, token, requestId: request.requestId, acceptLanguage: request.acceptLanguage };
    try {
      const result = await this.deps.graph.execute<{ __entity: Record<string, unknown> | null }>(
        { query, variables: { ...request.variableValues, __entityId: id } },
        context,
      );
      const { entity, state } = splitState(result.data?.__entity ?? null, definition);
      if (state) {
        // The entity as read, not the event, says whether anything changed and whether it is final.
        const seen = JSON.stringify(state);
        if (seen === delivery.lastState && !result.errors?.length) return;
        delivery.lastState = seen;
      }
      output.push({
        data: result.data ? { [responseKey]: entity } : null,
        ...(result.errors?.length ? { errors: result.errors.map(toGraphQLError) } : {}),
      } as ExecutionResult);
      if (state && definition.isFinal?.(state)) await output.close();
    } catch (error) {
      logger.error({ err: error }, "subscription message failed");
      output.push({ errors: [new GraphQLError("Internal server error", { extensions: { code: "INTERNAL_SERVER_ERROR" } })] });
    }
  }
}

/** One subscription's message pipeline, and the state its last message showed. */
interface Delivery {
  request: SubscriptionRequest;
  query: string;
  responseKey: string;
  definition: EdgeSubscription;
  output: AsyncQueue<ExecutionResult>;
  logger: Logger;
  lastState?: string;
}

/** State fields are read under aliases of their own, whatever the subscriber selected. */
const stateAlias = (field: string) => `_edgeState_${field}`;

/** The entity as the subscriber selected it, and its state fields (undefined when it has none or was not read). */
function splitState(raw: Record<string, unknown> | null, definition: EdgeSubscription): { entity: Record<string, unknown> | null; state?: Record<string, unknown> } {
  if (!raw || !definition.stateFields?.length) return { entity: raw };
  const entity = { ...raw };
  const state: Record<string, unknown> = {};
  for (const field of definition.stateFields) {
    state[field] = entity[stateAlias(field)];
    delete entity[stateAlias(field)];
  }
  return { entity, state };
}

/** The subscriber's selection under the entity query, with the fragments and variables it uses. */
function entityQuery(document: DocumentNode, operation: OperationDefinitionNode, field: FieldNode, definition: EdgeSubscription): string {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const usedFragments = new Set<string>();
  const usedVariables = new Set<string>();
  const collect = (node: FieldNode | FragmentDefinitionNode) =>
    visit(node.selectionSet!, {
      FragmentSpread(spread) {
        if (usedFragments.has(spread.name.value)) return;
        usedFragments.add(spread.name.value);
        const fragment = fragments.get(spread.name.value);
        if (fragment) collect(fragment);
      },
      Variable(variable) {
        usedVariables.add(variable.name.value);
      },
    });
  if (field.selectionSet) collect(field);
  const variableDefinitions = (operation.variableDefinitions ?? [])
    .filter((v) => usedVariables.has(v.variable.name.value))
    .map((v) => print(v));
  const stateSelections: FieldNode[] = (definition.stateFields ?? []).map((name) => ({
    kind: Kind.FIELD,
    alias: { kind: Kind.NAME, value: stateAlias(name) },
    name: { kind: Kind.NAME, value: name },
  }));
  const selection = field.selectionSet ? print({ ...field.selectionSet, selections: [...field.selectionSet.selections, ...stateSelections] }) : "";
  const header = [`$__entityId: ${definition.entityQuery.idType}`, ...variableDefinitions].join(", ");
  const fragmentText = [...usedFragments].map((name) => fragments.get(name)).filter(Boolean).map((f) => print(f!)).join("\n");
  return `query EdgeSubscriptionMessage(${header}) { __entity: ${definition.entityQuery.field}(id: $__entityId) ${selection} }\n${fragmentText}`;
}

const failure = (message: string, code: string): ExecutionResult => ({ errors: [new GraphQLError(message, { extensions: { code } })] });

export function toGraphQLError(error: { message: string; path?: readonly (string | number)[]; extensions?: Record<string, unknown> }): GraphQLError {
  return new GraphQLError(error.message, { path: error.path, extensions: error.extensions });
}

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
 * Turns a subscription operation into a stream of results: for each event a subscriber may see,
 * runs the subscriber's own selection as an entity query through the gateway.
 *
 * One listener per event channel serves every subscriber of this process: it asks each
 * subscription field which entity an event is about and hands the event only to the subscribers
 * of that entity (an index by entity id), so an event costs the same whether 10 or 100,000 others
 * are subscribed to other entities. Fields without an entity argument (one stream for everyone
 * allowed) hand each event they match to all their subscribers.
 */
export class SubscriptionEngine {
  private readonly listeners = new Map<string, ChannelListener>();
  /** The entity query of a subscription field: subscribers of one document (graphql-ws shares validated documents by text) share its text too. */
  private readonly entityQueries = new WeakMap<FieldNode, string>();

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
    let query = this.entityQueries.get(fieldNode);
    if (query === undefined) this.entityQueries.set(fieldNode, (query = entityQuery(request.document, request.operation, fieldNode, definition)));
    const entityId = definition.entityArgument ? (args[definition.entityArgument] as string | number) : undefined;
    if (entityId !== undefined) {
      const read = await this.read(request, definition, entityId);
      if (!("entity" in read)) return read;
    }

    const listener = this.listenerFor(definition.channel);
    const subscriber: Subscriber = {
      caller: request.caller,
      requestId: request.requestId,
      acceptLanguage: request.acceptLanguage,
      variableValues: request.variableValues,
      query,
      responseKey: fieldNode.alias?.value ?? fieldNode.name.value,
      definition,
      entityId,
      output: new AsyncQueue<ExecutionResult>(() => listener.remove(subscriber)),
      chain: Promise.resolve(),
    };
    listener.add(subscriber);
    try {
      await listener.ready;
    } catch (error) {
      await subscriber.output.close();
      throw error;
    }
    if (entityId !== undefined) {
      // The entity is read again only now that the listener runs for this subscriber: a change
      // made at any moment before is in this read, and any change after brings an event. An
      // entity already final completes the subscription at once.
      this.enqueue(subscriber, entityId);
    }
    return subscriber.output;
  }

  /** Subscribers held, entities they watch, and channel listeners: what a process carries for its open subscriptions. */
  stats(): { subscribers: number; entities: number; listeners: number } {
    let subscribers = 0;
    let entities = 0;
    for (const listener of this.listeners.values()) {
      for (const index of listener.fields.values()) {
        subscribers += index.everyone.size;
        entities += index.byEntity.size;
        for (const set of index.byEntity.values()) subscribers += set.size;
      }
    }
    return { subscribers, entities, listeners: this.listeners.size };
  }

  /** The channel's one listener, started by its first subscriber; a listener that failed to start is tried again by the next. */
  private listenerFor(channel: string): ChannelListener {
    let listener = this.listeners.get(channel);
    if (listener) return listener;
    const fields = new Map<string, FieldIndex>();
    for (const definition of this.deps.subscriptions) {
      if (definition.channel === channel) fields.set(definition.field, { definition, byEntity: new Map(), everyone: new Set() });
    }
    const onEvent = (payload: unknown) => {
      if (typeof payload !== "object" || payload === null) return;
      for (const index of fields.values()) {
        const id = index.definition.match(payload as Record<string, unknown>);
        if (id === undefined) continue;
        const subscribers = index.definition.entityArgument ? index.byEntity.get(id) : index.everyone;
        if (subscribers) for (const subscriber of subscribers) this.enqueue(subscriber, id);
      }
    };
    const created: ChannelListener = {
      fields,
      ready: this.deps.events.subscribe(channel, onEvent).then(
        () => undefined,
        (error: unknown) => {
          if (this.listeners.get(channel) === created) this.listeners.delete(channel);
          throw error;
        },
      ),
      add(subscriber) {
        const index = fields.get(subscriber.definition.field)!;
        if (subscriber.entityId === undefined) {
          index.everyone.add(subscriber);
          return;
        }
        let set = index.byEntity.get(subscriber.entityId);
        if (!set) index.byEntity.set(subscriber.entityId, (set = new Set()));
        set.add(subscriber);
      },
      remove(subscriber) {
        const index = fields.get(subscriber.definition.field)!;
        if (subscriber.entityId === undefined) {
          index.everyone.delete(subscriber);
          return;
        }
        const set = index.byEntity.get(subscriber.entityId);
        if (!set) return;
        set.delete(subscriber);
        if (!set.size) index.byEntity.delete(subscriber.entityId);
      },
    };
    // A subscriber waiting on a listener that failed must not also leave an unhandled rejection.
    created.ready.catch(() => undefined);
    this.listeners.set(channel, created);
    return created;
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

  /**
   * Events are handled one at a time per subscriber, in arrival order, so messages keep the order
   * of changes. A message reads the entity as it is when it runs, so an event for the entity whose
   * message has not started yet is already covered by it and adds nothing.
   */
  private enqueue(subscriber: Subscriber, id: string | number): void {
    if (subscriber.output.isClosed || subscriber.queued === id) return;
    subscriber.queued = id;
    subscriber.chain = subscriber.chain.then(() => {
      if (subscriber.queued === id) subscriber.queued = undefined;
      return this.deliver(subscriber, id);
    });
  }

  private async deliver(subscriber: Subscriber, id: string | number): Promise<void> {
    const { query, responseKey, definition, output } = subscriber;
    if (output.isClosed) return;
    let token: string;
    try {
      token = await this.deps.delegatedToken(subscriber.caller);
    } catch {
      output.push({ errors: [new GraphQLError("The session has ended; subscribe again with a new token", { extensions: { code: "UNAUTHENTICATED" } })] });
      await output.close();
      return;
    }
    const context: EdgeContext = { caller: subscriber.caller, token, requestId: subscriber.requestId, acceptLanguage: subscriber.acceptLanguage };
    try {
      const result = await this.deps.graph.execute<{ __entity: Record<string, unknown> | null }>(
        { query, variables: { ...subscriber.variableValues, __entityId: id } },
        context,
      );
      const { entity, state } = splitState(result.data?.__entity ?? null, definition);
      if (state) {
        // The entity as read, not the event, says whether anything changed and whether it is final.
        const seen = JSON.stringify(state);
        if (seen === subscriber.lastState && !result.errors?.length) return;
        subscriber.lastState = seen;
      }
      output.push({
        data: result.data ? { [responseKey]: entity } : null,
        ...(result.errors?.length ? { errors: result.errors.map(toGraphQLError) } : {}),
      } as ExecutionResult);
      if (state && definition.isFinal?.(state)) await output.close();
    } catch (error) {
      // The logger's child is made only here: an idle subscriber should not carry one.
      this.deps.logger.child({ subscription: definition.field, requestId: subscriber.requestId }).error({ err: error }, "subscription message failed");
      output.push({ errors: [new GraphQLError("Internal server error", { extensions: { code: "INTERNAL_SERVER_ERROR" } })] });
    }
  }
}

/**
 * One open subscription: what its messages need, and nothing of the operation it came from
 * (kept small: a process holds one per subscriber).
 */
interface Subscriber {
  caller: Caller;
  requestId: string;
  acceptLanguage?: string;
  variableValues: Record<string, unknown>;
  query: string;
  responseKey: string;
  definition: EdgeSubscription;
  /** The entity it watches; undefined for a field that streams every matching event. */
  entityId?: string | number;
  output: AsyncQueue<ExecutionResult>;
  chain: Promise<void>;
  /** The entity whose message is queued and not started. */
  queued?: string | number;
  /** The state its last message showed. */
  lastState?: string;
}

/** The subscribers of one field, by the entity they watch. */
interface FieldIndex {
  definition: EdgeSubscription;
  byEntity: Map<string | number, Set<Subscriber>>;
  everyone: Set<Subscriber>;
}

interface ChannelListener {
  fields: Map<string, FieldIndex>;
  /** Settles once the channel is listened to (LISTEN has started). */
  ready: Promise<void>;
  add(subscriber: Subscriber): void;
  remove(subscriber: Subscriber): void;
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

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
import { edgeError } from "../../core/edge-refusals.js";
import type { Logger } from "../../core/logger.js";
import type { EventChannel } from "../../drizzle/events.js";
import type { EdgeContext } from "../edge-context.js";
import type { EdgeGraph, OperationResult } from "../gateway.js";
import { checkOperationCost } from "../operation-limits.js";
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
  /** The operation's estimated cost (checkEdgeOperation's); estimated here when not given. */
  cost?: number;
}

/**
 * The account cost budget, as subscriptions use it: a subscription is admitted by the cost of its
 * operation when it starts (which pays for its first message, the current state), and each later
 * message is charged that cost again.
 */
export interface SubscriptionCosts {
  /** Undefined when the caller may spend `points` now; otherwise the refusal to send (TOO_MANY_REQUESTS). */
  admit(caller: Caller, points: number): Promise<GraphQLError | undefined>;
  /**
   * Spends `points` for a message already on its way: never refused, even past the budget, since
   * a state change is never dropped; the debt refuses the account's later operations instead.
   */
  charge(caller: Caller, points: number): void;
}

export interface SubscriptionEngineDeps {
  graph: EdgeGraph;
  events: EventChannel;
  subscriptions: EdgeSubscription[];
  /** A fresh token for the caller for each message; throws when the session is over. */
  delegatedToken: (caller: Caller) => Promise<string>;
  logger: Logger;
  /** The account cost budget; without it subscriptions are admitted and delivered free. */
  costs?: SubscriptionCosts;
}

/**
 * Subscribers served between two yields to the event loop: an event with thousands of subscribers
 * is handed out in slices, so the requests and timers of everybody else run in between (one
 * account's 2,300 subscribers of one booking once held the loop for seconds). Each slice is small
 * work: a message pushed to a subscriber, which graphql-ws serialises and writes.
 */
export const FAN_OUT_BATCH = 100;

/**
 * Turns a subscription operation into a stream of results: for each event a subscriber may see,
 * runs the subscriber's own selection as an entity query through the gateway.
 *
 * One listener per event channel serves every subscriber of this process: it asks each
 * subscription field which entity an event is about and hands the event only to the subscribers
 * of that entity (an index by entity id), so an event costs the same whether 10 or 100,000 others
 * are subscribed to other entities. Fields without an entity argument (one stream for everyone
 * allowed) hand each event they match to all their subscribers.
 *
 * Subscribers of one entity who would read the same thing share one read per event: the same
 * caller (account, organisation, roles and scopes, which are all the graph's rules look at), the
 * same entity query text, the same variables and the same Accept-Language make a selection group,
 * whose one query's result goes to each of its members. Before, every subscriber ran its own
 * query, so one account's 2,300 identical subscriptions made 2,300 queries at one status change.
 */
export class SubscriptionEngine {
  private readonly listeners = new Map<string, ChannelListener>();
  /** The entity query of a subscription field: subscribers of one document (graphql-ws shares validated documents by text) share its text too. */
  private readonly entityQueries = new WeakMap<FieldNode, string>();

  constructor(private readonly deps: SubscriptionEngineDeps) {}

  /** The cost budget's word on a subscription of `points` (undefined: admitted, also when there is no budget). */
  async admit(caller: Caller, points: number): Promise<GraphQLError | undefined> {
    return this.deps.costs?.admit(caller, points);
  }

  async subscribe(request: SubscriptionRequest): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    const fieldNode = request.operation.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
    if (!fieldNode || request.operation.selectionSet.selections.length !== 1) {
      return failure("A subscription selects exactly one field directly (no fragments at the top level)");
    }
    const definition = this.deps.subscriptions.find((s) => s.field === fieldNode.name.value);
    const fieldDef = request.schema.getSubscriptionType()?.getFields()[fieldNode.name.value];
    if (!definition || !fieldDef) return failure(`Unknown subscription ${fieldNode.name.value}`);
    const args = getArgumentValues(fieldDef, fieldNode, request.variableValues);
    let cost: number;
    try {
      definition.authorize(request.caller, args);
      cost = request.cost ?? checkOperationCost("edge", request.schema, request.document, request.variableValues, request.operation.name?.value);
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
      cost,
      messages: 0,
      output: new AsyncQueue<ExecutionResult>(() => listener.remove(subscriber)),
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
      // entity already final completes the subscription at once. The read is its group's: the
      // members who already saw this state get nothing from it.
      this.enqueue(subscriber.group!, entityId);
    }
    return subscriber.output;
  }

  /** Subscribers held, entities they watch, and channel listeners: what a process carries for its open subscriptions. */
  stats(): { subscribers: number; entities: number; listeners: number } {
    let subscribers = 0;
    let entities = 0;
    for (const listener of this.listeners.values()) {
      for (const index of listener.fields.values()) {
        for (const group of index.everyone.values()) subscribers += group.members.size;
        entities += index.byEntity.size;
        for (const groups of index.byEntity.values()) for (const group of groups.values()) subscribers += group.members.size;
      }
    }
    return { subscribers, entities, listeners: this.listeners.size };
  }

  /** The channel's one listener, started by its first subscriber; a listener that failed to start is tried again by the next. */
  private listenerFor(channel: string): ChannelListener {
    const listener = this.listeners.get(channel);
    if (listener) return listener;
    const fields = new Map<string, FieldIndex>();
    for (const definition of this.deps.subscriptions) {
      if (definition.channel === channel) fields.set(definition.field, { definition, byEntity: new Map(), everyone: new Map() });
    }
    const onEvent = (payload: unknown) => {
      if (typeof payload !== "object" || payload === null) return;
      for (const index of fields.values()) {
        const id = index.definition.match(payload as Record<string, unknown>);
        if (id === undefined) continue;
        const groups = index.definition.entityArgument ? index.byEntity.get(id) : index.everyone;
        if (groups) void this.inBatches([...groups.values()], (group) => this.enqueue(group, id));
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
        let groups = index.everyone;
        if (subscriber.entityId !== undefined) {
          let byKey = index.byEntity.get(subscriber.entityId);
          if (!byKey) index.byEntity.set(subscriber.entityId, (byKey = new Map()));
          groups = byKey;
        }
        const key = groupKey(subscriber);
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { members: new Set(), chain: Promise.resolve() }));
        group.members.add(subscriber);
        subscriber.group = group;
      },
      remove(subscriber) {
        const index = fields.get(subscriber.definition.field)!;
        const groups = subscriber.entityId === undefined ? index.everyone : index.byEntity.get(subscriber.entityId);
        const group = subscriber.group;
        if (!groups || !group) return;
        group.members.delete(subscriber);
        if (group.members.size) return;
        groups.delete(groupKey(subscriber));
        if (subscriber.entityId !== undefined && !groups.size) index.byEntity.delete(subscriber.entityId);
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
    // The entity field answers null for an id that names nothing the caller may see.
    if (result.data.entity === null) return { errors: [edgeError("NOT_FOUND", `No ${definition.entityQuery.field} has this id`)] };
    return { entity: result.data.entity };
  }

  /**
   * Events are handled one at a time per selection group, in arrival order, so messages keep the
   * order of changes. A message reads the entity as it is when it runs, so an event for the entity
   * whose message has not started yet is already covered by it and adds nothing.
   */
  private enqueue(group: SelectionGroup, id: string | number): void {
    if (!group.members.size || group.queued === id) return;
    group.queued = id;
    group.chain = group.chain.then(() => {
      if (group.queued === id) group.queued = undefined;
      return this.deliver(group, id);
    });
  }

  /** Calls `each` on every item, yielding to the event loop after every FAN_OUT_BATCH of them. */
  private async inBatches<T>(items: T[], each: (item: T) => void | Promise<void>): Promise<void> {
    for (let i = 0; i < items.length; i++) {
      if (i > 0 && i % FAN_OUT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      await each(items[i]);
    }
  }

  /** One read of the entity for the group, sent to each member whose view of it changed. */
  private async deliver(group: SelectionGroup, id: string | number): Promise<void> {
    // Those who join while the read runs are not sent it: their own first read is queued after it.
    const members = [...group.members].filter((member) => !member.output.isClosed);
    if (!members.length) return;
    // Each member's session still holds (one look per connection's caller); the read uses the
    // token of the first that does. Members share account, roles and scopes, so any of them reads the same.
    const tokens = new Map<Caller, string | undefined>();
    for (const member of members) {
      if (tokens.has(member.caller)) continue;
      tokens.set(member.caller, await this.deps.delegatedToken(member.caller).catch(() => undefined));
    }
    const live: Subscriber[] = [];
    for (const member of members) {
      if (tokens.get(member.caller) !== undefined) {
        live.push(member);
        continue;
      }
      member.output.push({ errors: [edgeError("UNAUTHENTICATED", "The session has ended; subscribe again with a new token")] });
      await member.output.close();
    }
    if (!live.length) return;
    const reader = live[0];
    const { query, definition } = reader;
    const context: EdgeContext = { caller: reader.caller, token: tokens.get(reader.caller)!, requestId: reader.requestId, acceptLanguage: reader.acceptLanguage };
    let result: OperationResult<{ __entity: Record<string, unknown> | null }>;
    try {
      result = await this.deps.graph.execute<{ __entity: Record<string, unknown> | null }>({ query, variables: { ...reader.variableValues, __entityId: id } }, context);
    } catch (error) {
      // The logger's child is made only here: an idle subscriber should not carry one.
      this.deps.logger.child({ subscription: definition.field, requestId: reader.requestId }).error({ err: error }, "subscription message failed");
      const failed = { errors: [edgeError("INTERNAL_SERVER_ERROR", "Internal server error")] };
      await this.inBatches(live, (member) => member.output.push(failed));
      return;
    }
    const { entity, state } = splitState(result.data?.__entity ?? null, definition);
    const errors = result.errors?.length ? result.errors.map(toGraphQLError) : undefined;
    // The entity as read, not the event, says whether anything changed and whether it is final.
    const seen = state ? JSON.stringify(state) : undefined;
    const final = state !== undefined && definition.isFinal?.(state) === true;
    await this.inBatches(live, async (member) => {
      if (member.output.isClosed) return;
      if (seen !== undefined) {
        if (seen === member.lastState && !errors) return;
        member.lastState = seen;
      }
      member.output.push({ data: result.data ? { [member.responseKey]: entity } : null, ...(errors ? { errors } : {}) } as ExecutionResult);
      // The first message, the state when the subscription started, was paid for by its admission.
      if (member.messages++ > 0) this.deps.costs?.charge(member.caller, member.cost);
      if (final) await member.output.close();
    });
  }
}

/** Members of one group read the same thing: see SubscriptionEngine. */
function groupKey(subscriber: Subscriber): string {
  const { caller } = subscriber;
  return JSON.stringify([
    caller.accountId,
    caller.organisationId,
    caller.environment,
    [...caller.roles].sort(),
    [...caller.scopes].sort(),
    subscriber.query,
    subscriber.variableValues,
    subscriber.acceptLanguage ?? null,
  ]);
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
  /** The operation's estimated cost: what each message after the first is charged. */
  cost: number;
  /** Messages sent so far. */
  messages: number;
  output: AsyncQueue<ExecutionResult>;
  /** The selection group it reads with, set once it is indexed. */
  group?: SelectionGroup;
  /** The state its last message showed. */
  lastState?: string;
}

/** Subscribers of one entity who read the same thing: one query per event for all of them. */
interface SelectionGroup {
  members: Set<Subscriber>;
  chain: Promise<void>;
  /** The entity whose message is queued and not started. */
  queued?: string | number;
}

/** The subscribers of one field, by the entity they watch, in selection groups by their key. */
interface FieldIndex {
  definition: EdgeSubscription;
  byEntity: Map<string | number, Map<string, SelectionGroup>>;
  everyone: Map<string, SelectionGroup>;
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

const failure = (message: string): ExecutionResult => ({ errors: [edgeError("BAD_USER_INPUT", message)] });

export function toGraphQLError(error: { message: string; path?: readonly (string | number)[]; extensions?: Record<string, unknown> }): GraphQLError {
  return new GraphQLError(error.message, { path: error.path, extensions: error.extensions });
}

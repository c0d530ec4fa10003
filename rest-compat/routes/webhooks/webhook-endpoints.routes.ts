import type { FastifyRequest } from "fastify";
import { toGlobalId } from "../../../core/global-id.js";
import { errorResponse, restRejected } from "../../error-body.js";
import { refusedUnlessEmpty, USER_ERRORS, type UserErrorData } from "../../user-errors.js";
import { answer, arr, bool, int, keepsOtherMembers, obj, str } from "../../json-schema.js";
import type { RestRoute } from "../../rest-route.js";

/**
 * /api/webhooks/… (extension, docs/webhooks.md): an organisation's webhook endpoints and their
 * delivery logs, for consumer accounts. Event types are the wire names deliveries carry.
 */
const EVENT_TYPES: Record<string, string> = { "booking.status_changed": "BOOKING_STATUS_CHANGED", "product.changed": "PRODUCT_CHANGED" };
const WIRE_NAMES = Object.fromEntries(Object.entries(EVENT_TYPES).map(([wire, name]) => [name, wire]));

/** An endpoint and a message as the graph answers them. */
interface EndpointData {
  legacyResourceId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  isEnabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}
interface MessageData {
  legacyResourceId: string;
  eventType: string;
  attemptCount: number;
  payload: string;
  attemptLog: { number: number; [field: string]: unknown }[];
  [field: string]: unknown;
}

const ENDPOINT_FIELDS = "legacyResourceId url description eventTypes isEnabled disabledReason failingSince createdAt updatedAt";
const MESSAGE_FIELDS =
  "legacyResourceId eventType orderingKey status attemptCount createdAt nextAttemptAt deliveredAt lastResponseStatus lastLatencyMs lastError payload attemptLog { number at outcome responseStatus latencyMs error }";
/** The input fields a REST caller knows by another name. */
const ENDPOINT_PARAMETERS = { webhookEndpointId: "id", isEnabled: "enabled" };

const dropNulls = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
const endpointOut = ({ legacyResourceId, isEnabled, eventTypes, ...endpoint }: EndpointData) =>
  dropNulls({ ...endpoint, id: legacyResourceId, enabled: isEnabled, eventTypes: eventTypes.map((type) => WIRE_NAMES[type] ?? type) });
const messageOut = ({ legacyResourceId, attemptCount, attemptLog, eventType, payload, ...message }: MessageData) =>
  dropNulls({
    ...message,
    id: legacyResourceId,
    eventType: WIRE_NAMES[eventType] ?? eventType,
    attempts: attemptCount,
    payload: JSON.parse(payload) as unknown,
    attemptLog: attemptLog.map(({ number, ...attempt }) => dropNulls({ ...attempt, attempt: number })),
  });

/** The graph's id of an endpoint or a message named on a path (a UUID there). */
const endpointId = (request: FastifyRequest) => toGlobalId("WebhookEndpoint", (request.params as { id: string }).id);
const messageId = (request: FastifyRequest) => toGlobalId("WebhookMessage", (request.params as { id: string }).id);

/** Wire names in, GraphQL enum names out; an unknown one is refused naming its index. */
function eventTypesIn(given: unknown): string[] | undefined {
  if (given === undefined || given === null) return undefined;
  if (!Array.isArray(given)) throw restRejected("VALIDATION_FAILED", "eventTypes must be an array", [{ field: "eventTypes", rule: "type", message: "an array of event types" }]);
  return given.map((type, index) => {
    const name = typeof type === "string" ? EVENT_TYPES[type] : undefined;
    if (!name) throw restRejected("VALIDATION_FAILED", `eventTypes[${index}] must be one of ${Object.keys(EVENT_TYPES).join(", ")}`, [{ field: `eventTypes[${index}]`, rule: "enum", message: `one of ${Object.keys(EVENT_TYPES).join(", ")}` }]);
    return name;
  });
}

const endpointSchema = answer({
  id: str("Endpoint id (uuid)"),
  url: str("Where deliveries are POSTed"),
  description: str("Free text"),
  eventTypes: arr(str("An event type, e.g. booking.status_changed"), "Events delivered to it"),
  enabled: bool("False once disabled after failing for 5 days (or by the organisation)"),
  disabledReason: str("Why it was disabled"),
  failingSince: { type: "string", format: "date-time", description: "Since when deliveries fail with no success since" },
  createdAt: { type: "string", format: "date-time" },
  updatedAt: { type: "string", format: "date-time" },
}, ["id", "url", "eventTypes", "enabled", "createdAt", "updatedAt"], "A webhook endpoint");
const messageSchema = answer({
  id: str("Message id: the webhook-id header of every try"),
  eventType: str("booking.status_changed"),
  orderingKey: str("Messages of one key (a booking id) are delivered in order"),
  status: { type: "string", enum: ["PENDING", "DELIVERED", "FAILED"] },
  attempts: int("Tries so far"),
  createdAt: { type: "string", format: "date-time" },
  nextAttemptAt: { type: "string", format: "date-time", description: "PENDING: the next try" },
  deliveredAt: { type: "string", format: "date-time" },
  lastResponseStatus: int("The endpoint's last HTTP status"),
  lastLatencyMs: int("How long the last try took"),
  lastError: str("Why the last try failed"),
  payload: answer(
    {
      type: str("The event type, e.g. booking.status_changed"),
      timestamp: { type: "string", format: "date-time", description: "When the event happened" },
      data: { type: "object", description: "What the event is about, as its GraphQL entity (a booking, a product change)", ...keepsOtherMembers },
    },
    ["type", "timestamp", "data"],
    "The body delivered",
  ),
  attemptLog: arr(
    answer(
      { attempt: int("1, 2, …"), at: { type: "string", format: "date-time" }, outcome: { type: "string", enum: ["DELIVERED", "FAILED"] }, responseStatus: int("HTTP status"), latencyMs: int("Duration"), error: str("Network error or timeout") },
      ["attempt", "at", "outcome", "latencyMs"],
    ),
    "Every try, oldest first",
  ),
}, ["id", "eventType", "orderingKey", "status", "attempts", "createdAt", "payload", "attemptLog"], "A webhook message and its delivery");
const idParams = obj({ id: str("Endpoint id") }, { required: ["id"] });
const tags = ["Webhooks"];
const WHO =
  "Consumer accounts (booking.status_changed) and content partner accounts (product.changed), for their own organisation (403 otherwise; 400 naming eventTypes[i] for a type the account cannot ask for); another organisation's endpoint is 404.";

export const listWebhookEndpointsRoute: RestRoute<{ webhookEndpoints: EndpointData[] }> = {
  method: "GET",
  url: "/api/webhooks/endpoints",
  schema: { operationId: "listWebhookEndpoints", summary: "The organisation's webhook endpoints (extension)", description: WHO, tags, response: { 200: arr(endpointSchema, "The organisation's endpoints") } },
  operation: `query RestWebhookEndpoints { webhookEndpoints { ${ENDPOINT_FIELDS} } }`,
  respond: ({ webhookEndpoints }) => webhookEndpoints.map(endpointOut),
};

type Refusable<T> = T & { userErrors: UserErrorData[] };

export const createWebhookEndpointRoute: RestRoute<{ createWebhookEndpoint: Refusable<{ secret: string; webhookEndpoint: EndpointData }> }> = {
  method: "POST",
  url: "/api/webhooks/endpoints",
  schema: {
    operationId: "createWebhookEndpoint",
    summary: "Register a webhook endpoint (extension)",
    description: `${WHO} 201 with the endpoint and its signing secret (whsec_…), shown in this answer only. Deliveries follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). 400 VALIDATION_FAILED naming url (https in production; public unicast addresses only, docs/webhooks.md) or eventTypes; at most 10 endpoints. 409 ENGINE_SECRETS_KEY_MISSING when the service cannot keep the secret (production without ENGINE_SECRETS_KEY); nothing is saved.`,
    tags,
    body: obj(
      { url: { type: "string", maxLength: 2048, description: "https URL" }, eventTypes: arr(str("booking.status_changed"), "Events to deliver"), description: { type: "string", maxLength: 500, description: "Free text" } },
      { required: ["url", "eventTypes"], additionalProperties: false },
    ),
    response: { 201: answer({ secret: str("The signing secret, shown once"), endpoint: endpointSchema }, ["secret", "endpoint"], "The endpoint and its signing secret"), 409: errorResponse("ENGINE_SECRETS_KEY_MISSING") },
  },
  operation: `mutation RestCreateWebhookEndpoint($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret webhookEndpoint { ${ENDPOINT_FIELDS} } ${USER_ERRORS} } }`,
  parameters: { input: "" },
  variables: (request) => {
    const body = request.body as { url: string; eventTypes: unknown; description?: string };
    return { input: { url: body.url, eventTypes: eventTypesIn(body.eventTypes), description: body.description ?? null } };
  },
  respond: ({ createWebhookEndpoint }, _request, reply) => {
    const created = refusedUnlessEmpty(createWebhookEndpoint);
    reply.code(201);
    return { secret: created.secret, endpoint: endpointOut(created.webhookEndpoint) };
  },
};

export const updateWebhookEndpointRoute: RestRoute<{ updateWebhookEndpoint: Refusable<{ webhookEndpoint: EndpointData }> }> = {
  method: "PUT",
  url: "/api/webhooks/endpoints/:id",
  schema: {
    operationId: "updateWebhookEndpoint",
    summary: "Change a webhook endpoint (extension)",
    description: `${WHO} Changes the fields given; enabled: true enables an endpoint that was disabled, enabled: false disables it.`,
    tags,
    params: idParams,
    body: obj(
      { url: { type: "string", maxLength: 2048 }, eventTypes: arr(str("booking.status_changed"), "Events to deliver"), description: { type: "string", maxLength: 500 }, enabled: bool("Enable or disable") },
      { additionalProperties: false },
    ),
    response: { 200: endpointSchema, 404: errorResponse("Unknown endpoint") },
  },
  operation: `mutation RestUpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { webhookEndpoint { ${ENDPOINT_FIELDS} } ${USER_ERRORS} } }`,
  parameters: { input: "" },
  variables: (request) => {
    const body = request.body as { url?: string; eventTypes?: unknown; description?: string; enabled?: boolean };
    return { input: { webhookEndpointId: endpointId(request), url: body.url, eventTypes: eventTypesIn(body.eventTypes), description: body.description, isEnabled: body.enabled } };
  },
  respond: ({ updateWebhookEndpoint }) => endpointOut(refusedUnlessEmpty(updateWebhookEndpoint, ENDPOINT_PARAMETERS).webhookEndpoint),
};

export const deleteWebhookEndpointRoute: RestRoute<{ deleteWebhookEndpoint: Refusable<object> }> = {
  method: "DELETE",
  url: "/api/webhooks/endpoints/:id",
  schema: { operationId: "deleteWebhookEndpoint", summary: "Remove a webhook endpoint and its delivery log (extension)", description: `${WHO} 204.`, tags, params: idParams, response: { 204: { type: "null", description: "Removed" }, 404: errorResponse("Unknown endpoint") } },
  operation: `mutation RestDeleteWebhookEndpoint($input: DeleteWebhookEndpointInput!) { deleteWebhookEndpoint(input: $input) { deletedWebhookEndpointId ${USER_ERRORS} } }`,
  variables: (request) => ({ input: { webhookEndpointId: endpointId(request) } }),
  respond: ({ deleteWebhookEndpoint }, _request, reply) => {
    refusedUnlessEmpty(deleteWebhookEndpoint, ENDPOINT_PARAMETERS);
    return reply.code(204).send();
  },
};

export const rotateWebhookSecretRoute: RestRoute<{ rotateWebhookEndpointSecret: Refusable<{ secret: string }> }> = {
  method: "POST",
  url: "/api/webhooks/endpoints/:id/secret",
  schema: {
    operationId: "rotateWebhookEndpointSecret",
    summary: "Rotate a webhook endpoint's signing secret (extension)",
    description: `${WHO} A new secret, shown in this answer only; deliveries from now on are signed with it. 409 ENGINE_SECRETS_KEY_MISSING when the service cannot keep the secret (production without ENGINE_SECRETS_KEY); the old secret stays.`,
    tags,
    params: idParams,
    response: { 200: answer({ secret: str("The new signing secret") }, ["secret"], "The new secret"), 404: errorResponse("Unknown endpoint"), 409: errorResponse("ENGINE_SECRETS_KEY_MISSING") },
  },
  operation: `mutation RestRotateWebhookSecret($input: RotateWebhookEndpointSecretInput!) { rotateWebhookEndpointSecret(input: $input) { secret ${USER_ERRORS} } }`,
  variables: (request) => ({ input: { webhookEndpointId: endpointId(request) } }),
  respond: ({ rotateWebhookEndpointSecret }) => ({ secret: refusedUnlessEmpty(rotateWebhookEndpointSecret, ENDPOINT_PARAMETERS).secret }),
};

export const listWebhookMessagesRoute: RestRoute<{ node: { messages: { nodes: MessageData[] } } | null }> = {
  method: "GET",
  url: "/api/webhooks/endpoints/:id/messages",
  schema: {
    operationId: "listWebhookMessages",
    summary: "A webhook endpoint's delivery log (extension)",
    description: `${WHO} Newest first, up to \`first\` (default 50, at most 100); \`before\` a message id to page back. Each message with its status, tries, last response status and latency, and every try.`,
    tags,
    params: idParams,
    querystring: obj({ first: { type: "integer", minimum: 1, maximum: 100, description: "Page size" }, before: str("A message id of this endpoint") }),
    response: { 200: arr(messageSchema, "Messages, newest first"), 404: errorResponse("Unknown endpoint") },
  },
  // REST's `before` (a message id: older messages than it) is the connection's `after`, whose cursors are the messages' global ids.
  operation: `query RestWebhookMessages($endpointId: ID!, $first: Int!, $after: String) { node(id: $endpointId) { ... on WebhookEndpoint { messages(first: $first, after: $after) { nodes { ${MESSAGE_FIELDS} } } } } }`,
  parameters: { endpointId: "id", after: "before" },
  variables: (request: FastifyRequest) => {
    const query = request.query as { first?: number; before?: string };
    return { endpointId: endpointId(request), first: query.first ?? 50, after: query.before === undefined ? null : toGlobalId("WebhookMessage", query.before) };
  },
  respond: ({ node }) => {
    if (!node) throw restRejected("NOT_FOUND", "No webhook endpoint of the caller's organisation has this id");
    return node.messages.nodes.map(messageOut);
  },
};

export const redeliverWebhookMessageRoute: RestRoute<{ redeliverWebhookMessage: Refusable<{ webhookMessage: MessageData }> }> = {
  method: "POST",
  url: "/api/webhooks/messages/:id/redeliver",
  schema: {
    operationId: "redeliverWebhookMessage",
    summary: "Send a webhook message again (extension)",
    description: `${WHO} From now, whatever its status (a failed one, or one the receiver lost).`,
    tags,
    params: obj({ id: str("Message id") }, { required: ["id"] }),
    response: { 200: messageSchema, 404: errorResponse("Unknown message") },
  },
  operation: `mutation RestRedeliverWebhookMessage($input: RedeliverWebhookMessageInput!) { redeliverWebhookMessage(input: $input) { webhookMessage { ${MESSAGE_FIELDS} } ${USER_ERRORS} } }`,
  variables: (request) => ({ input: { webhookMessageId: messageId(request) } }),
  respond: ({ redeliverWebhookMessage }) => messageOut(refusedUnlessEmpty(redeliverWebhookMessage, { webhookMessageId: "id" }).webhookMessage),
};

export const webhookRoutes = [
  listWebhookEndpointsRoute,
  createWebhookEndpointRoute,
  updateWebhookEndpointRoute,
  deleteWebhookEndpointRoute,
  rotateWebhookSecretRoute,
  listWebhookMessagesRoute,
  redeliverWebhookMessageRoute,
];

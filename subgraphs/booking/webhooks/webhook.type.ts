import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { ConnectionOf, EdgeOf } from "../../common/relay/relay.connection.js";
import { DateTimeScalar, UrlScalar, UuidScalar } from "../../common/common.scalars.js";
import { UserError } from "../../common/user.errors.js";

export enum WebhookEventType {
  BOOKING_STATUS_CHANGED = "booking.status_changed",
  PRODUCT_CHANGED = "product.changed",
}
registerEnumType(WebhookEventType, {
  name: "WebhookEventType",
  description: "Events an endpoint may ask for; a delivery's `type` is the value's wire name (booking.status_changed)",
  valuesConfig: {
    BOOKING_STATUS_CHANGED: { description: "Any status change of the organisation's bookings (consumer accounts); `data` is the booking as GET booking shows it, without voucherUrl" },
    PRODUCT_CHANGED: { description: "Any change logged for a product of the organisation's booking engine (content partner accounts): NEW, UPDATED, DEPRECATED, UNDEPRECATED, DELETED; `data` names the product and the change" },
  },
});

export enum WebhookMessageStatus {
  PENDING = "PENDING",
  DELIVERED = "DELIVERED",
  FAILED = "FAILED",
}
registerEnumType(WebhookMessageStatus, {
  name: "WebhookMessageStatus",
  description: "Where a message's delivery stands",
  valuesConfig: {
    PENDING: { description: "Not delivered yet: waiting for its turn or its next attempt" },
    DELIVERED: { description: "The endpoint answered 2xx" },
    FAILED: { description: "Every retry failed (about 27 hours); redeliverWebhookMessage sends it again" },
  },
});

export enum WebhookAttemptOutcome {
  DELIVERED = "DELIVERED",
  FAILED = "FAILED",
}
registerEnumType(WebhookAttemptOutcome, {
  name: "WebhookAttemptOutcome",
  description: "How one try of a delivery ended",
  valuesConfig: {
    DELIVERED: { description: "The endpoint answered 2xx" },
    FAILED: { description: "Another status, a network error or a timeout" },
  },
});

@ObjectType({ description: "One try of a delivery" })
export class WebhookAttempt {
  @Field(() => Int, { description: "1 for the first try, then 2, 3…" }) number!: number;
  @Field(() => DateTimeScalar, { description: "When the try was made" }) at!: Date;
  @Field(() => WebhookAttemptOutcome, { description: "How it ended" }) outcome!: WebhookAttemptOutcome;
  @Field(() => Int, { nullable: true, description: "The endpoint's HTTP status; null when it did not answer" }) responseStatus?: number | null;
  @Field(() => Int, { description: "How long the try took, in milliseconds" }) latencyMs!: number;
  @Field(() => String, { nullable: true, description: "Why it failed: the network error or the timeout" }) error?: string | null;
}

@Directive('@key(fields: "id")')
@ObjectType({ description: "One event for one endpoint, and how its delivery went" })
export class WebhookMessage {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => UuidScalar, { description: "The message's id in deliveries (their webhook-id header) and on the REST paths" }) legacyResourceId!: string;
  @Field(() => WebhookEventType, { description: "What happened" }) eventType!: WebhookEventType;
  @Field(() => String, { description: "Messages of one key (a booking id) are delivered in order" }) orderingKey!: string;
  @Field(() => WebhookMessageStatus, { description: "Where its delivery stands" }) status!: WebhookMessageStatus;
  @Field(() => Int, { description: "How many tries were made" }) attemptCount!: number;
  @Field(() => DateTimeScalar, { description: "When the event happened and the message was made" }) createdAt!: Date;
  @Field(() => DateTimeScalar, { nullable: true, description: "When it is tried next; null unless PENDING" }) nextAttemptAt?: Date | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "When the endpoint took it; null until then" }) deliveredAt?: Date | null;
  @Field(() => Int, { nullable: true, description: "The HTTP status of the last try; null when none answered" }) lastResponseStatus?: number | null;
  @Field(() => Int, { nullable: true, description: "How long the last try took, in milliseconds" }) lastLatencyMs?: number | null;
  @Field(() => String, { nullable: true, description: "Why the last try failed" }) lastError?: string | null;
  @Field(() => String, { description: "The exact body delivered, as JSON text: the bytes its signature covers" }) payload!: string;
  @Field(() => [WebhookAttempt], { description: "Every try, oldest first" }) attemptLog!: WebhookAttempt[];
}

@ObjectType({ description: "A message of an endpoint's delivery log, with its cursor" })
export class WebhookMessageEdge extends EdgeOf(WebhookMessage) {}

@ObjectType({ description: "An endpoint's delivery log, newest first" })
export class WebhookMessageConnection extends ConnectionOf(WebhookMessage, WebhookMessageEdge) {}

@Directive('@key(fields: "id")')
@ObjectType({ description: "Where an organisation hears of its events, signed per Standard Webhooks with the endpoint's secret (shown once)" })
export class WebhookEndpoint {
  @Field(() => ID, { description: "The global id" }) id!: string;
  @Field(() => UuidScalar, { description: "The endpoint's id on the REST paths (/api/webhooks/endpoints/{id})" }) legacyResourceId!: string;
  @Field(() => UrlScalar, { description: "Where deliveries are POSTed" }) url!: string;
  @Field(() => String, { nullable: true, description: "The organisation's own note" }) description?: string | null;
  @Field(() => [WebhookEventType], { description: "The events delivered to it" }) eventTypes!: WebhookEventType[];
  @Field(() => Boolean, { description: "False once disabled after failing for 5 days (or by the organisation); events are not kept for it meanwhile" }) isEnabled!: boolean;
  @Field(() => String, { nullable: true, description: "Why it was disabled; null while enabled" }) disabledReason?: string | null;
  @Field(() => DateTimeScalar, { nullable: true, description: "Since when deliveries fail with no success since" }) failingSince?: Date | null;
  @Field(() => DateTimeScalar, { description: "When it was registered" }) createdAt!: Date;
  @Field(() => DateTimeScalar, { description: "When it was last changed" }) updatedAt!: Date;
}

@InputType({ description: "A new endpoint" })
export class CreateWebhookEndpointInput {
  @Field(() => String, { description: "An https URL (http and private addresses only where the service allows them); refused with VALIDATION_FAILED on `url`" }) url!: string;
  @Field(() => [WebhookEventType], { description: "The events to deliver: at least one" }) eventTypes!: WebhookEventType[];
  @Field(() => String, { nullable: true, description: "A note of 1 to 500 characters" }) description?: string | null;
}

@InputType({ description: "Changes to an endpoint: the fields given replace the endpoint's" })
export class UpdateWebhookEndpointInput {
  @Field(() => ID, { description: "The endpoint's global id" }) webhookEndpointId!: string;
  @Field(() => String, { nullable: true, description: "A new URL" }) url?: string | null;
  @Field(() => [WebhookEventType], { nullable: true, description: "The events to deliver from now" }) eventTypes?: WebhookEventType[] | null;
  @Field(() => String, { nullable: true, description: "A new note" }) description?: string | null;
  @Field(() => Boolean, { nullable: true, description: "true enables a disabled endpoint again (its failure count starts afresh); false disables it" }) isEnabled?: boolean | null;
}

@InputType({ description: "The endpoint whose signing secret is replaced" })
export class RotateWebhookEndpointSecretInput {
  @Field(() => ID, { description: "The endpoint's global id" }) webhookEndpointId!: string;
}

@InputType({ description: "The endpoint to remove" })
export class DeleteWebhookEndpointInput {
  @Field(() => ID, { description: "The endpoint's global id" }) webhookEndpointId!: string;
}

@InputType({ description: "The message to send again" })
export class RedeliverWebhookMessageInput {
  @Field(() => ID, { description: "The message's global id" }) webhookMessageId!: string;
}

@ObjectType({ description: "The result of createWebhookEndpoint" })
export class CreateWebhookEndpointPayload {
  @Field(() => WebhookEndpoint, { nullable: true, description: "The endpoint; null when refused" }) webhookEndpoint?: WebhookEndpoint | null;
  @Field(() => String, { nullable: true, description: "The signing secret (whsec_…): shown now only; rotateWebhookEndpointSecret makes a new one" }) secret?: string | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of updateWebhookEndpoint" })
export class UpdateWebhookEndpointPayload {
  @Field(() => WebhookEndpoint, { nullable: true, description: "The endpoint as changed; null when refused" }) webhookEndpoint?: WebhookEndpoint | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of rotateWebhookEndpointSecret" })
export class RotateWebhookEndpointSecretPayload {
  @Field(() => WebhookEndpoint, { nullable: true, description: "The endpoint; null when refused" }) webhookEndpoint?: WebhookEndpoint | null;
  @Field(() => String, { nullable: true, description: "The new signing secret, shown now only; deliveries from now on are signed with it" }) secret?: string | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of deleteWebhookEndpoint" })
export class DeleteWebhookEndpointPayload {
  @Field(() => ID, { nullable: true, description: "The removed endpoint's global id; null when refused" }) deletedWebhookEndpointId?: string | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

@ObjectType({ description: "The result of redeliverWebhookMessage" })
export class RedeliverWebhookMessagePayload {
  @Field(() => WebhookMessage, { nullable: true, description: "The message, PENDING again; null when refused" }) webhookMessage?: WebhookMessage | null;
  @Field(() => [UserError], { description: "Why the input was refused; empty on success" }) userErrors!: UserError[];
}

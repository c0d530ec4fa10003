import { Field, InputType, Int, ObjectType, registerEnumType } from "type-graphql";

export enum WebhookEventType {
  BOOKING_STATUS_CHANGED = "booking.status_changed",
  PRODUCT_CHANGED = "product.changed",
}
registerEnumType(WebhookEventType, {
  name: "WebhookEventType",
  description: "Events an endpoint may ask for; the value in a delivery's `type` is the enum's wire name (booking.status_changed)",
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
  valuesConfig: {
    PENDING: { description: "Not delivered yet: waiting for its turn or its next attempt" },
    DELIVERED: { description: "The endpoint answered 2xx" },
    FAILED: { description: "Every retry failed (about 27 hours); redeliverWebhookMessage sends it again" },
  },
});

@ObjectType({ description: "Where an organisation hears of its events, signed per Standard Webhooks with the endpoint's secret (shown once)" })
export class WebhookEndpoint {
  @Field(() => String) id!: string;
  @Field(() => String) url!: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => [WebhookEventType]) eventTypes!: WebhookEventType[];
  @Field(() => Boolean, { description: "False once disabled after failing for 5 days (or by the organisation); events are not kept for it meanwhile" }) enabled!: boolean;
  @Field(() => String, { nullable: true }) disabledReason?: string;
  @Field(() => Date, { nullable: true, description: "Since when deliveries fail with no success since" }) failingSince?: Date;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType()
export class CreatedWebhookEndpoint {
  @Field(() => WebhookEndpoint) endpoint!: WebhookEndpoint;
  @Field(() => String, { description: "The signing secret (whsec_…): shown now only; rotateWebhookEndpointSecret makes a new one" }) secret!: string;
}

@InputType()
export class WebhookEndpointInput {
  @Field(() => String, { description: "https URL (http and private addresses only where the service allows them)" }) url!: string;
  @Field(() => [WebhookEventType]) eventTypes!: WebhookEventType[];
  @Field(() => String, { nullable: true }) description?: string | null;
}

@InputType()
export class WebhookEndpointChanges {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => [WebhookEventType], { nullable: true }) eventTypes?: WebhookEventType[] | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Boolean, { nullable: true, description: "true enables a disabled endpoint again" }) enabled?: boolean | null;
}

@ObjectType({ description: "One try of a delivery" })
export class WebhookAttempt {
  @Field(() => Int) attempt!: number;
  @Field(() => Date) at!: Date;
  @Field(() => WebhookMessageStatus, { description: "DELIVERED or FAILED" }) outcome!: WebhookMessageStatus;
  @Field(() => Int, { nullable: true }) responseStatus?: number;
  @Field(() => Int) latencyMs!: number;
  @Field(() => String, { nullable: true }) error?: string;
}

@ObjectType({ description: "One event for one endpoint, and how its delivery went" })
export class WebhookMessage {
  @Field(() => String, { description: "The webhook-id header of its deliveries" }) id!: string;
  @Field(() => WebhookEventType) eventType!: WebhookEventType;
  @Field(() => String, { description: "Messages of one key (a booking id) are delivered in order" }) orderingKey!: string;
  @Field(() => WebhookMessageStatus) status!: WebhookMessageStatus;
  @Field(() => Int) attempts!: number;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: "PENDING: when it is tried next" }) nextAttemptAt?: Date;
  @Field(() => Date, { nullable: true }) deliveredAt?: Date;
  @Field(() => Int, { nullable: true }) lastResponseStatus?: number;
  @Field(() => Int, { nullable: true }) lastLatencyMs?: number;
  @Field(() => String, { nullable: true }) lastError?: string;
  @Field(() => String, { description: "The body delivered (JSON text)" }) payload!: string;
  @Field(() => [WebhookAttempt], { description: "Every try, oldest first" }) attemptLog!: WebhookAttempt[];
}

/** The events an endpoint may ask for; the wire name is the `type` of the Standard Webhooks payload. */
export const WEBHOOK_EVENT_TYPES = ["booking.status_changed", "product.changed"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

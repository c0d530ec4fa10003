import type { FieldProblem } from "../../../core/errors.js";
import { refusedOutboundHost } from "../../../core/outbound-address.js";
import { WEBHOOK_EVENT_TYPES } from "./webhook.events.js";

/** An organisation keeps at most this many endpoints. */
export const MAX_ENDPOINTS = 10;


export interface WebhookEndpointInput {
  url: string;
  eventTypes: string[];
  description?: string | null;
}

export interface WebhookTargets {
  /** Loopback and private addresses allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS, for tests and local receivers). */
  allowPrivate: boolean;
  environment: "sandbox" | "production";
}

/** Problems of an endpoint's settings, each naming its field. */
export function endpointProblems(input: WebhookEndpointInput, targets: WebhookTargets): FieldProblem[] {
  const problems: FieldProblem[] = [];
  let url: URL | undefined;
  try {
    url = new URL(input.url);
  } catch {
    problems.push({ field: "url", rule: "format", message: "must be an absolute http or https URL" });
  }
  if (url) {
    if (url.protocol !== "https:" && url.protocol !== "http:") problems.push({ field: "url", rule: "format", message: "must be an http or https URL" });
    else if (targets.environment === "production" && url.protocol !== "https:") problems.push({ field: "url", rule: "format", message: "must be an https URL in production" });
    if (url.username || url.password) problems.push({ field: "url", rule: "format", message: "must not carry credentials" });
    if (input.url.length > 2048) problems.push({ field: "url", rule: "length", message: "at most 2048 characters" });
    // Only public addresses are webhook targets (the worker judges what a name resolves to at each delivery).
    const refused = targets.allowPrivate ? undefined : refusedOutboundHost(url.hostname);
    if (refused) problems.push({ field: "url", rule: "address", message: `must name a public address: ${refused}` });
  }
  if (!Array.isArray(input.eventTypes) || input.eventTypes.length === 0) problems.push({ field: "eventTypes", rule: "required", message: "name at least one event type" });
  input.eventTypes?.forEach((type, index) => {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) problems.push({ field: `eventTypes[${index}]`, rule: "enum", message: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` });
  });
  if (input.description !== undefined && input.description !== null && (input.description.length < 1 || input.description.length > 500)) {
    problems.push({ field: "description", rule: "length", message: "1 to 500 characters" });
  }
  return problems;
}

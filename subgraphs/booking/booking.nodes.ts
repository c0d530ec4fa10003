import type { NodeType } from "../common/relay/node-type.js";
import { availabilityService } from "./availability/availability.service.js";
import { webhookNodeTypes } from "./webhooks/webhook.nodes.js";

/** The booking subgraph's types that `node(id)` finds: each the caller's own, as its queries show them. */
export const bookingNodeTypes: NodeType[] = [
  {
    typeName: "Availability",
    visibleKeys: ({ database, caller }, keys) => availabilityService.ownedKeys(database, caller, keys),
  },
  ...webhookNodeTypes,
];

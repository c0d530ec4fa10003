import type { NodeType } from "../common/relay/relay.node-type.js";
import { availabilityService } from "./availability/availability.service.js";
import { webhookNodeTypes } from "./webhooks/webhook.nodes.js";
import { bookingRepository } from "./booking/booking.repository.js";
import { owns } from "./booking.access.js";
import { isUuid } from "../../core/uuid.js";

/** The booking subgraph's types that `node(id)` finds: each the caller's own, as its queries show them. */
export const bookingNodeTypes: NodeType[] = [
  {
    typeName: "Availability",
    visibleKeys: ({ database, caller }, keys) => availabilityService.ownedKeys(database, caller, keys),
  },
  {
    typeName: "Booking",
    async visibleKeys({ database, caller }, keys) {
      const rows = await bookingRepository.byIds(database.db, keys.filter(isUuid));
      return new Set(rows.filter((row) => owns(caller, row)).map((row) => row.id));
    },
  },
  ...webhookNodeTypes,
];

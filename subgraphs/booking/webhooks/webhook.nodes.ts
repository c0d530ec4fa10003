import { isUuid } from "../../../core/uuid.js";
import type { NodeType } from "../../common/relay/relay.node-type.js";
import { webhookEndpointRepository } from "../../common/webhooks/webhook-endpoint.repository.js";
import { webhookOrganisationOf } from "./webhook.service.js";

/** Endpoints and messages for `node(id)`: the caller's organisation's, as the webhook queries show them. */
export const webhookNodeTypes: NodeType[] = [
  {
    typeName: "WebhookEndpoint",
    async visibleKeys({ database, caller }, keys) {
      const organisationId = webhookOrganisationOf(caller);
      if (organisationId === null) return new Set();
      return new Set(await webhookEndpointRepository.endpointIdsOf(database.db, organisationId, keys.filter(isUuid)));
    },
  },
  {
    typeName: "WebhookMessage",
    async visibleKeys({ database, caller }, keys) {
      const organisationId = webhookOrganisationOf(caller);
      if (organisationId === null) return new Set();
      return new Set(await webhookEndpointRepository.messageIdsOf(database.db, organisationId, keys.filter(isUuid)));
    },
  },
];

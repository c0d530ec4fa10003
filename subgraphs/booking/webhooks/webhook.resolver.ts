import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { keyOfGlobalId } from "../../../core/global-id.js";
import type { Connection } from "../../common/relay/relay.connection.js";
import { payloadOf } from "../../common/user.errors.js";
import type { BookingContext } from "../booking.loaders.js";
import { MAX_WEBHOOK_MESSAGE_PAGE, webhookService } from "./webhook.service.js";
import {
  CreateWebhookEndpointInput,
  CreateWebhookEndpointPayload,
  DeleteWebhookEndpointInput,
  DeleteWebhookEndpointPayload,
  RedeliverWebhookMessageInput,
  RedeliverWebhookMessagePayload,
  RotateWebhookEndpointSecretInput,
  RotateWebhookEndpointSecretPayload,
  UpdateWebhookEndpointInput,
  UpdateWebhookEndpointPayload,
  WebhookEndpoint,
  WebhookMessage,
  WebhookMessageConnection,
} from "./webhook.type.js";

/** An id of another type, or no id at all, names nothing: an empty key, which no row has. */
const endpointKey = (id: string) => keyOfGlobalId(id, "WebhookEndpoint") ?? "";
const messageKey = (id: string) => keyOfGlobalId(id, "WebhookMessage") ?? "";

const ENDPOINT_INPUT = { notFound: "webhookEndpointId" };

@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  @Query(() => [WebhookEndpoint], { description: "The caller's organisation's webhook endpoints (at most 10), oldest first; FORBIDDEN for accounts of no organisation" })
  webhookEndpoints(@Ctx() ctx: BookingContext): Promise<WebhookEndpoint[]> {
    return webhookService.endpoints(ctx);
  }

  @FieldResolver(() => WebhookMessageConnection, { description: `The endpoint's delivery log, newest first; at most ${MAX_WEBHOOK_MESSAGE_PAGE} a page (20 unless asked)` })
  messages(
    @Root() endpoint: WebhookEndpoint,
    @Ctx() ctx: BookingContext,
    @Arg("first", () => Int, { nullable: true, description: "Messages after `after`, from the newest on" }) first?: number | null,
    @Arg("after", () => String, { nullable: true, description: "A cursor: the messages older than it" }) after?: string | null,
    @Arg("last", () => Int, { nullable: true, description: "Messages before `before`, up to the newest" }) last?: number | null,
    @Arg("before", () => String, { nullable: true, description: "A cursor: the messages newer than it" }) before?: string | null,
  ): Promise<Connection<WebhookMessage>> {
    return webhookService.messages(ctx, endpoint.legacyResourceId, { first, after, last, before });
  }

  @Mutation(() => CreateWebhookEndpointPayload, {
    description: "Registers an endpoint; its signing secret is in the answer, and only there. ENGINE_SECRETS_KEY_MISSING when the service cannot keep the secret (production without ENGINE_SECRETS_KEY)",
  })
  createWebhookEndpoint(@Arg("input", () => CreateWebhookEndpointInput, { description: "The endpoint" }) input: CreateWebhookEndpointInput, @Ctx() ctx: BookingContext) {
    return payloadOf(() => webhookService.create(ctx, input));
  }

  @Mutation(() => UpdateWebhookEndpointPayload, { description: "Changes an endpoint; `isEnabled: true` enables one that was disabled" })
  updateWebhookEndpoint(@Arg("input", () => UpdateWebhookEndpointInput, { description: "The endpoint and its changes" }) input: UpdateWebhookEndpointInput, @Ctx() ctx: BookingContext) {
    const { webhookEndpointId, ...changes } = input;
    return payloadOf(() => webhookService.update(ctx, endpointKey(webhookEndpointId), changes), ENDPOINT_INPUT);
  }

  @Mutation(() => RotateWebhookEndpointSecretPayload, {
    description: "A new signing secret, shown once; deliveries from now on are signed with it. ENGINE_SECRETS_KEY_MISSING when the service cannot keep the secret; the old one then stays",
  })
  rotateWebhookEndpointSecret(@Arg("input", () => RotateWebhookEndpointSecretInput, { description: "The endpoint" }) input: RotateWebhookEndpointSecretInput, @Ctx() ctx: BookingContext) {
    return payloadOf(() => webhookService.rotate(ctx, endpointKey(input.webhookEndpointId)), ENDPOINT_INPUT);
  }

  @Mutation(() => DeleteWebhookEndpointPayload, { description: "Removes an endpoint and its delivery log" })
  deleteWebhookEndpoint(@Arg("input", () => DeleteWebhookEndpointInput, { description: "The endpoint" }) input: DeleteWebhookEndpointInput, @Ctx() ctx: BookingContext) {
    return payloadOf(() => webhookService.delete(ctx, endpointKey(input.webhookEndpointId)), ENDPOINT_INPUT);
  }

  @Mutation(() => RedeliverWebhookMessagePayload, { description: "Sends a message again from now (a failed one, or one the receiver lost)" })
  redeliverWebhookMessage(@Arg("input", () => RedeliverWebhookMessageInput, { description: "The message" }) input: RedeliverWebhookMessageInput, @Ctx() ctx: BookingContext) {
    return payloadOf(() => webhookService.redeliver(ctx, messageKey(input.webhookMessageId)), { notFound: "webhookMessageId" });
  }
}

/** Federation references (from `node`, and any subgraph naming them): what the caller may see, else null. */
export const webhookReferenceResolvers = {
  WebhookEndpoint: {
    __resolveReference: (reference: { id: string }, ctx: BookingContext) => webhookService.visibleEndpoint(ctx, endpointKey(reference.id)),
  },
  WebhookMessage: {
    __resolveReference: (reference: { id: string }, ctx: BookingContext) => webhookService.visibleMessage(ctx, messageKey(reference.id)),
  },
};

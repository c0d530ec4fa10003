import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import type { BookingContext } from "../loaders.js";
import { webhookService } from "./webhook.service.js";
import { CreatedWebhookEndpoint, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointInput, WebhookMessage } from "./webhook.type.js";

@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  @Query(() => [WebhookEndpoint], { description: "The caller's organisation's webhook endpoints (consumer accounts)" })
  webhookEndpoints(@Ctx() ctx: BookingContext): Promise<WebhookEndpoint[]> {
    return webhookService.endpoints(ctx);
  }

  @Query(() => [WebhookMessage], { description: "An endpoint's delivery log, newest first; `before` a message id to page back" })
  webhookMessages(
    @Arg("endpointId", () => String) endpointId: string,
    @Arg("first", () => Int, { defaultValue: 50 }) first: number,
    @Arg("before", () => String, { nullable: true }) before: string | null,
    @Ctx() ctx: BookingContext,
  ): Promise<WebhookMessage[]> {
    return webhookService.messages(ctx, endpointId, first, before);
  }

  @Mutation(() => CreatedWebhookEndpoint, {
    description: "Registers an endpoint; its signing secret is in the answer, and only there. CONFLICT (reason ENGINE_SECRETS_KEY_MISSING) when the service cannot keep the secret: production without ENGINE_SECRETS_KEY",
  })
  createWebhookEndpoint(@Arg("input", () => WebhookEndpointInput) input: WebhookEndpointInput, @Ctx() ctx: BookingContext): Promise<CreatedWebhookEndpoint> {
    return webhookService.create(ctx, input);
  }

  @Mutation(() => WebhookEndpoint, { description: "Changes an endpoint; `enabled: true` enables one that was disabled" })
  updateWebhookEndpoint(@Arg("id", () => String) id: string, @Arg("changes", () => WebhookEndpointChanges) changes: WebhookEndpointChanges, @Ctx() ctx: BookingContext): Promise<WebhookEndpoint> {
    return webhookService.update(ctx, id, changes);
  }

  @Mutation(() => String, {
    description: "A new signing secret, shown once; deliveries from now on are signed with it. CONFLICT (reason ENGINE_SECRETS_KEY_MISSING) when the service cannot keep the secret: production without ENGINE_SECRETS_KEY",
  })
  rotateWebhookEndpointSecret(@Arg("id", () => String) id: string, @Ctx() ctx: BookingContext): Promise<string> {
    return webhookService.rotate(ctx, id);
  }

  @Mutation(() => Boolean, { description: "Removes an endpoint and its delivery log" })
  deleteWebhookEndpoint(@Arg("id", () => String) id: string, @Ctx() ctx: BookingContext): Promise<boolean> {
    return webhookService.delete(ctx, id);
  }

  @Mutation(() => WebhookMessage, { description: "Sends a message again from now (a failed one, or one the receiver lost)" })
  redeliverWebhookMessage(@Arg("id", () => String) id: string, @Ctx() ctx: BookingContext): Promise<WebhookMessage> {
    return webhookService.redeliver(ctx, id);
  }
}

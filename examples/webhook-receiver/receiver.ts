/**
 * A webhook receiver that checks every delivery with the Standard Webhooks library
 * (https://www.standardwebhooks.com, npm `standardwebhooks`), as an integrator's would:
 *
 *   WEBHOOK_SECRET=whsec_… npx tsx examples/webhook-receiver/receiver.ts
 *
 * listens on RECEIVER_PORT (default 4100, beside the service's 4000); register
 * http://<this host>:4100/ as an endpoint (createWebhookEndpoint or
 * POST /api/webhooks/endpoints). A delivery whose signature or timestamp does not verify is
 * answered 400 and not acted on; a verified one 204. Deliveries can repeat (at least once):
 * `webhook-id` is the same for every try of one message, so it is the key to deduplicate on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";

/** Beside the service's 4000 and the local OCTO supplier's 4010, so all three run on one machine. */
export const DEFAULT_RECEIVER_PORT = 4100;

export interface VerifiedDelivery {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface ReceiverOptions {
  /** The endpoint's secret (whsec_…), or where to read it at each delivery (it can be rotated). */
  secret: string | (() => string);
  /** Told of each verified delivery; its answer (a status, or a promise of one) is what the sender gets. Default 204. */
  onDelivery?: (delivery: VerifiedDelivery, request: IncomingMessage) => number | Promise<number>;
}

export function createWebhookReceiver(options: ReceiverOptions): Server {
  return createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const webhook = new Webhook(typeof options.secret === "function" ? options.secret() : options.secret);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let payload: { type: string; data: Record<string, unknown> };
    try {
      payload = webhook.verify(body, request.headers as Record<string, string>) as typeof payload;
    } catch {
      response.writeHead(400).end("signature does not verify");
      return;
    }
    const status = (await options.onDelivery?.({ id: String(request.headers["webhook-id"]), type: payload.type, data: payload.data }, request)) ?? 204;
    if (!response.destroyed) response.writeHead(status).end();
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error("Set WEBHOOK_SECRET to the endpoint's secret (whsec_…)");
  const seen = new Set<string>();
  createWebhookReceiver({
    secret,
    onDelivery: (delivery) => {
      if (seen.has(delivery.id)) return 204;
      seen.add(delivery.id);
      console.log(`${delivery.type} ${JSON.stringify(delivery.data.status ?? "")} ${delivery.id}`);
      return 204;
    },
  }).listen(Number(process.env.RECEIVER_PORT ?? DEFAULT_RECEIVER_PORT), function (this: Server) {
    console.log(`listening on http://localhost:${(this.address() as { port: number }).port}/`);
  });
}

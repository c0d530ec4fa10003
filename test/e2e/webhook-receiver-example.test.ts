import { randomBytes, randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.js";
import { DEFAULT_RECEIVER_PORT } from "../../examples/webhook-receiver/receiver.js";
import { freePort, startProcess, until } from "../support/child-process.js";

/** The webhook receiver example run as the README says, as a command beside the service. */
describe("the webhook receiver example (examples/webhook-receiver)", () => {
  it("listens by default on a port of its own, not the service's or the local OCTO supplier's", () => {
    expect(DEFAULT_RECEIVER_PORT).not.toBe(loadConfig({}).port);
    expect(DEFAULT_RECEIVER_PORT).not.toBe(4010);
  });

  it("runs from the command line: verifies a signed delivery with the standard's library, refuses an unsigned one", async () => {
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const port = await freePort();
    const receiver = startProcess({ WEBHOOK_SECRET: secret, RECEIVER_PORT: String(port) }, [], { file: process.execPath, args: ["--import", "tsx", "examples/webhook-receiver/receiver.ts"] });
    try {
      await until("the receiver listening", async () => (receiver.output().includes(`listening on http://localhost:${port}/`) ? true : undefined), 30_000);
      const id = `msg_${randomUUID()}`;
      const body = JSON.stringify({ type: "booking.status_changed", timestamp: new Date().toISOString(), data: { status: "CONFIRMED" } });
      const sentAt = new Date();
      const signature = new Webhook(secret).sign(id, sentAt, body);
      const headers = { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)), "webhook-signature": signature };
      expect((await fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers, body })).status).toBe(204);
      await until("the delivery printed", async () => (receiver.output().includes(`booking.status_changed "CONFIRMED" ${id}`) ? true : undefined), 10_000);
      const forged = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", headers: { ...headers, "webhook-signature": "v1,AAAA" }, body });
      expect(forged.status).toBe(400);
    } finally {
      receiver.child.kill("SIGTERM");
      await receiver.exited;
    }
  });
});

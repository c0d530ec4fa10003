import { randomUUID } from "node:crypto";
import type { Client, ExecutionResult } from "graphql-ws";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { toGlobalId } from "../../core/global-id.js";
import { useStack } from "../support/stack.js";
import { closeOf, wsClient } from "../support/ws-client.js";

/** graphql-ws on /graphql: authenticated connections, queries through the gateway, subscriptions from the event channel. */
describe("graphql-ws at /graphql", () => {
  const t = useStack();
  let platformToken: string;
  let consumerToken: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    platformToken = await t.stack.tokenFor("PLATFORM_CATALOG_MANAGEMENT");
    consumerToken = await t.stack.tokenFor("CONSUMER");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });

  const connect = (token: string | undefined, onClose?: (code: number, reason: string) => void) => {
    const client = wsClient(t.stack, token, { closed: (event) => onClose?.(closeOf(event).code, closeOf(event).reason) });
    clients.push(client);
    return client;
  };
  const once = (client: Client, query: string, variables?: Record<string, unknown>) =>
    new Promise<ExecutionResult>((resolve, reject) => {
      let result: ExecutionResult | undefined;
      client.subscribe({ query, variables }, { next: (r) => (result = r as ExecutionResult), error: reject, complete: () => resolve(result!) });
    });

  it("closes a connection without a valid token with 4401", async () => {
    for (const token of [undefined, "forged.token.value"]) {
      const closed = new Promise<{ code: number; reason: string }>((resolve) => connect(token, (code, reason) => resolve({ code, reason })));
      const { code, reason } = await closed;
      expect(code).toBe(4401);
      expect(reason).toMatch(/^Unauthorized/);
    }
  });

  it("runs queries through the gateway as the connected caller", async () => {
    const client = connect(consumerToken);
    const result = await once(client, "{ me { roles } bookingEngines { name } }");
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({ me: { roles: ["CONSUMER"] } });
  });

  it("answers a malformed or invalid operation with errors, keeping the connection", async () => {
    const client = connect(consumerToken);
    await expect(once(client, "{ me { ")).rejects.toEqual([expect.objectContaining({ message: expect.stringContaining("Syntax Error") })]);
    await expect(once(client, "{ nothingHere }")).rejects.toEqual([expect.objectContaining({ message: expect.stringContaining("nothingHere") })]);
    expect((await once(client, "{ me { roles } }")).data).toBeTruthy();
  });

  it("refuses a subscription the caller's roles do not allow", async () => {
    const client = connect(consumerToken);
    const result = await once(client, "subscription { bookingEngineRegistered { id } }");
    expect(result.errors?.[0]).toMatchObject({ extensions: { code: "FORBIDDEN" } });
  });

  it("delivers each committed event as the subscriber's own selection, aliases and fragments included", async () => {
    const client = connect(platformToken);
    const received: ExecutionResult[] = [];
    const engineName = `ENGINE_${randomUUID().slice(0, 8).toUpperCase().replace(/-/g, "")}`;
    let ready: () => void;
    const ours = new Promise<void>((resolve) => (ready = resolve));
    const unsubscribe = client.subscribe(
      {
        query: `subscription Watch { registered: bookingEngineRegistered { ...Engine engineId: id legacyResourceId } }
                fragment Engine on BookingEngine { name kind }`,
      },
      {
        next: (r) => {
          received.push(r as ExecutionResult);
          if ((r.data as { registered?: { name?: string } } | undefined)?.registered?.name === engineName) ready();
        },
        error: (e) => received.push({ errors: e as never }),
        complete: () => {},
      },
    );
    // The subscription listens once the server has processed it; give it a moment.
    await new Promise((r) => setTimeout(r, 300));
    // An engine made in a transaction that fails is never announced.
    await expect(
      t.stack.service.identity.accounts.createAccount({ username: "x", role: "CONSUMER", organisation: "Nope", country: "FR", model: "agent", bookingEngine: `${engineName}_GONE` }),
    ).rejects.toThrow();
    await t.stack.createAccount("CONTENT_PARTNER", { bookingEngine: engineName });
    await Promise.race([ours, new Promise((_, reject) => setTimeout(() => reject(new Error("no message within 5 s")), 5000))]);
    unsubscribe();
    // Other test files may register engines on a shared database meanwhile: look for ours.
    expect(received.every((r) => r.errors === undefined)).toBe(true);
    const names = received.map((r) => (r.data as { registered: { name: string } }).registered.name);
    expect(names).not.toContain(`${engineName}_GONE`);
    expect(received.find((r) => (r.data as { registered: { name: string } }).registered.name === engineName)?.data).toEqual({
      registered: { name: engineName, kind: "INVENTORY", engineId: expect.any(String), legacyResourceId: expect.any(Number) },
    });
    // The same engine as every other answer gives it: its global id names it to node(id).
    const message = received.find((r) => (r.data as { registered: { name: string } }).registered.name === engineName)!.data as { registered: { engineId: string; legacyResourceId: number } };
    expect(message.registered.engineId).toBe(toGlobalId("BookingEngine", message.registered.legacyResourceId));
  });
});

import type { Client } from "graphql-ws";
import { afterEach, describe, expect, it, vi } from "vitest";
import { restClient } from "../support/catalogue.js";
import { ManualClock, useStack, type TokenBody } from "../support/stack.js";
import { closeOf, wsClient } from "../support/ws-client.js";

/**
 * A graphql-ws connection lives exactly as long as the token it was opened with would be accepted
 * on HTTP: it closes with 4401 when that token expires or its session is revoked, with 4403 when
 * the account is disabled; and HTTP refuses such tokens at once, not when they run out.
 */
describe("sessions end everywhere", () => {
  const clock = new ManualClock(new Date("2031-05-01T08:00:00Z"));
  const t = useStack({ clock, env: { WORKER_LOOPS: "false" } });
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });

  /** An open connection, and the close it ends with. */
  const openConnection = async (token: string) => {
    let closed!: (event: { code: number; reason: string }) => void;
    const closing = new Promise<{ code: number; reason: string }>((resolve) => (closed = resolve));
    let opened!: () => void;
    const connected = new Promise<void>((resolve) => (opened = resolve));
    const client = wsClient(t.stack, token, { connected: () => opened(), closed: (event) => closed(closeOf(event)) });
    clients.push(client);
    await connected;
    const query = (text: string) =>
      new Promise<unknown>((resolve, reject) => client.subscribe({ query: text }, { next: resolve, error: reject, complete: () => {} }));
    expect(await query("{ me { roles } }")).toMatchObject({ data: { me: { roles: expect.any(Array) } } });
    return { closing };
  };

  const signIn = async (role: "CONSUMER" | "OPERATOR") => {
    const { username, password } = await t.stack.createAccount(role);
    return { username, password, tokens: await t.stack.login(username, password) };
  };

  const refresh = async (refreshToken: string) => {
    const response = await fetch(t.stack.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "refresh_token", refresh_token: refreshToken }),
    });
    return { status: response.status, body: (await response.json()) as TokenBody & { error?: string } };
  };

  it("closes the connection with 4401 when the token it was opened with expires", async () => {
    const { tokens } = await signIn("CONSUMER");
    const { closing } = await openConnection(tokens.access_token);
    clock.advance(tokens.expires_in + 1);
    expect(await closing).toEqual({ code: 4401, reason: "Unauthorized: the access token has expired" });
  });

  it("closes each connection when its own token expires, and not before", async () => {
    const early = await signIn("CONSUMER");
    clock.advance(100);
    const late = await signIn("CONSUMER");
    const first = await openConnection(early.tokens.access_token);
    const second = await openConnection(late.tokens.access_token);
    let secondClosed = false;
    void second.closing.then(() => (secondClosed = true));
    clock.advance(early.tokens.expires_in - 100 + 1);
    expect(await first.closing).toEqual({ code: 4401, reason: "Unauthorized: the access token has expired" });
    // The sweep that closed the first has run: the second, with 99 s left, is still open.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(secondClosed).toBe(false);
    clock.advance(100);
    expect(await second.closing).toEqual({ code: 4401, reason: "Unauthorized: the access token has expired" });
  });

  it("closes the connection with 4401 and refuses the session's tokens on HTTP once the session is revoked", async () => {
    const { tokens } = await signIn("CONSUMER");
    const { closing } = await openConnection(tokens.access_token);
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);
    // A replay of the spent refresh token revokes the whole session (stolen-token defence).
    const replay = await refresh(tokens.refresh_token);
    expect(replay.body.error).toBe("invalid_grant");
    expect(await closing).toEqual({ code: 4401, reason: "Unauthorized: the session has been revoked" });
    for (const token of [tokens.access_token, rotated.body.access_token]) {
      const me = await restClient(t.stack, token).get("/api/me");
      expect(me.status).toBe(401);
      expect(me.body).toMatchObject({ code: "UNAUTHENTICATED", message: "Invalid access token: the session has been revoked" });
    }
    // Nor can a new connection be opened with it.
    const again = wsClient(t.stack, tokens.access_token);
    clients.push(again);
    const refused = await new Promise<{ code: number; reason: string }>((resolve) => again.on("closed", (event) => resolve(closeOf(event))));
    expect(refused).toEqual({ code: 4401, reason: "Unauthorized: the session has been revoked" });
  });

  it("closes every connection of a disabled account with 4403, and refuses its tokens on HTTP and GraphQL at once", async () => {
    const { username, password, tokens } = await signIn("CONSUMER");
    const secondSession = await t.stack.login(username, password);
    const first = await openConnection(tokens.access_token);
    const second = await openConnection(secondSession.access_token);
    await t.stack.service.identity.accounts.disableAccount(username);
    expect(await first.closing).toEqual({ code: 4403, reason: "Forbidden: the account is disabled" });
    expect(await second.closing).toEqual({ code: 4403, reason: "Forbidden: the account is disabled" });
    const rest = await restClient(t.stack, tokens.access_token).get("/api/me");
    expect(rest.status).toBe(401);
    expect(rest.body.message).toBe("Invalid access token: the account is disabled");
    const graphql = await fetch(`${t.stack.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${secondSession.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ me { id } }" }),
    });
    expect(graphql.status).toBe(401);
  });

  it("keeps the account's other sessions open when one session is revoked", async () => {
    const { username, password, tokens } = await signIn("CONSUMER");
    const otherSession = await t.stack.login(username, password);
    const untouched = await openConnection(otherSession.access_token);
    const revoked = await openConnection(tokens.access_token);
    await refresh(tokens.refresh_token);
    await refresh(tokens.refresh_token);
    expect((await revoked.closing).code).toBe(4401);
    // The other session's connection still answers.
    const client = clients[0];
    const answer = await new Promise<unknown>((resolve, reject) => client.subscribe({ query: "{ me { roles } }" }, { next: resolve, error: reject, complete: () => {} }));
    expect(answer).toMatchObject({ data: { me: { roles: ["CONSUMER"] } } });
    expect((await restClient(t.stack, otherSession.access_token).get("/api/me")).status).toBe(200);
    void untouched;
  });

  it("signs one delegated token for a connection's work while it has 30 s left, then a new one", async () => {
    const signing = vi.spyOn(t.stack.service.identity.tokens, "delegatedAccessToken");
    try {
      const { tokens } = await signIn("CONSUMER");
      const connection = await openConnection(tokens.access_token);
      const client = clients.at(-1)!;
      const me = () => new Promise<unknown>((resolve, reject) => client.subscribe({ query: "{ me { roles } }" }, { next: resolve, error: reject, complete: () => {} }));
      const before = signing.mock.calls.length;
      for (let i = 0; i < 3; i++) expect(await me()).toMatchObject({ data: { me: { roles: ["CONSUMER"] } } });
      expect(signing.mock.calls.length - before).toBe(0);
      clock.advance(31);
      expect(await me()).toMatchObject({ data: { me: { roles: ["CONSUMER"] } } });
      expect(signing.mock.calls.length - before).toBe(1);
      // Holding a token changes nothing of how the session ends.
      await refresh(tokens.refresh_token);
      await refresh(tokens.refresh_token);
      expect((await connection.closing).code).toBe(4401);
    } finally {
      signing.mockRestore();
    }
  });
});

import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { head, openConnection, type RawAnswer, type RawConnection } from "../support/raw-http.js";
import { useStack, type Stack } from "../support/stack.js";

/**
 * Connection caps (issue: one caller's 21,800 sockets took the process's 20,000 descriptors, and
 * every other request failed with ECONNRESET): a cap per client address
 * (HTTP_MAX_CONNECTIONS_PER_ADDRESS) and one for the process (HTTP_MAX_CONNECTIONS). A connection
 * over either is answered 503 with Retry-After and `Connection: close`, never reset; another
 * address still connects, and a freed connection can be taken again.
 */

/** Connections opened by a test, closed after it whatever happened. */
const opened: RawConnection[] = [];

/** Closes what the test opened, and waits until the service holds no connection: each test starts from none. */
async function closeOpened(stack: Stack) {
  const closing = opened.splice(0);
  for (const connection of closing) connection.close();
  await Promise.all(closing.map((connection) => connection.closed));
  await expect.poll(() => stack.service.app.connections.stats().connections).toBe(0);
}

/** An access token, asked for on a connection of its own that closes after the answer (fetch would keep one open from 127.0.0.1). */
async function signIn(stack: Stack, localAddress: string): Promise<string> {
  const { username, password } = await stack.createAccount("CONSUMER");
  const body = new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }).toString();
  const connection = await openConnection(stack.url, { localAddress });
  connection.write(head("POST", new URL(stack.tokenUrl).pathname, { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body), connection: "close" }) + body);
  const [answer] = await connection.closed;
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

/** A connection from `localAddress`, its first request answered (so the service has admitted or refused it). */
async function held(stack: Stack, localAddress: string, headers: Record<string, string> = {}, path = "/health/ready"): Promise<{ connection: RawConnection; answer: RawAnswer }> {
  const connection = await openConnection(stack.url, { localAddress });
  opened.push(connection);
  connection.write(head("GET", path, headers));
  await expect.poll(() => connection.answers().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  return { connection, answer: connection.answers()[0] };
}

const refusedBody = (code: string) => ({ status: 503, code, message: expect.any(String), requestId: expect.any(String) });

/** A WebSocket handshake on /graphql from `localAddress`: open, or the status it was refused with. */
function upgrade(stack: Stack, localAddress: string, headers: Record<string, string> = {}): Promise<{ socket?: WebSocket; refused?: number; retryAfter?: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${stack.url.replace("http", "ws")}/graphql`, "graphql-transport-ws", { localAddress, headers });
    socket.once("open", () => resolve({ socket }));
    socket.once("unexpected-response", (_request, response) => {
      resolve({ refused: response.statusCode, retryAfter: response.headers["retry-after"] as string | undefined });
      response.resume();
    });
    socket.once("error", () => resolve({ refused: 0 }));
  });
}

describe("connections per client address and per process", () => {
  const t = useStack({ env: { HTTP_MAX_CONNECTIONS_PER_ADDRESS: "3", HTTP_MAX_CONNECTIONS: "5", HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "120", WORKER_LOOPS: "false" } });
  const connections = () => t.stack.service.app.connections.stats().connections;
  afterEach(() => closeOpened(t.stack));

  it("refuses the fourth connection of one address with 503, Retry-After and Connection: close, while another address connects", async () => {
    for (let i = 0; i < 3; i++) expect((await held(t.stack, "127.0.0.1")).answer.status).toBe(200);
    const refused = await held(t.stack, "127.0.0.1", {}, "/api/me");
    expect(refused.answer.status).toBe(503);
    expect(refused.answer.headers).toMatchObject({ "retry-after": "2", connection: "close", "content-type": "application/json; charset=utf-8" });
    expect(JSON.parse(refused.answer.body)).toEqual(refusedBody("TOO_MANY_CONNECTIONS"));
    // Answered, then closed by the service.
    expect((await refused.connection.closed).map((answer) => answer.status)).toEqual([503]);
    // GraphQL clients read it in their own shape.
    const graphql = await held(t.stack, "127.0.0.1", {}, "/graphql?query=%7B__typename%7D");
    expect(graphql.answer.status).toBe(503);
    expect(JSON.parse(graphql.answer.body)).toEqual({ errors: [{ message: expect.any(String), extensions: { code: "TOO_MANY_CONNECTIONS" } }] });

    const other = await held(t.stack, "127.0.0.2");
    expect(other.answer.status).toBe(200);
    expect(other.answer.headers.connection).toBe("keep-alive");
  });

  it("admits the address again once one of its connections has closed", async () => {
    const first = await held(t.stack, "127.0.0.1");
    await held(t.stack, "127.0.0.1");
    await held(t.stack, "127.0.0.1");
    expect((await held(t.stack, "127.0.0.1")).answer.status).toBe(503);
    const before = connections();
    first.connection.close();
    await first.connection.closed;
    await expect.poll(connections).toBe(before - 1);
    expect((await held(t.stack, "127.0.0.1")).answer.status).toBe(200);
  });

  it("answers /health/live on a refused connection: a liveness probe is never refused for load", async () => {
    for (let i = 0; i < 3; i++) await held(t.stack, "127.0.0.1");
    const probe = await held(t.stack, "127.0.0.1", {}, "/health/live");
    expect(probe.answer).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(probe.answer.headers.connection).toBe("close");
  });

  it("counts WebSockets against the address's cap, and refuses an upgrade over it with 503", async () => {
    const token = await signIn(t.stack, "127.0.0.9");
    const sockets: WebSocket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const { socket } = await upgrade(t.stack, "127.0.0.3", { authorization: `Bearer ${token}` });
        expect(socket).toBeDefined();
        sockets.push(socket!);
        socket!.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${token}` } }));
      }
      expect((await held(t.stack, "127.0.0.3")).answer.status).toBe(503);
      expect(await upgrade(t.stack, "127.0.0.3")).toEqual({ refused: 503, retryAfter: "2" });
      // Another address upgrades as before.
      const other = await upgrade(t.stack, "127.0.0.4");
      expect(other.socket).toBeDefined();
      sockets.push(other.socket!);
    } finally {
      for (const socket of sockets) socket.terminate();
    }
    await expect.poll(connections).toBe(0);
  });

  it("refuses a connection over the process's cap with 503 OVERLOADED, whatever its address, and admits one once a connection closes", async () => {
    const kept: RawConnection[] = [];
    for (let i = 0; i < 3; i++) kept.push((await held(t.stack, "127.0.0.1")).connection);
    for (let i = 0; i < 2; i++) kept.push((await held(t.stack, "127.0.0.2")).connection);
    expect(connections()).toBe(5);
    const refused = await held(t.stack, "127.0.0.5", {}, "/api/me");
    expect(refused.answer.status).toBe(503);
    expect(refused.answer.headers).toMatchObject({ "retry-after": "2", connection: "close" });
    expect(JSON.parse(refused.answer.body)).toEqual(refusedBody("OVERLOADED"));
    kept[4].close();
    await kept[4].closed;
    await expect.poll(connections).toBe(4);
    expect((await held(t.stack, "127.0.0.5")).answer.status).toBe(200);
  });
});

describe("behind a proxy TRUST_PROXY names", () => {
  const t = useStack({ env: { TRUST_PROXY: "127.0.0.1", HTTP_MAX_CONNECTIONS_PER_ADDRESS: "2", HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "120", WORKER_LOOPS: "false" } });
  afterEach(() => closeOpened(t.stack));

  /** A request from the proxy for `client` whose body is still arriving: in flight until closed. */
  const slowRequestFor = async (client: string) => {
    const connection = await openConnection(t.stack.url, { localAddress: "127.0.0.1" });
    opened.push(connection);
    connection.write(head("POST", "/no/such/path", { "x-forwarded-for": client, "content-type": "application/json", "content-length": 1000 }));
    connection.write("{");
    return connection;
  };

  it("does not cap the proxy's own connections: it carries many clients on them", async () => {
    for (let i = 0; i < 5; i++) expect((await held(t.stack, "127.0.0.1", { "x-forwarded-for": `192.0.2.${i + 1}` })).answer.status).toBe(200);
  });

  it("caps each forwarded client's requests in flight, each request by its own X-Forwarded-For, without closing the proxy's connection", async () => {
    await slowRequestFor("203.0.113.7");
    await slowRequestFor("203.0.113.7");
    await expect.poll(() => t.stack.service.app.connections.stats().connections).toBeGreaterThanOrEqual(2);
    const { connection, answer } = await held(t.stack, "127.0.0.1", { "x-forwarded-for": "203.0.113.7" }, "/api/me");
    expect(answer.status).toBe(503);
    expect(answer.headers["retry-after"]).toBe("2");
    expect(answer.headers.connection).toBe("keep-alive");
    expect(JSON.parse(answer.body)).toEqual(refusedBody("TOO_MANY_CONNECTIONS"));
    // The same connection of the proxy, another client: answered.
    connection.write(head("GET", "/health/ready", { "x-forwarded-for": "203.0.113.8" }));
    await expect.poll(() => connection.answers().map((each) => each.status)).toEqual([503, 200]);
    // The client's requests count only while in flight: once they end, it is admitted again.
    for (const slow of opened.slice(0, 2)) slow.close();
    await expect.poll(async () => (await held(t.stack, "127.0.0.1", { "x-forwarded-for": "203.0.113.7" })).answer.status).toBe(200);
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped one as IPv4", async () => {
    await slowRequestFor("2001:db8:1:2::1");
    await slowRequestFor("2001:db8:1:2:ffff::9");
    expect((await held(t.stack, "127.0.0.1", { "x-forwarded-for": "2001:db8:1:2::77" })).answer.status).toBe(503);
    expect((await held(t.stack, "127.0.0.1", { "x-forwarded-for": "2001:db8:1:3::1" })).answer.status).toBe(200);
    await slowRequestFor("198.51.100.4");
    await slowRequestFor("::ffff:198.51.100.4");
    expect((await held(t.stack, "127.0.0.1", { "x-forwarded-for": "198.51.100.4" })).answer.status).toBe(503);
  });

  it("counts a WebSocket through the proxy against its forwarded client", async () => {
    const first = await upgrade(t.stack, "127.0.0.1", { "x-forwarded-for": "198.51.100.9" });
    const second = await upgrade(t.stack, "127.0.0.1", { "x-forwarded-for": "198.51.100.9" });
    try {
      expect(first.socket && second.socket).toBeDefined();
      expect(await upgrade(t.stack, "127.0.0.1", { "x-forwarded-for": "198.51.100.9" })).toEqual({ refused: 503, retryAfter: "2" });
      expect((await held(t.stack, "127.0.0.1", { "x-forwarded-for": "198.51.100.9" })).answer.status).toBe(503);
      const other = await upgrade(t.stack, "127.0.0.1", { "x-forwarded-for": "198.51.100.10" });
      expect(other.socket).toBeDefined();
      other.socket!.terminate();
    } finally {
      first.socket?.terminate();
      second.socket?.terminate();
    }
  });

  it("caps a connection from an address that is no trusted proxy by that address, whatever it forwards", async () => {
    await held(t.stack, "127.0.0.2", { "x-forwarded-for": "192.0.2.1" });
    await held(t.stack, "127.0.0.2", { "x-forwarded-for": "192.0.2.2" });
    const third = await held(t.stack, "127.0.0.2", { "x-forwarded-for": "192.0.2.3" });
    expect(third.answer.status).toBe(503);
    expect(third.answer.headers.connection).toBe("close");
  });
});

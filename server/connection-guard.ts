import { randomUUID } from "node:crypto";
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import proxyAddr from "@fastify/proxy-addr";
import ipaddr from "ipaddr.js";
import { edgeRefusalBody, graphqlBodyOf, type EdgeRefusalName } from "../core/edge-refusals.js";

/** Config.http's part that the server itself enforces. */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** 0: no cap per client address. */
  maxConnectionsPerAddress: number;
}

/** Why a connection, a request or an upgrade was refused (the `reason` label of activities_http_refusals_total). */
export type RefusalReason = "per_client" | "max_connections" | "event_loop_delay" | "stopping";

/** What a refused caller is told: always 503 with Retry-After; the code says which limit. */
const refusals: Record<RefusalReason, { refusal: EdgeRefusalName; message: (limits: ConnectionLimits) => string }> = {
  per_client: {
    refusal: "TOO_MANY_CONNECTIONS",
    message: (limits) => `This client address already holds ${limits.maxConnectionsPerAddress} connections, the most one address may; retry once one of them has closed`,
  },
  max_connections: { refusal: "OVERLOADED", message: () => "The service holds as many connections as it can; retry shortly" },
  event_loop_delay: { refusal: "OVERLOADED", message: () => "The service is overloaded; retry shortly" },
  stopping: { refusal: "SHUTTING_DOWN", message: () => "The service is shutting down; retry (another instance answers)" },
};

export const RETRY_AFTER_SECONDS = 2;

/**
 * Connections over a cap are answered (503) rather than reset, which costs a descriptor while the
 * caller sends its request head; at most this many are being answered at once, and beyond them a
 * connection over a cap is closed as soon as it is accepted. Node drops connections past the cap
 * plus these before JavaScript sees them (server.maxConnections).
 */
const REFUSAL_SLOTS = 64;
/** How long a connection over a cap has to send its request head before it is closed unanswered. */
const REFUSAL_WAIT_MS = 1000;
/**
 * Once the port is closed, how long connections accepted just before it have for their request
 * to arrive whole: at least one turn of the event loop reads what the kernel already holds.
 */
const LAST_ARRIVALS_MS = 250;
/** The answers that stay open to probes whatever the load: an orchestrator must not restart a process for being busy. */
const LIVENESS_PATH = "/health/live";

interface Tracked {
  /** The client address this connection counts against (its /64 for IPv6); none for a trusted proxy or with no cap. */
  client?: string;
  /** Over a cap when accepted: its request is answered 503 and the connection closed. */
  refused?: RefusalReason;
  /** Handed to the WebSocket server: no longer HTTP's to time out or cut. */
  upgraded?: boolean;
  /** The request it carries now, and its answer. */
  exchange?: { request: IncomingMessage; response: ServerResponse };
}

/**
 * Node's options for the head and request timeouts. Node looks for expired heads and requests on
 * an interval (every 30 s by default: a 10 s timeout would hold for up to 40), and cuts one at the
 * first look past its timeout: the timeouts it is given are the configured ones less one interval,
 * so that a connection is cut within the configured time, not up to an interval after it.
 */
export function nodeRequestTimeouts(limits: Pick<ConnectionLimits, "headersTimeoutMs" | "requestTimeoutMs">): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const interval = Math.max(25, Math.min(250, Math.floor(limits.headersTimeoutMs / 8)));
  return { headersTimeout: limits.headersTimeoutMs - interval, requestTimeout: limits.requestTimeoutMs - interval, connectionsCheckingInterval: interval };
}

/**
 * The HTTP server's hygiene, the same with tracing on or off (http-app.ts builds this one server for both):
 * - timeouts: a request head must arrive within `headersTimeoutMs` and the whole request, body
 *   included, within `requestTimeoutMs` (408, then the connection closes); an idle keep-alive
 *   connection closes after `keepAliveTimeoutMs`. Node enforces them (nodeRequestTimeouts);
 * - caps: connections at once per client address and in the whole process. A connection over
 *   either gets 503 with Retry-After and `Connection: close` for its first request. Behind a proxy
 *   that TRUST_PROXY names, the proxy's own connections count against the process's cap only (a
 *   proxy carries many clients on each): the per-address cap counts the forwarded client's
 *   requests in flight and WebSockets instead, each request by its own X-Forwarded-For;
 * - stopping: `drain` keeps the port open while every answer closes its connection; `closing`
 *   (the app's close) cuts every connection that is idle or whose request has not arrived whole,
 *   and leaves those with a request being answered to finish.
 */
export class ConnectionGuard {
  private readonly tracked = new Map<Socket, Tracked>();
  /** Connections (direct) or requests and WebSockets (forwarded) per client address. */
  private readonly perClient = new Map<string, number>();
  private admitted = 0;
  private refusing = 0;
  private readonly trusted: (address: string, hop: number) => boolean;
  private draining = false;
  /** Whether the event loop is too far behind to take new work (set once load shedding is on). */
  underPressure: () => boolean = () => false;

  constructor(
    private readonly limits: ConnectionLimits,
    trustProxy: boolean | string,
    private readonly onRefusal: (reason: RefusalReason) => void = () => {},
  ) {
    this.trusted = trustProxy === true ? () => true : trustProxy === false ? () => false : proxyAddr.compile(trustProxy.split(",").map((entry) => entry.trim()));
  }

  /** A stop has begun: answers close their connections, new upgrades are refused. */
  get stopping(): boolean {
    return this.draining;
  }

  /** Open connections this process admitted (WebSockets included), and those being refused. */
  stats(): { connections: number; refusing: number } {
    return { connections: this.admitted, refusing: this.refusing };
  }

  /** An HTTP server for `listener`, with the timeouts and caps above. */
  createServer(listener: RequestListener): Server {
    const { keepAliveTimeoutMs } = this.limits;
    const server = createServer(
      {
        ...nodeRequestTimeouts(this.limits),
        keepAliveTimeout: keepAliveTimeoutMs,
      },
      (request, response) => this.onRequest(request, response, listener),
    );
    server.keepAliveTimeout = keepAliveTimeoutMs;
    server.maxConnections = this.limits.maxConnections + REFUSAL_SLOTS;
    server.on("connection", (socket: Socket) => this.onConnection(socket));
    return server;
  }

  /**
   * Whether a WebSocket upgrade may go ahead on this socket; if not, it has been answered 503 and
   * closed. The connection itself was counted when accepted; behind a trusted proxy the
   * forwarded client is counted for as long as the socket is open.
   */
  admitUpgrade(request: IncomingMessage, socket: Duplex): boolean {
    const tracked = this.tracked.get(socket as Socket);
    let refused = tracked?.refused;
    if (!refused && this.draining) refused = "stopping";
    else if (!refused && this.underPressure()) refused = "event_loop_delay";
    if (refused && refused !== tracked?.refused) this.onRefusal(refused);
    if (!refused && tracked && !tracked.client && this.forwarding(socket as Socket)) {
      const client = this.forwardedClient(request);
      if (this.take(client)) socket.once("close", () => this.release(client));
      else {
        refused = "per_client";
        this.onRefusal(refused);
      }
    }
    if (refused) {
      const { status, head, body } = this.refusalAnswer(refused, request.url, true);
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(head).map(([name, value]) => `${name}: ${value}`).join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
      return false;
    }
    if (tracked) tracked.upgraded = true;
    return true;
  }

  /** A stop begins: the port stays open, but every answer closes its connection and upgrades are refused. */
  drain(): void {
    this.draining = true;
  }

  /**
   * The app is closing (its port closes next): connections accepted just before get a moment for
   * their request to arrive, then every connection without a request being answered is cut.
   */
  closing(): void {
    this.draining = true;
    setTimeout(() => this.cutUnanswerable(), LAST_ARRIVALS_MS).unref();
  }

  /** Idle connections, slow heads and bodies still arriving: nothing that waiting for would answer. */
  private cutUnanswerable(): void {
    for (const [socket, tracked] of this.tracked) {
      if (tracked.upgraded) continue;
      const exchange = tracked.exchange;
      const answering = exchange && exchange.request.complete && !exchange.response.writableFinished && !tracked.refused;
      if (!answering) socket.destroy();
    }
  }

  private onConnection(socket: Socket): void {
    const peer = socket.remoteAddress;
    if (peer === undefined) {
      // Closed before Node could tell who it was.
      socket.destroy();
      return;
    }
    const perAddress = this.limits.maxConnectionsPerAddress > 0 && !this.trusted(peer, 0);
    const client = perAddress ? clientKey(peer) : undefined;
    let refused: RefusalReason | undefined;
    if (client && (this.perClient.get(client) ?? 0) >= this.limits.maxConnectionsPerAddress) refused = "per_client";
    else if (this.admitted >= this.limits.maxConnections) refused = "max_connections";
    if (refused) {
      this.onRefusal(refused);
      if (this.refusing >= REFUSAL_SLOTS) {
        socket.destroy();
        return;
      }
      this.refusing++;
      this.tracked.set(socket, { refused });
      socket.setTimeout(REFUSAL_WAIT_MS);
      socket.once("timeout", () => socket.destroy());
      socket.once("close", () => {
        this.refusing--;
        this.tracked.delete(socket);
      });
      return;
    }
    this.admitted++;
    if (client) this.take(client);
    this.tracked.set(socket, { client });
    socket.once("close", () => {
      this.admitted--;
      if (client) this.release(client);
      this.tracked.delete(socket);
    });
  }

  private onRequest(request: IncomingMessage, response: ServerResponse, listener: RequestListener): void {
    const tracked = this.tracked.get(request.socket as Socket);
    if (tracked) tracked.exchange = { request, response };
    const live = pathOf(request.url) === LIVENESS_PATH;
    if (tracked?.refused) {
      // Counted when the connection was accepted.
      if (!live) return this.refuse(request, response, tracked.refused, false, false);
      response.setHeader("connection", "close");
      return listener(request, response);
    }
    if (tracked && !tracked.client && !live && this.forwarding(request.socket as Socket)) {
      const client = this.forwardedClient(request);
      // The proxy's connection carries other clients' requests: refused without closing it.
      if (!this.take(client)) return this.refuse(request, response, "per_client", true);
      response.once("close", () => this.release(client));
    }
    listener(request, response);
  }

  /** A connection from a proxy TRUST_PROXY names, with a cap per client to apply to what it forwards. */
  private forwarding(socket: Socket): boolean {
    return this.limits.maxConnectionsPerAddress > 0 && socket.remoteAddress !== undefined && this.trusted(socket.remoteAddress, 0);
  }

  /** The client a trusted proxy forwards, as Fastify's request.ip reads it (the nearest untrusted X-Forwarded-For hop). */
  private forwardedClient(request: IncomingMessage): string {
    return clientKey(proxyAddr(request, this.trusted));
  }

  private take(client: string): boolean {
    const held = this.perClient.get(client) ?? 0;
    if (held >= this.limits.maxConnectionsPerAddress) return false;
    this.perClient.set(client, held + 1);
    return true;
  }

  private release(client: string): void {
    const held = (this.perClient.get(client) ?? 1) - 1;
    if (held <= 0) this.perClient.delete(client);
    else this.perClient.set(client, held);
  }

  private refuse(request: IncomingMessage, response: ServerResponse, reason: RefusalReason, keepConnection: boolean, count = true): void {
    if (count) this.onRefusal(reason);
    const { status, head, body } = this.refusalAnswer(reason, request.url, !keepConnection);
    response.writeHead(status, head).end(body);
  }

  private refusalAnswer(reason: RefusalReason, url: string | undefined, close: boolean): { status: number; head: Record<string, string | number>; body: string } {
    const requestId = randomUUID();
    const { refusal, message } = refusals[reason];
    const answer = edgeRefusalBody(refusal, message(this.limits));
    // A GraphQL client reads errors from the body it knows; every other path gets the REST error body.
    const body = JSON.stringify(pathOf(url) === "/graphql" ? graphqlBodyOf(answer) : { ...answer, requestId });
    return {
      status: answer.status,
      head: {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
        "retry-after": RETRY_AFTER_SECONDS,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "x-request-id": requestId,
        ...(close ? { connection: "close" } : {}),
      },
      body,
    };
  }
}

function pathOf(url: string | undefined): string {
  const end = (url ?? "/").search(/[?#]/);
  return end === -1 ? (url ?? "/") : (url ?? "/").slice(0, end);
}

/**
 * What a cap per client address counts by: an IPv4 address (an IPv4-mapped IPv6 one as IPv4), or
 * an IPv6 address's /64, the block one subscriber is given; counting single IPv6 addresses would
 * let one caller open a connection from each of its 2^64. Anything else (a forwarded value that is
 * no address) is counted as it is, cut to 100 characters.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address.slice(0, 100);
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}

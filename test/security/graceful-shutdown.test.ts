import { execFile } from "node:child_process";
import http from "node:http";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { freePort, login, printedPartner, ready, root, startProcess, until, type Running } from "../support/child-process.js";

/**
 * SIGTERM with work in flight, against real child processes: the compiled build started as the
 * README's production command (node as the only process, as PID 1 in a container is), and
 * `npm start` signalled as a terminal or systemd signals it (the whole process group) and as a
 * container runtime does (the first process only). The children run on the embedded database, so
 * the file runs with the embedded run of the suite only (vitest.config.ts).
 */
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const refusesConnections = (base: string) =>
  until("the port to refuse new connections", () => fetch(`${base}/health/live`).then(() => undefined, () => true), 10_000);

interface InFlight {
  answered: Promise<{ status: number; text: string; connection?: string }>;
  finish(): void;
}

/** A GraphQL request whose headers and half its body are sent: in flight until `finish`. */
function halfSent(port: number, token: string, query: string): InFlight {
  const body = JSON.stringify({ query });
  const half = Math.floor(body.length / 2);
  const request = http.request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/graphql",
    agent: false,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), authorization: `Bearer ${token}` },
  });
  const answered = new Promise<{ status: number; text: string; connection?: string }>((resolve, reject) => {
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, text, connection: response.headers.connection }));
    });
    request.on("error", reject);
  });
  request.write(body.slice(0, half));
  return { answered, finish: () => request.end(body.slice(half)) };
}

/** A graphql-ws connection, acknowledged; resolves its close code and reason when it closes. */
async function openSocket(port: number, token: string): Promise<{ closed: Promise<{ code: number; reason: string }> }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, "graphql-transport-ws");
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: `Bearer ${token}` } }));
  await new Promise<void>((resolve) => socket.on("message", (data) => JSON.parse(String(data)).type === "connection_ack" && resolve()));
  return { closed };
}

describe("graceful shutdown", () => {
  beforeAll(async () => {
    // The production command runs compiled JavaScript; build it as the README says.
    await promisify(execFile)(npm, ["run", "build"], { cwd: root });
  }, 180_000);

  it("answers 20 requests in flight when SIGTERM arrives, closes WebSockets with 1001 and exits 0 (node dist/server/main.js)", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const running = startProcess({ DATA_DIR: "memory", PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: "info" }, [], { file: process.execPath, args: ["dist/server/main.js"] });
    await ready(base);
    const partner = await printedPartner(running);
    const token = await login(base, partner.username, partner.password);
    const socket = await openSocket(port, token);

    const before = incomingGraphqlRequests(running);
    const inFlight = Array.from({ length: 20 }, () => halfSent(port, token, "{ me { username } }"));
    // In flight means the server has them: Fastify logs each request once its headers are read.
    await until("the server to receive 20 requests", async () => (incomingGraphqlRequests(running) - before >= 20 ? true : undefined));

    running.child.kill("SIGTERM");
    await refusesConnections(base);
    for (const request of inFlight) request.finish();
    const answers = await Promise.all(inFlight.map((request) => request.answered));

    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    // Each answer tells its client to reconnect elsewhere for the next request.
    expect(answers.map((answer) => answer.connection)).toEqual(Array(20).fill("close"));
    for (const answer of answers) expect(JSON.parse(answer.text)).toEqual({ data: { me: { username: partner.username } } });
    expect(await socket.closed).toEqual({ code: 1001, reason: "Server shutting down" });
    expect(await running.exited).toBe(0);
    expect(running.output()).toContain('"msg":"stopped"');
  }, 120_000);

  it.each([
    ["the whole process group (a terminal, systemd)", (child: Running["child"]) => process.kill(-child.pid!, "SIGTERM")],
    ["only npm, the first process (a container runtime)", (child: Running["child"]) => child.kill("SIGTERM")],
  ])("stops npm start and the server under it when SIGTERM reaches %s", async (_who, signal) => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Its own process group, so that the group can be signalled without signalling the tests.
    const running = startProcess({ DATA_DIR: "memory", PORT: String(port), PUBLIC_URL: base, SEED_DEMO: "false" }, [], { file: npm, args: ["start", "--silent"], detached: true });
    await ready(base);
    signal(running.child);
    expect(await running.exited).toBe(0);
    // Nothing is left behind listening: the server itself stopped, not only npm.
    await refusesConnections(base);
    expect(running.output()).not.toContain("took longer");
  }, 90_000);
});

function incomingGraphqlRequests(running: Running): number {
  return running.output().split("\n").filter((line) => line.includes('"msg":"incoming request"') && line.includes('"url":"/graphql"')).length;
}

import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { useStack } from "../support/stack.js";

/** Sends raw bytes and returns the raw answer, read until the server closes the connection. */
function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

function parse(answer: string) {
  const [head, body] = answer.split("\r\n\r\n");
  const [statusLine, ...headerLines] = head.split("\r\n");
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(body) };
}

/**
 * Found by the input fuzz (input-fuzz.test.ts): requests Node's HTTP parser refuses never reach
 * Fastify's error handler, and were answered with Fastify's default `{error, message, statusCode}`.
 */
describe("requests refused by the HTTP parser", () => {
  const t = useStack({ env: { WORKER_LOOPS: "false" } });

  it("answer 431 with the REST error body when the head is too large", async () => {
    const response = await fetch(`${t.stack.url}/api/consumer/products?Search=${"x".repeat(20_000)}`);
    expect(response.status).toBe(431);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await response.json();
    expect(body).toEqual({ status: 431, code: "REQUEST_HEADER_FIELDS_TOO_LARGE", message: expect.any(String), requestId: response.headers.get("x-request-id") });
  });

  it("answer 400 with the REST error body for a malformed request", async () => {
    const answer = parse(await rawExchange(t.stack.url, "GET /api/me HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, code: "BAD_REQUEST", message: "The request is not valid HTTP", requestId: answer.headers["x-request-id"] });
  });
});

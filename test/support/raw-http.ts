import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A TCP connection to a service, written to byte by byte as a slow or hostile client would. */
export interface RawConnection {
  socket: Socket;
  /** Resolves once the connection has closed (by either side), with the answers it carried. */
  closed: Promise<RawAnswer[]>;
  isClosed(): boolean;
  /** The complete answers received so far. */
  answers(): RawAnswer[];
  write(text: string): void;
  /** Writes `text` one character every `everyMs` until it is all sent or the connection closes. */
  trickle(text: string, everyMs: number): { sent: () => number };
  close(): void;
}

/** Opens a connection to `url`'s host and port, from `localAddress` when given (127.0.0.2 is another client on loopback). */
export function openConnection(url: string, options: { localAddress?: string } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress: options.localAddress });
    let received = Buffer.alloc(0);
    let closed = false;
    socket.on("data", (chunk) => (received = Buffer.concat([received, chunk])));
    // A reset is a close too: what the tests look at is whether and how it was answered.
    socket.on("error", () => undefined);
    const closedPromise = new Promise<RawAnswer[]>((done) =>
      socket.on("close", () => {
        closed = true;
        done(parseAnswers(received));
      }),
    );
    socket.once("connect", () =>
      resolve({
        socket,
        closed: closedPromise,
        isClosed: () => closed,
        answers: () => parseAnswers(received),
        write: (text) => void (closed || socket.write(text)),
        trickle(text, everyMs) {
          let sent = 0;
          const timer = setInterval(() => {
            if (closed || sent >= text.length) return clearInterval(timer);
            socket.write(text[sent++]);
          }, everyMs);
          socket.once("close", () => clearInterval(timer));
          return { sent: () => sent };
        },
        close: () => socket.destroy(),
      }),
    );
    socket.once("error", reject);
  });
}

/** The complete HTTP/1.1 answers in `bytes` (each with a Content-Length, as the service sends them). */
export function parseAnswers(bytes: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = bytes;
  for (;;) {
    const end = rest.indexOf("\r\n\r\n");
    if (end === -1) return answers;
    const [statusLine, ...lines] = rest.subarray(0, end).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    const length = Number(headers["content-length"] ?? 0);
    if (rest.length < end + 4 + length) return answers;
    answers.push({ status: Number(statusLine.split(" ")[1]), headers, body: rest.subarray(end + 4, end + 4 + length).toString("utf8") });
    rest = rest.subarray(end + 4 + length);
  }
}

/** A request head for `path` (HTTP/1.1, keep-alive), with the extra header lines given. */
export const head = (method: string, path: string, headers: Record<string, string | number> = {}) =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;

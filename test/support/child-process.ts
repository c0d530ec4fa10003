import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";
export { freePort } from "./free-port.js";

/** The repository, where `npm start` and the compiled build run from. */
export const root = path.resolve(import.meta.dirname, "../..");

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start`'s command: the sources through tsx. The compiled build's is in built-service.ts. */
export const npmStartCommand = { file: process.execPath, args: ["--import", "tsx", "server/main.ts"] };

/** Children still running, and whether each leads its own process group (detached). */
const running = new Map<ChildProcess, boolean>();

/**
 * Kills every child started here that is still running: a test that fails before it stops its
 * child must not leave a service running for the rest of the suite (and after it).
 */
export function killStartedProcesses(): void {
  for (const [child, detached] of running) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    // A detached child leads its own process group: npm start and the server under it.
    if (detached && child.pid) {
      try {
        process.kill(-child.pid, "SIGKILL");
        continue;
      } catch {
        // Fall through to the child alone.
      }
    }
    child.kill("SIGKILL");
  }
}

/**
 * The service in a child process: `node --import tsx server/main.ts` as `npm start` runs it, or
 * another command (the compiled build, npm itself). DATABASE_URL is passed on only when named
 * (DATABASE_DIRECT_URL with the suite's own DATABASE_URL, or when named).
 * `user`: the child runs as that user (uid and gid), for what root may do and others may not.
 */
export function startProcess(
  env: Record<string, string>,
  args: string[] = [],
  command: { file: string; args: string[]; detached?: boolean } = npmStartCommand,
  user?: { uid: number; gid: number },
): Running {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", ...env };
  if (!("DATABASE_URL" in env)) delete childEnv.DATABASE_URL;
  // The server behind the suite's pooler, for the suite's DATABASE_URL only.
  if (!("DATABASE_DIRECT_URL" in env) && childEnv.DATABASE_URL !== process.env.DATABASE_URL) delete childEnv.DATABASE_DIRECT_URL;
  const child = spawn(command.file, [...command.args, ...args], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"], detached: command.detached, ...user });
  running.set(child, Boolean(command.detached));
  child.on("close", () => running.delete(child));
  let text = "";
  child.stdout!.on("data", (chunk) => (text += chunk));
  child.stderr!.on("data", (chunk) => (text += chunk));
  // "close", not "exit": only then has all the child's output been read.
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, output: () => text, exited };
}


export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const ready = (base: string) => until(`${base} ready`, async () => ((await fetch(`${base}/health/ready`)).status === 200 ? true : undefined));

export async function login(base: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/auth/realms/activities/protocol/openid-connect/token`, {
    method: "POST",
    body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The demo content partner's credentials, as the first start prints them. */
export async function printedPartner(running: Running): Promise<{ username: string; password: string }> {
  const printed = await until("credentials printed", async () => running.output().match(/CONTENT_PARTNER\s+(demo-\S+)\s+(sandbox-\S+)/) ?? undefined);
  return { username: printed[1], password: printed[2] };
}

export const stopAndWait = async (running: Running) => {
  running.child.kill("SIGTERM");
  return running.exited;
};

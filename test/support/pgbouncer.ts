import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "./free-port.js";

/** A PgBouncer in front of a PostgreSQL server, as an operator runs one. */
export interface Pgbouncer {
  /** `server`'s URL with the pooler's host and port: the same user and database, through the pooler. */
  through(server: string): string;
  stop(): Promise<void>;
}

/** Clients must speak TLS to the pooler, which shows them this certificate (a server as a hosted PostgreSQL is, for the client). */
export interface PgbouncerTls {
  certFile: string;
  keyFile: string;
}

/** Where Debian's package puts it (`apt-get install pgbouncer`; `.ci/run` installs it when missing). */
const PGBOUNCER = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((file) => existsSync(file));

/**
 * The pooler's configuration: transaction mode, and otherwise Debian's stock settings (no
 * `ignore_startup_parameters`, no `max_prepared_statements`), so that whatever a stock pooler
 * refuses is refused here too.
 */
export function pgbouncerIni(target: URL, port: number, folder: string, tls?: PgbouncerTls): string {
  return [
    "[databases]",
    `* = host=${target.hostname} port=${target.port || 5432}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${path.join(folder, "users.txt")}`,
    "pool_mode = transaction",
    "max_client_conn = 2000",
    "default_pool_size = 40",
    `logfile = ${path.join(folder, "pgbouncer.log")}`,
    ...(tls ? ["client_tls_sslmode = require", `client_tls_cert_file = ${tls.certFile}`, `client_tls_key_file = ${tls.keyFile}`] : []),
    "",
  ].join("\n");
}


/**
 * Starts PgBouncer in transaction mode before the server of `server` (a postgres:// URL of a
 * trust-authenticated server, as this machine's), with the stock configuration's defaults:
 * nothing ignored among the startup parameters, no prepared statements kept. Every database of
 * the server is reachable through it. PgBouncer refuses to run as root: then it runs as `postgres`.
 * With `tls`, it admits clients over TLS only.
 */
export async function startPgbouncer(server: string, tls?: PgbouncerTls): Promise<Pgbouncer> {
  if (!PGBOUNCER) throw new Error("pgbouncer is not installed (apt-get install pgbouncer)");
  const target = new URL(server);
  const user = decodeURIComponent(target.username || userInfo().username);
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), "pgbouncer-"));
  chmodSync(folder, 0o777);
  writeFileSync(path.join(folder, "users.txt"), `"${user}" ""\n`);
  writeFileSync(path.join(folder, "pgbouncer.ini"), pgbouncerIni(target, port, folder, tls));
  const asRoot = process.getuid?.() === 0;
  const runAs = asRoot ? (spawnSync("id", ["-u", "postgres"]).status === 0 ? "postgres" : "nobody") : undefined;
  const child: ChildProcess = spawn(PGBOUNCER, [...(runAs ? ["-u", runAs] : []), path.join(folder, "pgbouncer.ini")], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const through = (url: string) => {
    const pooled = new URL(url);
    pooled.hostname = "127.0.0.1";
    pooled.port = String(port);
    return pooled.toString();
  };
  // Ready once a statement passes through it.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = postgres(through(server), { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 2, ssl: tls ? "require" : false });
    try {
      await probe`select 1`;
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`pgbouncer did not start: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await probe.end({ timeout: 1 });
    }
  }
  return {
    through,
    stop: async () => {
      // SIGINT: a fast shutdown, clients cut.
      child.kill("SIGINT");
      const killed = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killed);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

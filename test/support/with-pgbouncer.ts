import { spawn } from "node:child_process";
import { startPgbouncer } from "./pgbouncer.js";

/**
 * Runs a command with the suite's database behind PgBouncer in transaction mode:
 *
 *   DATABASE_URL=postgres://… tsx test/support/with-pgbouncer.ts -- npm test -- <files>
 *
 * The command sees DATABASE_URL pointing at the pooler and DATABASE_DIRECT_URL at the server,
 * as a service deployed behind a pooler is configured; its exit code is this one's.
 */
const server = process.env.DATABASE_URL;
if (!server) throw new Error("DATABASE_URL must name the PostgreSQL server to put the pooler in front of");
const command = process.argv.slice(process.argv.indexOf("--") + 1);
if (!command.length) throw new Error("usage: with-pgbouncer.ts -- <command> [arguments]");
const bouncer = await startPgbouncer(server);
const child = spawn(command[0], command.slice(1), { stdio: "inherit", env: { ...process.env, DATABASE_URL: bouncer.through(server), DATABASE_DIRECT_URL: server } });
const code = await new Promise<number>((resolve) => child.once("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0))));
await bouncer.stop();
process.exit(code);

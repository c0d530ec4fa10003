import type postgres from "postgres";

/** Connections in each pool when neither DATABASE_POOL_SIZE nor the server's limit says otherwise. */
export const DEFAULT_POOL_SIZE = 10;

/** What a PostgreSQL server lets ordinary roles open: `max_connections` less the slots it keeps back. */
export interface ServerConnectionLimit {
  maxConnections: number;
  /** `superuser_reserved_connections`, plus `reserved_connections` from PostgreSQL 16 on. */
  reservedConnections: number;
}

/** A serving process's most: two pools (drizzle/database.ts) and the LISTEN connection of its events. */
export const connectionsPerProcess = (poolSize: number) => 2 * poolSize + 1;

export type PoolSizePlan = { poolSize: number } | { refused: string };

/**
 * postgres.js opens connections only as statements need them, so pools that together exceed what
 * the server allows start fine and fail under load, with "too many clients" on whichever requests
 * come last. The pool size is therefore settled against the server's limit when the database opens:
 * - DATABASE_POOL_SIZE, when set, is kept if every process's pools fit; otherwise the process refuses
 *   to start, naming the numbers.
 * - Unset, each pool gets 10 connections, fewer when the processes would take more than half of what
 *   the server allows: the other half is left for a second copy of the service during a rolling
 *   restart, migrations and operators' tools. One connection a pool is the least; processes that
 *   cannot have even that within the whole limit are refused.
 * Only this service's `processes` (WEB_CONCURRENCY of one role) are counted: other roles or services
 * on the same server are for DATABASE_POOL_SIZE to leave room for.
 */
export function planPoolSize(limit: ServerConnectionLimit, options: { processes: number; requested?: number }): PoolSizePlan {
  const { processes, requested } = options;
  const usable = limit.maxConnections - limit.reservedConnections;
  const allows = `PostgreSQL allows ${usable} (max_connections ${limit.maxConnections} less ${limit.reservedConnections} reserved)`;
  const perProcess = processes === 1 ? "" : ` in each of ${processes} processes (WEB_CONCURRENCY)`;
  if (requested !== undefined) {
    const needed = processes * connectionsPerProcess(requested);
    if (needed > usable) {
      return { refused: `DATABASE_POOL_SIZE=${requested}${perProcess} needs up to ${needed} connections (two pools and one for LISTEN a process), but ${allows}: lower DATABASE_POOL_SIZE or WEB_CONCURRENCY, or raise max_connections` };
    }
    return { poolSize: requested };
  }
  const fitted = Math.min(DEFAULT_POOL_SIZE, Math.floor((Math.floor(usable / 2 / processes) - 1) / 2));
  if (fitted >= 1) return { poolSize: fitted };
  if (processes * connectionsPerProcess(1) <= usable) return { poolSize: 1 };
  return { refused: `${processes} processes (WEB_CONCURRENCY) need at least ${processes * connectionsPerProcess(1)} connections (two pools of one and one for LISTEN each), but ${allows}: lower WEB_CONCURRENCY or raise max_connections` };
}

/** The server's limit, read on a connection of the caller's (one that is about to be closed anyway). */
export async function readConnectionLimit(sql: postgres.Sql): Promise<ServerConnectionLimit> {
  const [row] = await sql<{ max: number; superuser: number; reserved: number }[]>`
    select current_setting('max_connections')::int as max,
           current_setting('superuser_reserved_connections')::int as superuser,
           coalesce(current_setting('reserved_connections', true), '0')::int as reserved`;
  return { maxConnections: row.max, reservedConnections: row.superuser + row.reserved };
}

/** The pools cannot fit the server's limit: a setting to change, reported like a wrong one. */
export class ConnectionBudgetError extends Error {}

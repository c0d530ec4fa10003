import type postgres from "postgres";

/**
 * Whether reads that tolerate lag may go to the read replica (DATABASE_READ_URL) now. A probe
 * every few seconds reads how far the replica's replay is behind the primary's WAL; while it is
 * further behind than the limit, or cannot be reached, those reads go to the primary, so that a
 * replica that stalls or goes away costs the primary load, never an answer.
 */
export interface ReplicaState {
  usable: boolean;
  /** Seconds the replica's replay is behind; 0 when caught up; null before the first probe or while unreachable. */
  lagSeconds: number | null;
  /** Why it is not used, when it is not. */
  reason?: string;
}

/** One probe's readings: the primary's WAL position, and the replica's replay of it. */
export interface ReplicaReading {
  /** `pg_current_wal_lsn()` on the primary, read just before the replica's readings. */
  primaryLsn: string;
  /** `pg_is_in_recovery()` on the replica: false for a server that is not a standby (a promoted one, or a stand-in copy). */
  inRecovery: boolean;
  /** `pg_last_wal_replay_lsn()`, null when not in recovery. */
  replayedLsn: string | null;
  /** Seconds since the last transaction replayed, `now() - pg_last_xact_replay_timestamp()`; null when none yet. */
  sinceReplaySeconds: number | null;
}

/** `16/B374D848` as a number of bytes (exact up to 2^53, some 9 petabytes of WAL). */
export function lsnBytes(lsn: string): number {
  const [high, low] = lsn.split("/");
  return parseInt(high!, 16) * 2 ** 32 + parseInt(low!, 16);
}

/**
 * How far behind a reading says the replica is. Caught up when it has replayed all the primary had
 * written when the probe began (a quiet primary writes nothing, and time since the last replay
 * says nothing then); otherwise the time since the last transaction it replayed. A server that is
 * no standby replays nothing and lags nothing: a copy kept by other means, as the operator chose.
 */
export function replicaLag(reading: ReplicaReading): number {
  if (!reading.inRecovery || reading.replayedLsn === null) return 0;
  if (lsnBytes(reading.replayedLsn) >= lsnBytes(reading.primaryLsn)) return 0;
  return Math.max(0, reading.sinceReplaySeconds ?? Number.POSITIVE_INFINITY);
}

export function stateOf(reading: ReplicaReading, maxLagSeconds: number): ReplicaState {
  const lagSeconds = replicaLag(reading);
  if (lagSeconds > maxLagSeconds) return { usable: false, lagSeconds, reason: `${Number.isFinite(lagSeconds) ? `${lagSeconds.toFixed(1)} s` : "no transaction replayed"} behind, over the ${maxLagSeconds} s allowed` };
  return { usable: true, lagSeconds };
}

/** How often the replica's lag is read. */
export const REPLICA_PROBE_MS = 2_000;

/** Probes the replica every REPLICA_PROBE_MS; `state` is what the last probe found (unusable until the first answers). */
export class ReplicaMonitor {
  state: ReplicaState = { usable: false, lagSeconds: null, reason: "not probed yet" };
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;

  constructor(
    private readonly primary: postgres.Sql,
    private readonly replica: postgres.Sql,
    private readonly maxLagSeconds: number,
    private readonly onChange: (state: ReplicaState) => void = () => {},
  ) {}

  /** Probes once now (the open waits for it, so that a start says whether the replica serves) and then every REPLICA_PROBE_MS. */
  async start(): Promise<void> {
    await this.probe();
    this.timer = setInterval(() => void (this.probing ??= this.probe().finally(() => (this.probing = undefined))), REPLICA_PROBE_MS);
    this.timer.unref();
  }

  async probe(): Promise<void> {
    let next: ReplicaState;
    try {
      const [{ lsn }] = await this.primary<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
      const [row] = await this.replica<{ in_recovery: boolean; replayed: string | null; since: number | null }[]>`
        select pg_is_in_recovery() as in_recovery, pg_last_wal_replay_lsn()::text as replayed,
               extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since`;
      next = stateOf({ primaryLsn: lsn, inRecovery: row.in_recovery, replayedLsn: row.replayed, sinceReplaySeconds: row.since }, this.maxLagSeconds);
    } catch (error) {
      next = { usable: false, lagSeconds: null, reason: `unreachable (${(error as Error).message})` };
    }
    const changed = next.usable !== this.state.usable;
    this.state = next;
    if (changed) this.onChange(next);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.probing;
  }
}

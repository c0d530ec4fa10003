import { describe, expect, it } from "vitest";
import { lsnBytes, replicaLag, stateOf, type ReplicaReading } from "../../../drizzle/read-replica.js";

const standby = (reading: Partial<ReplicaReading>): ReplicaReading => ({ primaryLsn: "0/3000000", inRecovery: true, replayedLsn: "0/3000000", sinceReplaySeconds: 0, ...reading });

describe("a read replica's lag", () => {
  it("reads a WAL position as bytes, its high half counting 2^32", () => {
    expect(lsnBytes("0/0")).toBe(0);
    expect(lsnBytes("0/FF")).toBe(255);
    expect(lsnBytes("16/B374D848")).toBe(0x16 * 2 ** 32 + 0xb374d848);
    expect(lsnBytes("1/0")).toBeGreaterThan(lsnBytes("0/FFFFFFFF"));
  });

  it("is none once the replica has replayed what the primary had written, however long ago its last transaction (a quiet primary)", () => {
    expect(replicaLag(standby({ replayedLsn: "0/3000000", sinceReplaySeconds: 3600 }))).toBe(0);
    expect(replicaLag(standby({ replayedLsn: "0/3000010", primaryLsn: "0/3000000", sinceReplaySeconds: 3600 }))).toBe(0);
  });

  it("is the time since its last replayed transaction while it has not caught up, and endless when it never replayed one", () => {
    expect(replicaLag(standby({ replayedLsn: "0/2FFFFFF", sinceReplaySeconds: 4.5 }))).toBe(4.5);
    expect(replicaLag(standby({ replayedLsn: "0/2FFFFFF", sinceReplaySeconds: null }))).toBe(Number.POSITIVE_INFINITY);
  });

  it("is none for a server that is no standby: a copy kept by other means", () => {
    expect(replicaLag(standby({ inRecovery: false, replayedLsn: null, sinceReplaySeconds: null }))).toBe(0);
  });

  it("serves up to the limit and not past it, saying how far behind it is", () => {
    expect(stateOf(standby({ replayedLsn: "0/1", sinceReplaySeconds: 10 }), 10)).toEqual({ usable: true, lagSeconds: 10 });
    expect(stateOf(standby({ replayedLsn: "0/1", sinceReplaySeconds: 10.25 }), 10)).toEqual({ usable: false, lagSeconds: 10.25, reason: "10.3 s behind, over the 10 s allowed" });
    expect(stateOf(standby({ replayedLsn: "0/1", sinceReplaySeconds: null }), 10)).toMatchObject({ usable: false, reason: "no transaction replayed behind, over the 10 s allowed" });
  });
});

import { describe, expect, it } from "vitest";
import { postgresTurns } from "../../../drizzle/database.js";
import { FairShare } from "../../../drizzle/fair-share.js";

/** A statement that runs until the test ends it, recording when it started. */
function statement(log: string[], name: string) {
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  return {
    work: () => {
      log.push(name);
      return done;
    },
    end,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("FairShare: accounts take turns at the connections", () => {
  it("lets a lone account use every slot, and holds the next statement until one is free", async () => {
    const share = new FairShare({ capacity: 2, share: 1, most: 2 });
    const log: string[] = [];
    const [a1, a2, a3] = ["a1", "a2", "a3"].map((name) => statement(log, name));
    const runs = [share.run("a", a1.work), share.run("a", a2.work), share.run("a", a3.work)];
    await settle();
    expect(log).toEqual(["a1", "a2"]);
    expect(share.queued).toBe(1);
    a1.end();
    await settle();
    expect(log).toEqual(["a1", "a2", "a3"]);
    a2.end();
    a3.end();
    await Promise.all(runs);
    expect(share.queued).toBe(0);
  });

  it("gives a freed slot to an account waiting with none before the account that filled the queue", async () => {
    const share = new FairShare({ capacity: 1, share: 1, most: 1 });
    const log: string[] = [];
    const burst = Array.from({ length: 30 }, (_, i) => statement(log, `attacker${i}`));
    const runs = burst.map((s) => share.run("attacker", s.work));
    await settle();
    const victim = statement(log, "victim");
    const victimRun = share.run("victim", victim.work);
    burst[0].end();
    await settle();
    // The victim waited for the statement running, not for the 29 queued before it.
    expect(log).toEqual(["attacker0", "victim"]);
    victim.end();
    await victimRun;
    for (const s of burst) s.end();
    await Promise.all(runs);
    expect(log).toHaveLength(31);
  });

  it("serves waiting accounts in turn, each keeping its own order", async () => {
    const share = new FairShare({ capacity: 1, share: 1, most: 1 });
    const log: string[] = [];
    const first = statement(log, "first");
    const running = share.run("x", first.work);
    const queued = ["a1", "a2", "a3", "b1", "b2", "c1"].map((name) => {
      const s = statement(log, name);
      s.end();
      return share.run(name[0], s.work);
    });
    first.end();
    await Promise.all([running, ...queued]);
    expect(log).toEqual(["first", "a1", "b1", "c1", "a2", "b2", "a3"]);
  });

  it("lets an account past its share only while no other account runs, waits, or ran within quietMs", async () => {
    let now = 0;
    const share = new FairShare({ capacity: 2, share: 1, most: 2, quietMs: 20 }, () => now);
    const log: string[] = [];
    // Alone: both places, so the next statement waits on the database's thread, not on a message.
    const a = Array.from({ length: 4 }, (_, i) => statement(log, `a${i}`));
    const runs = [share.run("a", a[0].work), share.run("a", a[1].work)];
    await settle();
    expect(log).toEqual(["a0", "a1"]);
    // Another account's statement takes the next free place and ends.
    a[0].end();
    await settle();
    const b = statement(log, "b0");
    b.end();
    await share.run("b", b.work);
    // b ran just now: a keeps to the one place it holds (a1) while b's request may send its next statement.
    runs.push(share.run("a", a[2].work), share.run("a", a[3].work));
    await settle();
    expect(log).toEqual(["a0", "a1", "b0"]);
    expect(share.queued).toBe(2);
    // Once b has been quiet for quietMs, a may take both again.
    now += 21;
    a[1].end();
    await settle();
    expect(log).toEqual(["a0", "a1", "b0", "a2", "a3"]);
    for (const s of a) s.end();
    await Promise.all(runs);
  });

  it("gives the slot back when the work fails", async () => {
    const share = new FairShare({ capacity: 1, share: 1, most: 1 });
    await expect(share.run("a", () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(share.run("b", () => Promise.resolve(7))).resolves.toBe(7);
  });

  it("holds an account to `most` slots even alone, leaving the rest free for another account's next statement", async () => {
    const share = new FairShare({ capacity: 4, share: 2, most: 2 });
    const log: string[] = [];
    const a = Array.from({ length: 5 }, (_, i) => statement(log, `a${i}`));
    const runs = a.map((s) => share.run("a", s.work));
    await settle();
    expect(log).toEqual(["a0", "a1"]);
    expect(share.queued).toBe(3);
    // Another account runs at once, in a slot a kept free.
    const b = statement(log, "b0");
    const bRun = share.run("b", b.work);
    await settle();
    expect(log).toEqual(["a0", "a1", "b0"]);
    a[0].end();
    await settle();
    expect(log).toEqual(["a0", "a1", "b0", "a2"]);
    b.end();
    await bRun;
    for (const s of a) s.end();
    await Promise.all(runs);
    expect(log).toHaveLength(6);
  });

  it("refuses settings that leave no slot", () => {
    expect(() => new FairShare({ capacity: 0, share: 1, most: 1 })).toThrow(RangeError);
    expect(() => new FairShare({ capacity: 2, share: 0, most: 1 })).toThrow(RangeError);
    expect(() => new FairShare({ capacity: 2, share: 2, most: 1 })).toThrow(RangeError);
    expect(() => new FairShare({ capacity: 2, share: 1, most: 3 })).toThrow(RangeError);
  });

  it("on PostgreSQL, holds an account to its statements per account while another account was at the database within a second, to half the pool alone", async () => {
    let now = 0;
    const settings = postgresTurns(10, 2);
    expect(settings).toEqual({ capacity: 10, share: 2, most: 5, quietMs: 1_000, notCompeting: "" });
    const share = new FairShare(settings, () => now);
    const log: string[] = [];
    // Alone: half the pool, not more.
    const a = Array.from({ length: 9 }, (_, i) => statement(log, `a${i}`));
    const runs = a.slice(0, 6).map((s) => share.run("a", s.work));
    await settle();
    expect(log).toEqual(["a0", "a1", "a2", "a3", "a4"]);
    // Another account runs one statement: it finds a connection at once.
    const b = statement(log, "b0");
    b.end();
    await share.run("b", b.work);
    // Within the second after it, a's freed connections do not go back to a past its two.
    for (const s of a.slice(0, 4)) s.end();
    await settle();
    expect(log).toEqual(["a0", "a1", "a2", "a3", "a4", "b0", "a5"]);
    runs.push(...a.slice(6).map((s) => share.run("a", s.work)));
    await settle();
    expect(log).toHaveLength(7);
    // A second after b's statement, a may take half the pool again.
    now += 1_001;
    a[4].end();
    await settle();
    expect(log).toEqual(["a0", "a1", "a2", "a3", "a4", "b0", "a5", "a6", "a7", "a8"]);
    for (const s of a) s.end();
    await Promise.all(runs);
  });

  it("on PostgreSQL, takes a share set above half the pool as the most, and no share above the pool", () => {
    expect(postgresTurns(10, 8)).toMatchObject({ share: 8, most: 8 });
    expect(postgresTurns(4, 20)).toMatchObject({ capacity: 4, share: 4, most: 4 });
    expect(postgresTurns(1)).toMatchObject({ capacity: 1, share: 1, most: 1 });
  });

  it("does not hold a lone account to its share for the service's own statements, and still does for another account's", async () => {
    const now = 0;
    const share = new FairShare({ capacity: 4, share: 1, most: 3, quietMs: 1_000, notCompeting: "" }, () => now);
    const log: string[] = [];
    const own = statement(log, "service");
    own.end();
    await share.run("", own.work);
    const a = Array.from({ length: 3 }, (_, i) => statement(log, `a${i}`));
    const runs = a.map((s) => share.run("a", s.work));
    await settle();
    expect(log).toEqual(["service", "a0", "a1", "a2"]);
    for (const s of a) s.end();
    await Promise.all(runs);
    // Another caller's statement a moment ago: one at a time again.
    const b = statement(log, "b0");
    b.end();
    await share.run("b", b.work);
    const more = Array.from({ length: 3 }, (_, i) => statement(log, `a${i + 3}`));
    const moreRuns = more.map((s) => share.run("a", s.work));
    await settle();
    expect(log.slice(5)).toEqual(["a3"]);
    for (const s of more) s.end();
    await Promise.all(moreRuns);
  });
});

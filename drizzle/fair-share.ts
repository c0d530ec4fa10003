/** How a database's connections are shared: see FairShare. */
export interface ShareSettings {
  /** Statements (or transactions) running at once: the connections. */
  capacity: number;
  /** An account holding this many yields the next free slot to a waiting account holding fewer. */
  share: number;
  /** An account never holds more than this many, even alone (the rest stay free for others' next statements). */
  most: number;
  /**
   * Between `share` and `most` only while no other account has been at the connections within
   * this many milliseconds: a request's statements come one after another with the request's own
   * work between them, and its next one should not find the places taken again. 0: only while no
   * other account runs or waits.
   */
  quietMs?: number;
  /**
   * An account whose statements do not count as another's activity for `quietMs`: the service's
   * own (the worker's polls, sign-ins, the limits' bookkeeping) come often enough to hold a lone
   * caller to its share as if another caller were there.
   */
  notCompeting?: string;
}

/**
 * The database's connections shared between accounts. A driver hands statements out first come,
 * first served: one account's operation of 30 aliased searches puts 30 statements in the queue at
 * once, and another account's one statement waits behind all of them (seconds on the embedded
 * database, which runs one statement at a time). Here every account (and the service's own work,
 * under the key "") has a queue of its own, and a freed slot goes to the waiting account served
 * least recently among those holding fewer than `share` slots (else to one that may hold more:
 * below `most`, and while other accounts are quiet when `quietMs` says so). So another account's statement waits for some of the statements running, never
 * for a queue; and with `most` below `capacity` it finds a slot free, and fewer statements
 * competing with it for the server's processors. A slot stays free while a statement waits only
 * when that statement's account holds `most`.
 *
 * A transaction holds one slot from its start to its end; its statements run in it without asking
 * again.
 */
export class FairShare {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  /** Accounts with statements waiting, each with its statements in order. */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** When each account running or waiting was last given a slot: the least recently served goes next. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  /** Accounts by when their last statement ended, oldest first (for `quietMs`). */
  private readonly recent = new Map<string, number>();

  constructor(
    readonly settings: ShareSettings,
    private readonly now: () => number = () => performance.now(),
  ) {
    const { capacity, share, most } = settings;
    if (!(capacity >= 1 && share >= 1 && most >= share && most <= capacity)) throw new RangeError("a fair share needs 1 ≤ share ≤ most ≤ capacity");
  }

  /** Statements waiting for a slot now, of every account. */
  get queued(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /** Runs `work` once `account` has a slot, and gives the slot back when it settles. */
  async run<T>(account: string, work: () => PromiseLike<T>): Promise<T> {
    const turn = this.take(account);
    if (turn) await turn;
    try {
      return await work();
    } finally {
      this.release(account);
    }
  }

  private take(account: string): Promise<void> | undefined {
    // An account with statements waiting keeps their order: a new one goes behind them.
    if (this.running < this.settings.capacity && !this.waiting.has(account) && this.mayTakeAnother(account)) {
      this.grant(account);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      const queue = this.waiting.get(account);
      if (queue) queue.push(resolve);
      else this.waiting.set(account, [resolve]);
    });
  }

  private holding(account: string): number {
    return this.runningBy.get(account) ?? 0;
  }

  private mayTakeAnother(account: string): boolean {
    const holding = this.holding(account);
    return holding < this.settings.share || (holding < this.settings.most && !this.othersActive(account));
  }

  /** Whether another account runs, waits, or ended a statement within `quietMs`. */
  private othersActive(account: string): boolean {
    const competing = (other: string) => other !== account && other !== this.settings.notCompeting;
    for (const other of this.runningBy.keys()) if (competing(other)) return true;
    for (const other of this.waiting.keys()) if (competing(other)) return true;
    const since = this.now() - (this.settings.quietMs ?? 0);
    for (const [other, endedAt] of this.recent) {
      if (endedAt < since) this.recent.delete(other);
      else if (competing(other)) return true;
    }
    return false;
  }

  private grant(account: string): void {
    this.running++;
    this.runningBy.set(account, this.holding(account) + 1);
    this.lastServed.set(account, ++this.served);
  }

  private release(account: string): void {
    this.running--;
    if (this.settings.quietMs) {
      // Most recent last: othersActive drops the stale ones from the front.
      this.recent.delete(account);
      this.recent.set(account, this.now());
    }
    const own = this.holding(account) - 1;
    if (own === 0) {
      this.runningBy.delete(account);
      // An account with nothing running or waiting starts afresh when it comes back.
      if (!this.waiting.has(account)) this.lastServed.delete(account);
    } else this.runningBy.set(account, own);
    this.dispatch();
  }

  /** Freed slots to waiting accounts in turn. */
  private dispatch(): void {
    while (this.running < this.settings.capacity && this.waiting.size) {
      const account = this.nextAccount();
      if (account === undefined) return;
      const queue = this.waiting.get(account)!;
      const next = queue.shift()!;
      if (!queue.length) this.waiting.delete(account);
      this.grant(account);
      next();
    }
  }

  /** The waiting account served least recently among those below their share, else among those that may take another. */
  private nextAccount(): string | undefined {
    let best: string | undefined;
    let bestUnder = false;
    let bestServed = Infinity;
    for (const account of this.waiting.keys()) {
      const under = this.holding(account) < this.settings.share;
      if (!under && !this.mayTakeAnother(account)) continue;
      const served = this.lastServed.get(account) ?? 0;
      if ((under && !bestUnder) || (under === bestUnder && served < bestServed)) {
        best = account;
        bestUnder = under;
        bestServed = served;
      }
    }
    return best;
  }
}

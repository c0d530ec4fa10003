import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";

/** `Algorithm.Argon2id`; the package exports it as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

/** Argon2id with the OWASP minimum (19 MiB, 2 passes): memory-hard, so GPU guessing stays costly. */
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Thrown when so many hashes are waiting that another would only add memory and delay. */
export class PasswordHashingBusy extends Error {
  constructor() {
    super("Too many sign-ins are being checked; try again shortly");
    this.name = "PasswordHashingBusy";
  }
}

/** Thrown when one account or one client address already has its share of the pool in use. */
export class HashingShareTaken extends Error {
  constructor(readonly by: "account" | "address") {
    super(`Too many sign-ins ${by === "account" ? "of this account" : "from this address"} are being checked at once; try again in a second`);
    this.name = "HashingShareTaken";
  }
}

export interface PasswordHashingLimits {
  /** Hashes running at once: one per core. */
  maxRunning: number;
  /** Hashes waiting for a slot, every caller's together. */
  maxWaiting: number;
  /** Hashes one account may have running or waiting (sign-ins, successful ones included). */
  perAccount: number;
  /** Hashes one client address may have running or waiting. */
  perAddress: number;
}

/**
 * Each hash holds 19 MiB while it runs: at most one per core runs at once, and at most
 * `maxWaiting` wait, so a flood of sign-ins costs a bounded amount of memory (about 40 MiB on
 * two cores) and is refused rather than queued without end.
 */
export const PASSWORD_HASHING = { maxRunning: availableParallelism(), maxWaiting: 32 } as const;

/** Who a hash is for: the account signing in (environment and username, in lower case) and the client address. */
export interface Claimant {
  account?: string;
  address?: string;
}

/** Throttling around a password check, run while it holds its hashing slot. */
export interface PasswordGuard {
  /** May refuse by throwing: a check that waited behind others is judged by the failures they recorded meanwhile. */
  admit(): Promise<void>;
  /** Recorded before the slot passes on, so the next check in line counts this failure. */
  recordFailure(): Promise<void>;
}

const unguarded: PasswordGuard = { admit: async () => {}, recordFailure: async () => {} };

/** Compared against when the username is unknown, so both failures take the same time (made once per process, outside the pool). */
let decoyHash: Promise<string> | undefined;

/** One claimant's hold on its share of the pool, from before its sign-in reads the database until it is answered. */
export interface HashingShare {
  verify(storedHash: string | null | undefined, password: string, guard?: PasswordGuard): Promise<boolean>;
  hash(password: string): Promise<string>;
  release(): void;
}

/**
 * The process's password hashing, shared fairly. Successful sign-ins cost a hash as failed ones
 * do, so one account signing in over and over (or one address trying many) could fill the pool
 * and leave every other sign-in refused. Each account and each client address may have a few
 * hashes running or waiting (`perAccount`, `perAddress`; beyond: HashingShareTaken, a 429), and
 * a free slot goes to the client addresses waiting in turn, one hash each, not to whoever queued
 * first: another account signing in from elsewhere waits for at most one hash per address ahead
 * of it. `maxWaiting` bounds the queue of all of them together (beyond: PasswordHashingBusy, a
 * 503), for floods spread over many addresses and accounts.
 */
export class PasswordHashing {
  private running = 0;
  private waiting = 0;
  /** Waiting hashes by client address; the map's order is the turn (served addresses go to the back). */
  private readonly queues = new Map<string, (() => void)[]>();
  private readonly held = { account: new Map<string, number>(), address: new Map<string, number>() };

  constructor(readonly limits: PasswordHashingLimits) {}

  /** Takes a share for the claimant, or throws HashingShareTaken when its account or address has none left. */
  share(claimant: Claimant = {}): HashingShare {
    const { account, address } = claimant;
    if (account !== undefined && (this.held.account.get(account) ?? 0) >= this.limits.perAccount) throw new HashingShareTaken("account");
    if (address !== undefined && (this.held.address.get(address) ?? 0) >= this.limits.perAddress) throw new HashingShareTaken("address");
    if (account !== undefined) adjust(this.held.account, account, 1);
    if (address !== undefined) adjust(this.held.address, address, 1);
    let released = false;
    const queue = address ?? "";
    return {
      verify: async (storedHash, password, guard = unguarded) => {
        decoyHash ??= hash("decoy password that matches nothing", options);
        const compared = storedHash ?? (await decoyHash);
        return this.inSlot(queue, async () => {
          await guard.admit();
          const matches = (await verify(compared, password).catch(() => false)) && Boolean(storedHash);
          if (!matches) await guard.recordFailure();
          return matches;
        });
      },
      hash: (password) => this.inSlot(queue, () => hash(password, options)),
      release: () => {
        if (released) return;
        released = true;
        if (account !== undefined) adjust(this.held.account, account, -1);
        if (address !== undefined) adjust(this.held.address, address, -1);
      },
    };
  }

  /** Hashes running and waiting now, and how many accounts and addresses hold shares. */
  stats(): { running: number; waiting: number; accounts: number; addresses: number } {
    return { running: this.running, waiting: this.waiting, accounts: this.held.account.size, addresses: this.held.address.size };
  }

  private async inSlot<T>(queue: string, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.maxRunning) {
      if (this.waiting >= this.limits.maxWaiting) throw new PasswordHashingBusy();
      this.waiting++;
      await new Promise<void>((resolve) => {
        const waiting = this.queues.get(queue);
        if (waiting) waiting.push(resolve);
        else this.queues.set(queue, [resolve]);
      });
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      this.passSlot();
    }
  }

  /** The slot passes straight to the next address in turn (its oldest hash), or is freed. */
  private passSlot(): void {
    const next = this.queues.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [queue, waiting] = next.value;
    const resolve = waiting.shift()!;
    this.queues.delete(queue);
    if (waiting.length) this.queues.set(queue, waiting);
    this.waiting--;
    resolve();
  }
}

function adjust(counts: Map<string, number>, key: string, by: number): void {
  const count = (counts.get(key) ?? 0) + by;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}

/** The pool of a process without a service's settings (the operator CLI, tools): no shares per account or address. */
const unshared = new PasswordHashing({ ...PASSWORD_HASHING, perAccount: Infinity, perAddress: Infinity });

export async function hashPassword(password: string, hashing: PasswordHashing = unshared): Promise<string> {
  const share = hashing.share();
  try {
    return await share.hash(password);
  } finally {
    share.release();
  }
}

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Returns what is wrong with a new password, or undefined when it is acceptable. */
export function passwordProblem(password: string, username: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.toLowerCase().includes(username.toLowerCase())) return "must not contain the username";
  return undefined;
}

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

/**
 * Each hash holds 19 MiB while it runs: at most one per core runs at once, and at most
 * `maxWaiting` wait, so a flood of sign-ins costs a bounded amount of memory (about 40 MiB on
 * two cores) and is refused rather than queued without end.
 */
export const PASSWORD_HASHING = { maxRunning: availableParallelism(), maxWaiting: 32 } as const;
let running = 0;
const waiting: (() => void)[] = [];

async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PASSWORD_HASHING.maxRunning) {
    if (waiting.length >= PASSWORD_HASHING.maxWaiting) throw new PasswordHashingBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string): Promise<string> => withHashingSlot(() => hash(password, options));

/** Compared against when the username is unknown, so both failures take the same time (made once, outside the pool). */
let decoyHash: Promise<string> | undefined;

/** Throttling around a password check, run while it holds its hashing slot. */
export interface PasswordGuard {
  /** May refuse by throwing: a check that waited behind others is judged by the failures they recorded meanwhile. */
  admit(): Promise<void>;
  /** Recorded before the slot passes on, so the next check in line counts this failure. */
  recordFailure(): Promise<void>;
}

const unguarded: PasswordGuard = { admit: async () => {}, recordFailure: async () => {} };

export async function verifyPassword(storedHash: string | null | undefined, password: string, guard: PasswordGuard = unguarded): Promise<boolean> {
  decoyHash ??= hash("decoy password that matches nothing", options);
  const compared = storedHash ?? (await decoyHash);
  return withHashingSlot(async () => {
    await guard.admit();
    const matches = (await verify(compared, password).catch(() => false)) && Boolean(storedHash);
    if (!matches) await guard.recordFailure();
    return matches;
  });
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

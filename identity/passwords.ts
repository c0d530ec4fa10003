import { hash, verify } from "@node-rs/argon2";

/** `Algorithm.Argon2id`; the package exports it as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

/** Argon2id with the OWASP minimum (19 MiB, 2 passes): memory-hard, so GPU guessing stays costly. */
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, options);

/** Compared against when the username is unknown, so both failures take the same time. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    decoyHash ??= hashPassword("decoy password that matches nothing");
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
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

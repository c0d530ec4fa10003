import { createHash, randomBytes } from "node:crypto";

/** 256 random bits, URL-safe: for refresh tokens and password-setup links. */
export const newSecret = (): string => randomBytes(32).toString("base64url");

/** Only hashes of secrets are stored, so a database leak yields no usable token. */
export const secretHash = (secret: string): string => createHash("sha256").update(secret).digest("base64url");

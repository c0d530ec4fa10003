import type { Role } from "./roles.js";

/** Who is asking: read from a verified access token, passed to every service method first. */
export interface Caller {
  accountId: string;
  username: string;
  roles: Role[];
  /** OAuth scopes of the presented token. */
  scopes: string[];
  organisationId: number | null;
  environment: "sandbox" | "production";
  sessionId: string;
  /** Time of the password grant that opened the session. */
  authTime: Date;
  expiresAt: Date;
}

export const hasAnyRole = (caller: Caller, wanted: readonly Role[]): boolean => caller.roles.some((role) => wanted.includes(role));

export const hasScope = (caller: Caller, scope: string): boolean => caller.scopes.includes(scope);

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
  /** Set when a subgraph's own service code calls another subgraph in its own name: no account, no roles. */
  service?: string;
}

/** The caller of a service-to-service call: no roles or scopes, so it passes only rules that need none (entity references). */
export function serviceCaller(service: string, environment: Caller["environment"], now: Date): Caller {
  return {
    accountId: `service:${service}`,
    username: `service:${service}`,
    roles: [],
    scopes: [],
    organisationId: null,
    environment,
    sessionId: `service:${service}`,
    authTime: now,
    expiresAt: now,
    service,
  };
}

export const hasAnyRole = (caller: Caller, wanted: readonly Role[]): boolean => caller.roles.some((role) => wanted.includes(role));

export const hasScope = (caller: Caller, scope: string): boolean => caller.scopes.includes(scope);

/**
 * Account roles (spec 1, Authentication). The spec does not list the permissions of each role;
 * what each may do is decided in docs/spec-decisions.md and enforced by the subgraphs.
 */
export const roles = ["PLATFORM_CATALOG_MANAGEMENT", "CONTENT_PARTNER", "CONSUMER", "OPERATOR"] as const;
export type Role = (typeof roles)[number];

export const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);

/** Roles that see every organisation's data rather than only their own. */
export const platformRoles: readonly Role[] = ["PLATFORM_CATALOG_MANAGEMENT", "OPERATOR"];

/** Roles whose accounts must belong to an organisation. */
export const organisationRoles: readonly Role[] = ["CONTENT_PARTNER", "CONSUMER"];

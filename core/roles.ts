/**
 * Account roles (spec 1, Authentication). The spec does not list the permissions of each role;
 * what each may do is decided in docs/spec-decisions.md and enforced by the subgraphs.
 */
export const roles = ["PLATFORM_CATALOG_MANAGEMENT", "CONTENT_PARTNER", "CONSUMER", "OPERATOR"] as const;
export type Role = (typeof roles)[number];

export const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);

/** Roles that see every organisation's data rather than only their own. */
export const platformRoles: readonly Role[] = ["PLATFORM_CATALOG_MANAGEMENT", "OPERATOR"];

/** Roles that manage suppliers, products and their booking setups (docs/spec-decisions.md, "Roles and permissions"). */
export const managementRoles: readonly Role[] = ["PLATFORM_CATALOG_MANAGEMENT", "CONTENT_PARTNER"];
export const MANAGE_SCOPE = "catalogue:manage";

/** Roles whose accounts must belong to an organisation. */
export const organisationRoles: readonly Role[] = ["CONTENT_PARTNER", "CONSUMER"];

/**
 * OAuth scopes each role may hold. A token carries every scope of its roles unless the token
 * request asked for fewer (`scope` form field); endpoints check the scope they need.
 */
export const scopes = ["catalogue:read", "catalogue:manage", "booking", "reporting", "accounts"] as const;
export type Scope = (typeof scopes)[number];

export const scopesByRole: Record<Role, readonly Scope[]> = {
  PLATFORM_CATALOG_MANAGEMENT: ["catalogue:read", "catalogue:manage", "reporting"],
  CONTENT_PARTNER: ["catalogue:read", "catalogue:manage"],
  CONSUMER: ["catalogue:read", "booking", "reporting"],
  OPERATOR: ["catalogue:read", "reporting", "accounts"],
};

export function grantableScopes(accountRoles: readonly string[]): Scope[] {
  const granted = new Set<Scope>();
  for (const role of accountRoles) if (isRole(role)) for (const scope of scopesByRole[role]) granted.add(scope);
  return scopes.filter((scope) => granted.has(scope));
}

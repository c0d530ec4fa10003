import type { AuthChecker } from "type-graphql";
import { forbidden, unauthenticated } from "../../core/errors.js";
import type { SubgraphContext } from "./subgraph.context.js";

/**
 * `@Authorized(...roles)`: the caller must hold one of them. Throws our own errors so that
 * extensions.code is FORBIDDEN (403) rather than type-graphql's UNAUTHORIZED.
 */
export const authChecker: AuthChecker<SubgraphContext> = ({ context }, wanted) => {
  if (!context.caller) throw unauthenticated();
  if (wanted.length && !context.caller.roles.some((role) => wanted.includes(role))) {
    throw forbidden(`This operation needs one of the roles ${wanted.join(", ")}`);
  }
  return true;
};

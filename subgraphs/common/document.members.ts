/**
 * A document's members that hold something: null, undefined and empty lists left out. Spec 1's
 * documents written back from a typed answer carry no member the partner could not have sent.
 */
export const membersHolding = (members: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(members).filter(([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)));

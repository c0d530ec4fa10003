/**
 * The one table of refusals: what a caller can cause and correct, answered as data
 * (docs/graph-design.md, "Mutations and errors as data"). Each refusal's name is the graph's
 * `UserErrorCode` value and REST's `code`; `status` is the HTTP status REST answers it with;
 * `errorCode` is the contract's number where the spec gives one. The GraphQL enum, the REST
 * mapping and the table in docs/graph-design.md are all made from this object.
 */
export interface Refusal {
  status: number;
  errorCode?: number;
  description: string;
}

export const REFUSALS = {
  NOT_FOUND: {
    status: 404,
    description: "What the input names does not exist, or the caller may not see it: the two are not told apart",
  },
  VALIDATION_FAILED: {
    status: 400,
    description: "A value of the input breaks a rule: `field` names it and `rule` says which",
  },
  ENGINE_SECRETS_KEY_MISSING: {
    status: 409,
    description: "A secret cannot be kept: the service runs in production without ENGINE_SECRETS_KEY. Nothing was saved",
  },
} as const satisfies Record<string, Refusal>;

export type RefusalCode = keyof typeof REFUSALS;

export const isRefusalCode = (value: unknown): value is RefusalCode => typeof value === "string" && Object.hasOwn(REFUSALS, value);

import { GraphQLError } from "graphql";
import { Directive, Field, Int, ObjectType, registerEnumType } from "type-graphql";
import type { FieldProblem } from "../../core/errors.js";
import { isRefusalCode, REFUSALS, USER_ERROR_CODES, type Refusal, type RefusalCode } from "../../core/refusals.js";

/** The graph's enum of refusals: the entries of the table in core/refusals.ts that payloads answer. */
export const UserErrorCode = Object.fromEntries(USER_ERROR_CODES.map((code) => [code, code])) as { [C in RefusalCode]: C };
registerEnumType(UserErrorCode, {
  name: "UserErrorCode",
  description: "Why a mutation refused its input: each value is one refusal of the service's table, the same code REST answers with",
  valuesConfig: Object.fromEntries(USER_ERROR_CODES.map((code) => [code, { description: REFUSALS[code].description }])),
});

@Directive("@shareable")
@ObjectType({ description: "A refusal of a mutation's input: nothing was changed" })
export class UserError {
  @Field(() => UserErrorCode, { description: "What kind of refusal, to branch on" }) code!: RefusalCode;
  @Field(() => String, { description: "What was refused, in English, for a developer or a person" }) message!: string;
  @Field(() => [String], { nullable: true, description: 'The path of the refused value in the arguments (`["input", "eventTypes", "1"]`); null when no one field is at fault' })
  field?: string[] | null;
  @Field(() => String, { nullable: true, description: "For VALIDATION_FAILED: the rule the value broke (`format`, `length`, `scope`…), stable for programs" })
  rule?: string | null;
  @Field(() => Int, { nullable: true, description: "The contract's numeric error code for this refusal, where the spec gives one" }) errorCode?: number | null;
}

/** What every mutation's payload carries besides its result. */
export interface WithUserErrors {
  userErrors: UserError[];
}

/** How a mutation's refusals name the fields of its input. */
export interface InputFields {
  /** The input field for a service's own name of it (`id` → `webhookEndpointId`), at any depth of the path. */
  rename?: Record<string, string>;
  /** The input field a service's problem about a list's item (`[2].value`) is in (`quantities`). */
  list?: string;
  /** The input field that names what the mutation changes: a NOT_FOUND is about it. */
  notFound?: string;
}

/**
 * Runs a mutation's service call and answers its refusals as data. The services throw their
 * refusals (NOT_FOUND, BAD_USER_INPUT with the field problems, a `reason` of the table), which
 * rolls back whatever they had begun; here each becomes a `UserError`, with its `field` as the
 * path in the mutation's arguments. Anything else (the caller's token or role, limits, a
 * supplier system that did not answer, the unexpected) stays an error of the operation.
 */
export async function payloadOf<T extends object>(run: () => Promise<T>, fields: InputFields = {}): Promise<(T & WithUserErrors) | WithUserErrors> {
  try {
    return { ...(await run()), userErrors: [] };
  } catch (error) {
    const userErrors = userErrorsOf(error, fields);
    if (!userErrors) throw error;
    return { userErrors };
  }
}

/** The user errors a thrown refusal stands for, or null for an error that is not a refusal. */
export function userErrorsOf(error: unknown, fields: InputFields = {}): UserError[] | null {
  if (!(error instanceof GraphQLError)) return null;
  const { code, reason, problems, errorCode } = error.extensions as { code?: string; reason?: string; problems?: FieldProblem[]; errorCode?: number };
  const named = isRefusalCode(reason) ? reason : reason === undefined && code === "NOT_FOUND" ? "NOT_FOUND" : reason === undefined && code === "BAD_USER_INPUT" ? "VALIDATION_FAILED" : null;
  // A refusal no payload answers yet is not a value of UserErrorCode: it stays an error.
  const refusal = named && (REFUSALS[named] as Refusal).userError ? named : null;
  if (!refusal) return null;
  const number = typeof errorCode === "number" ? errorCode : (REFUSALS[refusal] as Refusal).errorCode;
  const base = { code: refusal, ...(number === undefined ? {} : { errorCode: number }) };
  if (!problems?.length) return [{ ...base, message: error.message, field: refusal === "NOT_FOUND" && fields.notFound ? ["input", fields.notFound] : null, rule: null }];
  return problems.map((problem) => ({ ...base, message: problem.message, field: inputPath(fields.list && problem.field.startsWith("[") ? `${fields.list}${problem.field}` : problem.field, fields.rename), rule: problem.rule }));
}

/** `eventTypes[1]` → `["input", "eventTypes", "1"]`; a service's name for a field is renamed first (to a path: `a.b`). */
export function inputPath(field: string, fields: Record<string, string> = {}): string[] {
  return ["input", ...field.split(/[.[\]]+/).filter(Boolean).flatMap((part) => (Object.hasOwn(fields, part) ? fields[part].split(".") : [part]))];
}

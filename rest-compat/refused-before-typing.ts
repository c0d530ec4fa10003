import type { FastifyRequest } from "fastify";
import type { GraphQLError } from "graphql";
import type { RestRoute } from "./rest-route.js";
import { oncePerRequest } from "./once-per-request.js";

type Otherwise = NonNullable<RestRoute<never>["otherwise"]>;

/**
 * For a request the graph's typed input cannot carry (a date, a code or a link that is none): the
 * service's own refusal of it (`refusal`, null when the request can be typed), answered only after
 * the checks the service makes before that one. `earlier` is an operation that runs exactly those
 * checks and changes nothing; its refusals answer first, as the typed operation's would, and then
 * `answer` turns the service's refusal into the route's REST error, as the operation's refusal
 * would have been turned.
 */
export function refusedBeforeTyping(
  refusal: (request: FastifyRequest) => GraphQLError | null,
  earlier: { operation: string; variables?: (request: FastifyRequest) => Record<string, unknown> },
  answer: (refusal: GraphQLError) => never,
): Otherwise {
  const judge = oncePerRequest(refusal);
  return {
    when: (request) => judge(request) !== null,
    operation: earlier.operation,
    variables: earlier.variables,
    respond: (_data, request) => answer(judge(request)!),
  };
}

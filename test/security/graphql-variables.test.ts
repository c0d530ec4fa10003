import { describe, expect, it } from "vitest";
import { graphql, useStack } from "../support/stack.js";

/**
 * Found by the input fuzz (input-fuzz.test.ts): the cost estimate coerces the variables first,
 * and a value their types cannot take was refused as GRAPHQL_VALIDATION_FAILED with reason
 * OPERATION_TOO_LARGE (and, through the REST layer, as a 500).
 */
describe("GraphQL variables their types cannot take", () => {
  const t = useStack({ env: { WORKER_LOOPS: "false" } });

  it("are refused with 400 BAD_USER_INPUT, not as an operation too large", async () => {
    const token = await t.stack.tokenFor("CONSUMER");
    const url = `${t.stack.url}/graphql`;
    const cases: [string, Record<string, unknown>, string][] = [
      ['query Q($n: Int!) { suppliers(bookingEngineName: "X", first: $n) { totalCount { count } } }', { n: 2 ** 31 }, "$n"],
      ['query Q($n: Int!) { suppliers(bookingEngineName: "X", first: $n) { totalCount { count } } }', { n: 1.5 }, "$n"],
      ['query Q($n: Int!) { suppliers(bookingEngineName: "X", first: $n) { totalCount { count } } }', {}, "$n"],
      [
        'query Q($input: RecommendationInput) { recommendations(input: $input, first: 5) { __typename } }',
        { input: { bookingEngines: { include: [], colour: "red" } } },
        "$input.bookingEngines",
      ],
    ];
    for (const [query, variables, field] of cases) {
      const answer = await graphql(url, token, query, variables);
      expect(answer.status, JSON.stringify(variables)).toBe(400);
      // The variable at fault is named, down to the member that its type refused.
      expect(answer.body.errors?.[0].extensions, JSON.stringify(variables)).toEqual({ code: "BAD_USER_INPUT", problems: [expect.objectContaining({ field, rule: "type" })] });
    }
  });
});

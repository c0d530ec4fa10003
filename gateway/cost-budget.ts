import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError } from "graphql";
import type { AccountLimits, ThrottleStatus } from "../identity/account-limits.js";
import type { SubscriptionCosts } from "./subscriptions/subscription-engine.js";
import type { EdgeContext } from "./edge-context.js";
import { checkOperationCostParts, type OperationCost } from "./operation-limits.js";
import { queuedTurn } from "../core/event-loop-turns.js";
import { edgeError } from "../core/edge-refusals.js";

/** `extensions.cost` of every GraphQL answer, as Shopify reports it. */
export interface CostExtension {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

/** What an admitted operation owes: its estimate, charged; `settle` turns it into the answer's `extensions.cost`. */
export interface AdmittedCost {
  requested: number;
  settle(data: unknown): CostExtension | undefined;
}

/**
 * Charges an operation's estimated cost to its caller's budget before it runs (the context's
 * `limits`; contexts without them, the edge's own work such as subscription messages, are not
 * charged here). Throws the refusal: TOO_MANY_REQUESTS with `reason` COST_BUDGET, HTTP 429 and
 * `Retry-After`, and the bucket's state in `extensions.cost`.
 */
export async function admitOperationCost(context: EdgeContext, cost: OperationCost): Promise<AdmittedCost | undefined> {
  const requested = cost.total;
  const limits = context.limits;
  if (!limits?.costBudgetOn) return undefined;
  const accountId = context.caller.accountId;
  const decision = await limits.admitCost(accountId, requested);
  if (!decision.allowed) {
    const report: CostExtension = { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: decision.status };
    throw edgeError("COST_BUDGET", decision.message, {
      extensions: { retryAfterSeconds: decision.retryAfterSeconds, cost: report },
      http: new Map([["retry-after", String(decision.retryAfterSeconds)]]),
    });
  }
  return {
    requested,
    settle(data) {
      const actual = cost.fixed + actualCost(data);
      // The estimate assumes typical list sizes: an answer that held more is charged the rest as
      // a debt (as a subscription's events are), one that held less gets the difference back.
      if (actual > decision.charged) limits.charge(accountId, actual - decision.charged);
      const throttleStatus = limits.refund(accountId, decision.charged - Math.min(actual, decision.charged));
      return throttleStatus && { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus };
    },
  };
}

/**
 * What the answer's values cost by the estimate's own rule, counted on the data that came back:
 * one for each value, lists by the items they hold instead of their assumed size. A page of 3
 * where 100 were asked for costs 3 items' worth, and the difference goes back to the bucket; the
 * root fields' fixed costs (their statements) are spent whatever came back.
 */
export function actualCost(data: unknown): number {
  const inner = (value: unknown): number => {
    if (Array.isArray(value)) {
      let sum = 0;
      for (const item of value) sum += inner(item);
      return sum;
    }
    if (value !== null && typeof value === "object") {
      let sum = 0;
      for (const key in value) sum += 1 + inner((value as Record<string, unknown>)[key]);
      return sum;
    }
    return 0;
  };
  return inner(data);
}

/** The edge's Apollo Server: each client operation charged at `didResolveOperation`, settled into `extensions.cost` on the way out. */
export function costBudgetPlugin(): ApolloServerPlugin<EdgeContext> {
  return {
    async requestDidStart() {
      let admitted: AdmittedCost | undefined;
      let refusedCost: unknown;
      return {
        async didResolveOperation({ schema, document, request, operationName, contextValue }) {
          // Not on the validation's turn (operation-limits.ts): the estimate is remembered by then.
          await queuedTurn();
          const cost = checkOperationCostParts("edge", schema, document, request.variables, operationName ?? undefined);
          try {
            admitted = await admitOperationCost(contextValue, cost);
          } catch (error) {
            if (error instanceof GraphQLError) refusedCost = error.extensions.cost;
            throw error;
          }
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== "single") return;
          const result = response.body.singleResult;
          const cost = admitted ? admitted.settle(result.data) : refusedCost;
          if (cost) result.extensions = { ...result.extensions, cost };
        },
      };
    },
  };
}

/**
 * Subscriptions on the same bucket: the selection's estimate is charged at subscribe time (the
 * first message, the current state, comes out of it) and again for every later message, even
 * past the budget: a status change is never dropped, the debt refuses the account's next
 * operations until it drains.
 */
export function subscriptionCosts(limits: AccountLimits): SubscriptionCosts | undefined {
  if (!limits.costBudgetOn) return undefined;
  return {
    async admit(caller, points) {
      const decision = await limits.admitCost(caller.accountId, points);
      if (decision.allowed) return undefined;
      return edgeError("COST_BUDGET", decision.message, { extensions: { retryAfterSeconds: decision.retryAfterSeconds } });
    },
    charge: (caller, points) => limits.charge(caller.accountId, points),
  };
}

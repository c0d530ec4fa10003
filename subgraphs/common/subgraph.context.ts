import type { WebhookTargets } from "./webhooks/webhook-endpoint.rules.js";
import type { IncomingHttpHeaders } from "node:http";
import { serviceCaller, type Caller } from "../../core/caller.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../core/logger.js";
import { unauthenticated } from "../../core/errors.js";
import { acceptedLanguages } from "../../core/language.js";
import type { Database } from "../../drizzle/database.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "../../identity/token-verifier.js";
import type { OctoEngines } from "./octo/octo.engines.js";
import type { ServiceGraphs } from "./service.graph.js";

/** What every resolver of every subgraph receives. Loaders are made per request, so caches never leak between callers. */
export interface SubgraphContext<Loaders = unknown> {
  caller: Caller;
  requestId: string;
  languages: string[];
  database: Database;
  loaders: Loaders;
  /** The service's clock: change dates and expiries come from here, so tests can move time. */
  clock: Clock;
  /** The service's public base URL, for links it hands out (voucher links). */
  publicUrl: string;
  /** Whether the caller's account is still in identity's account store (disabled accounts never get this far). */
  accountExists: () => Promise<boolean>;
}

/**
 * How a caller's context moves its reads to the replica. A property rather than a map beside the
 * context: Apollo Server runs an operation on a shallow copy of the context it is given, and the
 * copy is what must move.
 */
const LAGGING_READS = Symbol("lagging reads");
type LaggingReadSwitch = (target: SubgraphContext) => void;

/**
 * Moves a caller's operation to the database's read replica, when it has one that serves
 * (`Database.forLaggingReads`): its statements and loaders read there from now on. For an
 * operation that reads only what tolerates lag (SubgraphDefinition.readsTolerateLag), decided
 * before it executes; a context made for a service call has no switch and stays on the primary.
 */
export function readWithLag(context: SubgraphContext): void {
  (context as SubgraphContext & { [LAGGING_READS]?: LaggingReadSwitch })[LAGGING_READS]?.(context);
}

export type HeaderMap = IncomingHttpHeaders | Map<string, string> | Record<string, string | string[] | undefined>;

export function header(headers: HeaderMap, name: string): string | undefined {
  if (headers instanceof Map) return headers.get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** What a subgraph's loaders may use besides the database: the graph, for facts other subgraphs own. */
export interface LoaderDeps {
  graphs: ServiceGraphs;
  /** Registered OCTO supplier systems and clients to call them. */
  octo: OctoEngines;
  /** Which webhook URLs endpoints may name (WEBHOOK_ALLOW_PRIVATE_TARGETS, environment). */
  webhookTargets: WebhookTargets;
  logger: Logger;
  clock: Clock;
}

export interface SubgraphContextFactory<Loaders> {
  /** A request from the gateway: the bearer token is verified here, again. */
  forCaller(headers: HeaderMap): Promise<SubgraphContext<Loaders>>;
  /** A call another subgraph's service code makes in its own name; whoever calls this has checked its credential. */
  forService(service: string, headers?: HeaderMap): SubgraphContext<Loaders>;
}

/**
 * Builds a subgraph's context from request headers. The subgraph verifies the bearer token
 * itself: it may be reached directly, not only through the gateway.
 */
export function subgraphContextFactory<Loaders>(
  verifier: TokenVerifier,
  database: Database,
  makeLoaders: (database: Database, caller: Caller, deps: LoaderDeps) => Loaders,
  clock: Clock,
  publicUrl: () => string,
  loaderDeps: LoaderDeps,
): SubgraphContextFactory<Loaders> {
  const contextOf = (headers: HeaderMap, caller: Caller, own: Database): SubgraphContext<Loaders> => ({
    caller,
    requestId: header(headers, "x-request-id") ?? "",
    languages: acceptedLanguages(header(headers, "accept-language")),
    database: own,
    loaders: makeLoaders(own, caller, loaderDeps),
    clock,
    publicUrl: publicUrl(),
    accountExists: () => (caller.service ? Promise.resolve(false) : verifier.accountExists(caller.accountId)),
  });
  return {
    async forCaller(headers) {
      const token = bearerToken(header(headers, "authorization"));
      if (!token) throw unauthenticated();
      let caller: Caller;
      try {
        caller = await verifier.verify(token);
      } catch (error) {
        if (error instanceof InvalidTokenError) throw unauthenticated(`Invalid access token: ${error.message}`);
        throw error;
      }
      // The account's statements take their turns at the connections against other accounts' (fair-share.ts).
      const own = database.forAccount(caller.accountId);
      const context = contextOf(headers, caller, own);
      const toReplica: LaggingReadSwitch = (target) => {
        const lagging = own.forLaggingReads;
        if (lagging === target.database) return;
        target.database = lagging;
        target.loaders = makeLoaders(lagging, caller, loaderDeps);
      };
      Object.assign(context, { [LAGGING_READS]: toReplica });
      return context;
    },
    forService: (service, headers = {}) => contextOf(headers, serviceCaller(service, verifier.environment, clock.now()), database),
  };
}

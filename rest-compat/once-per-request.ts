import type { FastifyRequest } from "fastify";

/**
 * `judge` run once per request, however many times its answer is asked for (a route's `otherwise`
 * asks whether it applies, then answers with the same judgement, and the variables ask again).
 */
export function oncePerRequest<T>(judge: (request: FastifyRequest) => T): (request: FastifyRequest) => T {
  const judged = new WeakMap<FastifyRequest, T>();
  return (request) => {
    if (!judged.has(request)) judged.set(request, judge(request));
    return judged.get(request)!;
  };
}

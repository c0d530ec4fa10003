/**
 * Which connection queue a postgres.js pool gets: the bounded one installed over the driver's
 * (queue.js), or the driver's own that queue.js keeps beside it. They share this state through
 * globalThis, the one place both the installed driver file and the service reach.
 */
interface QueueChoice {
  original: boolean;
  made: { bounded: number; original: number };
}

const choice = (): QueueChoice => ((globalThis as { [key: symbol]: QueueChoice })[Symbol.for("activities.driverQueue")] ??= { original: false, made: { bounded: 0, original: 0 } });

/**
 * Builds a pool (a `postgres(…)` call, synchronous: the queues are made while it runs), with the
 * driver's own queue when `bounded` is false. The queues a pool makes later are bounded either
 * way: a transaction's list of its statements (empty again when the transaction ends) and the
 * pool of one connection postgres.js opens for LISTEN (its idle queue empties at each statement).
 * Neither grows; the queues that did, the pool's queues of its connections, are the driver's own.
 */
export function withDriverQueue<T>(bounded: boolean, build: () => T): T {
  if (bounded) return build();
  const state = choice();
  const before = state.original;
  state.original = true;
  try {
    return build();
  } finally {
    state.original = before;
  }
}

/** Queues made of each kind in this process; both stay 0 while the installed driver is postgres.js's own (the install step did not run). */
export function driverQueueCounts(): { bounded: number; original: number } {
  return { ...choice().made };
}

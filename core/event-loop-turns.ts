/**
 * Long synchronous work in the one event loop delays every other caller's request: nothing else
 * is read from a socket until it ends. An operation's work comes in phases (parsing and
 * validating a text, estimating its cost, planning it, building each root field's statements),
 * and a first-seen text of 30 aliased searches ran all of them back to back in microtasks, 200 ms
 * in which no other request was read (bench/results/2026-11-28-fairness.md). Between
 * phases an operation waits for the loop's next turn, so another caller's request that arrived
 * meanwhile is read and started in between.
 */

/** Resolves on the event loop's check phase, after the poll for I/O that comes before it. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * One turn after another for the same key: the n-th caller continues in the n-th turn from now,
 * each turn scheduled when the one before it has run, so sockets are polled between any two.
 * (An immediate scheduled from inside the check phase waits for the loop's next iteration.)
 */
export class TurnChain<K extends object> {
  private readonly last = new WeakMap<K, Promise<void>>();

  /** The turn to wait for; undefined for a key's first caller, whose turn is the current one. */
  next(key: K): Promise<void> | undefined {
    const before = this.last.get(key);
    const turn = before ? before.then(nextTurn) : Promise.resolve();
    this.last.set(key, turn);
    return before ? turn : undefined;
  }
}

const queued = new TurnChain<object>();
const LOOP = {};

/**
 * A turn of the loop to itself, after every turn asked for this way before it: eight requests of
 * one new text that arrive together each parse, validate and estimate it, and as turns of one
 * check phase they still ran back to back (150 ms); queued, each has an iteration of its own.
 */
export const queuedTurn = (): Promise<void> => queued.next(LOOP) ?? nextTurn();


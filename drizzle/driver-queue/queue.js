// Replaces postgres.js's src/queue.js (3.4.9), written over it at install (install.mjs). Same
// interface and order; the array it keeps no longer grows without end.
//
// postgres.js's queue empties a taken slot on shift() and frees the array only when the queue
// runs empty. Its pool keeps its idle connections in one of these queues: each statement takes
// a connection with shift() and gives it back with push(), so while any connection stays idle
// the queue never runs empty and its array gains a slot for every statement the process ever
// ran. Moving a connection between queues then searches that array from its start (remove(),
// via indexOf), so a statement costs time in proportion to the statements before it:
// bench/results/2026-11-26-driver-queue.md measured 655 ms per 20,000 statements growing to 1,334 ms after 140,000.
//
// Here the taken prefix is cut off once it is half the array (amortised O(1) a shift), and
// remove() searches only the live part.
//
// The driver's own queue is kept below, unchanged, for pools built with the shortcut off
// (PERFORMANCE_SHORTCUTS_OFF=driver-queue): drizzle/driver-queue/choice.ts sets `original` on the
// state shared through globalThis while postgres.js builds such a pool, synchronously, and every
// queue made meanwhile (the pool's queues of connections, each connection's queue of sent
// statements) is the driver's own. `made` counts each kind, so a test can tell which ran.

export default Queue

/** The taken slots kept before the array is cut: small queues never copy. */
const COMPACT_AFTER = 64

const choice = (globalThis[Symbol.for('activities.driverQueue')] ??= { original: false, made: { bounded: 0, original: 0 } })

function Queue(initial = []) {
  if (choice.original) {
    choice.made.original++
    return DriverQueue(initial)
  }
  choice.made.bounded++
  let xs = initial.slice()
  let index = 0

  return {
    get length() {
      return xs.length - index
    },
    /** Slots the queue's array holds, live and taken: bounded by twice the live ones plus COMPACT_AFTER. */
    get capacity() {
      return xs.length
    },
    remove: (x) => {
      const at = xs.indexOf(x, index)
      return at === -1
        ? null
        : (xs.splice(at, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
        if (index > COMPACT_AFTER && index * 2 >= xs.length) {
          xs = xs.slice(index)
          index = 0
        }
      }

      return out
    }
  }
}

// postgres.js 3.4.9's Queue, as install.mjs's ORIGINAL holds it.
function DriverQueue(initial = []) {
  let xs = initial.slice()
  let index = 0

  return {
    get length() {
      return xs.length - index
    },
    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }

      return out
    }
  }
}

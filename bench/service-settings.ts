/**
 * Benchmarks measure the service, not its refusals: with every client on 127.0.0.1 and one
 * account driving the load, the cap per address, load shedding and the account's API limits
 * (rate, cost budget, operations in flight) would answer instead of the paths being measured.
 * bench:fairness keeps the account limits on: they are what it measures.
 */
export const ONE_CLIENT_ADDRESS = { HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0", LOAD_SHED_EVENT_LOOP_DELAY_MS: "0" };
export const NO_ACCOUNT_LIMITS = { API_RATE_LIMIT: "0", API_COST_BUDGET: "0", API_MAX_IN_FLIGHT_PER_ACCOUNT: "0" };
/** Benchmarks holding many idle subscribers of one account measure delivery, not the caps per account. */
export const ONE_SUBSCRIBING_ACCOUNT = { WS_MAX_SOCKETS_PER_ACCOUNT: "0", WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: "0" };

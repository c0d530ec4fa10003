import { toGlobalId } from "../../core/global-id.js";
import { createClient, type Client, type ExecutionResult } from "graphql-ws";
import http from "node:http";
import WebSocket from "ws";
import { newRef, validAnswers } from "../../test/support/booking.js";

/**
 * A consumer's booking flow through REST, dates to the CONFIRMED message of its
 * `bookingStatusChanged` subscription: the clients of `npm run bench:booking` (in the service's
 * process, beside its instrumentation) and of `npm run bench:cores -- --scenario booking` (in a
 * process of their own, bench/booking/flow-driver.ts).
 */

const SUBSCRIPTION = "subscription($id: ID!) { bookingStatusChanged(bookingId: $id) { id status } }";

export const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
export interface Account {
  username: string;
  token: string;
  client?: Client;
}
export interface FlowResult {
  bookingId: string;
  wallMs: number;
  /** From the confirm response to the CONFIRMED message (or poll). */
  confirmationMs: number;
  /** performance.now() when the client had the CONFIRMED message. */
  receivedAt: number;
  bySubscription: boolean;
  firstMessageMissing: boolean;
}

/** The service the flows run against, and the product they book. */
export class FlowTarget {
  /** Flows begun against this target: each takes the next date and time slot. */
  private begun = 0;
  productId = 0;

  constructor(
    readonly baseUrl: string,
    readonly tokenPath: string,
    readonly password: string,
  ) {}

  nextSlot(): number {
    return this.begun++;
  }
}

export async function signIn(target: FlowTarget, account: Account): Promise<void> {
  const response = await fetch(`${target.baseUrl}${target.tokenPath}`, {
    method: "POST",
    body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username: account.username, password: target.password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${account.username}: ${response.status} ${await response.text()}`);
  account.token = ((await response.json()) as { access_token: string }).access_token;
}

/**
 * The flow's requests go through node:http on kept-alive connections, not fetch: the driver shares
 * the machine's cores with the service, and fetch's streams cost it about twice the CPU a request.
 */
const keptAlive = new http.Agent({ keepAlive: true });

function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent: keptAlive, headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

export async function call(target: FlowTarget, account: Account, step: string, method: string, path: string, body?: unknown, expected = 200): Promise<any> {
  const headers: Record<string, string> = { authorization: `Bearer ${account.token}`, "x-bench-step": step };
  if (body !== undefined) headers["content-type"] = "application/json";
  const { status, text } = await send(`${target.baseUrl}${path}`, method, headers, body === undefined ? undefined : JSON.stringify(body));
  if (status !== expected) throw new Error(`${step} ${method} ${path}: ${status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

export async function connect(target: FlowTarget, account: Account): Promise<Client> {
  let connected!: () => void;
  let failed!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => ((connected = resolve), (failed = reject)));
  const client = createClient({
    url: `${target.baseUrl.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: (error) => failed(error),
    connectionParams: { Authorization: `Bearer ${account.token}` },
    on: { connected: () => connected() },
  });
  await ready;
  return client;
}

/** Subscribes to a booking's status; `first` settles with the first message (the booking as it is). */
function watch(client: Client, bookingId: string) {
  const messages: { at: number; status?: string }[] = [];
  let firstMessage!: () => void;
  const first = new Promise<void>((resolve) => (firstMessage = resolve));
  let dispose = () => {};
  const done = new Promise<{ at: number; status?: string }>((resolve, reject) => {
    dispose = client.subscribe(
      { query: SUBSCRIPTION, variables: { id: toGlobalId("Booking", bookingId) } },
      {
        next: (result: ExecutionResult) => {
          const at = performance.now();
          if (result.errors?.length) reject(new Error(`subscription: ${JSON.stringify(result.errors)}`));
          messages.push({ at, status: (result.data as { bookingStatusChanged?: { status?: string } } | undefined)?.bookingStatusChanged?.status });
          firstMessage();
        },
        error: (error) => reject(new Error(`subscription: ${JSON.stringify(error)}`)),
        // The message before completion is the one for the final status (CONFIRMED).
        complete: () => resolve(messages.at(-1) ?? { at: performance.now() }),
      },
    );
  });
  done.catch(() => {});
  return { first, done, dispose: () => dispose(), messages };
}


const slotFor = (n: number) => ({ date: addDays(new Date().toISOString().slice(0, 10), 2 + (n % 340)), time: Math.floor(n / 340) % 2 ? "14:00" : "09:00" });

/** Steps 1 to 4: dates, options, prices, booking (ON_HOLD). */
export async function holdBooking(target: FlowTarget, account: Account, n: number): Promise<any> {
  const { date, time } = slotFor(n);
  const base = `/booking-flow/v1/products/${target.productId}/availabilities`;
  const dates = await call(target, account, "dates", "GET", `${base}?startDate=${date}&endDate=${addDays(date, 6)}`);
  if (!dates.availabilityDates.includes(date)) throw new Error(`${date} not offered: ${JSON.stringify(dates)}`);
  let availability = await call(target, account, "options", "GET", `${base}/${date}/options`);
  for (;;) {
    const next = availability.availabilityOptions.find((o: { selectedOptionId?: string }) => o.selectedOptionId === undefined);
    if (!next) break;
    const value = next.dataType === "BOOLEAN" ? "true" : next.label === "Start time" ? time : Object.keys(next.optionChoices)[0];
    availability = await call(target, account, "set option", "PUT", `${base}/${availability.id}/options`, { optionId: next.id, value });
  }
  await call(target, account, "prices", "GET", `${base}/${availability.id}/prices?currencyCode=EUR`);
  const priced = await call(target, account, "set prices", "PUT", `${base}/${availability.id}/prices?currencyCode=EUR`, [{ unitId: "adult", value: 2 }]);
  if (!priced.isPricingStepCompleted) throw new Error(`pricing incomplete: ${JSON.stringify(priced)}`);
  return call(target, account, "create booking", "POST", "/booking-flow/v1/bookings", { availabilityId: priced.id, resellerRef: newRef() }, 201);
}

/** One flow, dates to CONFIRMED; CONFIRMED is awaited on the account's subscription connection, polling only as a fallback. */
export async function bookingFlow(target: FlowTarget, account: Account): Promise<FlowResult> {
  const started = performance.now();
  let booking = await holdBooking(target, account, target.nextSlot());
  const watcher = watch(account.client!, booking.id);
  try {
    for (let round = 0; !booking.isQuestionStepComplete; round++) {
      if (round === 4) throw new Error(`questions never complete: ${JSON.stringify(booking.questions)}`);
      booking = await call(target, account, "answer questions", "PUT", `/booking-flow/v1/bookings/${booking.id}/questions`, validAnswers(booking));
    }
    // Confirm only once the subscription is listening (its first message is the booking as it is).
    const firstMessageMissing = (await Promise.race([watcher.first.then(() => false), sleep(2000).then(() => true)])) as boolean;
    const confirmed = await call(target, account, "confirm", "POST", `/booking-flow/v1/bookings/${booking.id}/confirm`, {});
    if (confirmed.status !== "PENDING_CONFIRM" && confirmed.status !== "CONFIRMED") throw new Error(`confirm answered ${confirmed.status}`);
    const confirmRequested = performance.now();
    let polling = true;
    const poll = async (): Promise<{ at: number; bySubscription: false }> => {
      await sleep(3000);
      while (polling) {
        const read = await call(target, account, "poll booking", "GET", `/booking-flow/v1/bookings/${booking.id}`);
        if (read.status === "CONFIRMED") return { at: performance.now(), bySubscription: false };
        if (read.status !== "PENDING_CONFIRM") throw new Error(`booking ${booking.id} became ${read.status}`);
        await sleep(1000);
      }
      return new Promise(() => {});
    };
    const outcome = await Promise.race([
      watcher.done.then((m) => {
        if (m.status !== "CONFIRMED") throw new Error(`booking ${booking.id} ended ${m.status}`);
        return { at: m.at, bySubscription: true };
      }),
      poll(),
      sleep(60_000).then(() => Promise.reject(new Error(`booking ${booking.id} not CONFIRMED within 60 s`))),
    ]);
    polling = false;
    return {
      bookingId: booking.id,
      wallMs: outcome.at - started,
      confirmationMs: outcome.at - confirmRequested,
      receivedAt: outcome.at,
      bySubscription: outcome.bySubscription,
      firstMessageMissing,
    };
  } finally {
    watcher.dispose();
  }
}

export async function runFlows(target: FlowTarget, accounts: Account[], until: { deadline?: number; total?: number }): Promise<{ flows: FlowResult[]; seconds: number }> {
  const flows: FlowResult[] = [];
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    accounts.map(async (account) => {
      for (;;) {
        if (until.deadline !== undefined && performance.now() >= until.deadline) return;
        if (until.total !== undefined && started >= until.total) return;
        started++;
        flows.push(await bookingFlow(target, account));
      }
    }),
  );
  return { flows, seconds: (performance.now() - t0) / 1000 };
}


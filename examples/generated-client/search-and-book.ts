import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { exampleAnswer } from "../graphql-client/book-and-wait.js";
import { createClient, type Client } from "./sdk/client/index.js";
import { confirmBooking, createBooking, getBooking, getOptions, getPrices, getProduct, requestToken, searchProducts, setAnswers, setOption, setPrices } from "./sdk/sdk.gen.js";
import type { Booking, Question } from "./sdk/types.gen.js";

/**
 * The REST layer through a client @hey-api/openapi-ts generated from the service's OpenAPI document
 * (`npm run codegen:client`): one function per operation, named by its operationId, with typed
 * parameters and answers. Signs in, searches, reads the first product found and books it through
 * the booking flow, then waits for the supplier's confirmation as spec 2 says (poll GET booking).
 *
 *   npx tsx examples/generated-client/search-and-book.ts http://localhost:4000 demo-consumer sandbox-booking-2026 "cityName:paris"
 */
export interface SearchAndBookOptions {
  baseUrl: string;
  username: string;
  password: string;
  /** A search expression (docs/search.md); the first product found is booked. */
  search: string;
  adults?: number;
  /** How long to wait for the supplier's confirmation. */
  confirmationTimeoutMs?: number;
}

export async function searchAndBook(options: SearchAndBookOptions) {
  const client = createClient({ baseUrl: options.baseUrl });
  const token = await succeeded(
    requestToken({ client, body: { client_id: "content-partner-api", grant_type: "password", username: options.username, password: options.password } }),
  );
  // Every operation but the token's declares the bearer scheme; the client sends this token for it.
  client.setConfig({ auth: () => token.access_token });

  const found = await succeeded(searchProducts({ client, query: { Search: options.search, resultsPerPage: 10 } }));
  const first = found.items[0];
  if (!first) return { totalFound: found.totalResults, product: undefined, booking: undefined };
  const product = await succeeded(getProduct({ client, path: { productId: first.id } }));
  const booking = await book(client, product.productId, options);
  return { totalFound: found.totalResults, product, booking };
}

/** Spec 2's steps: options (creating the availability), prices, booking, answers, confirmation. */
async function book(client: Client, productId: number, options: SearchAndBookOptions): Promise<Booking> {
  const date = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  let availability = await succeeded(getOptions({ client, path: { productId, date } }));
  for (let open = availability.availabilityOptions.find((o) => o.selectedOptionId === undefined); open; open = availability.availabilityOptions.find((o) => o.selectedOptionId === undefined)) {
    const value = open.dataType === "BOOLEAN" ? "true" : (Object.keys(open.optionChoices ?? {})[0] ?? "yes");
    availability = await succeeded(setOption({ client, path: { productId, availabilityId: availability.id }, body: { optionId: open.id, value } }));
  }
  const priced = await succeeded(getPrices({ client, path: { productId, availabilityId: availability.id }, query: { currencyCode: "EUR" } }));
  const adults = priced.unitOptions?.find((unit) => unit.minAge >= 18) ?? priced.unitOptions?.[0];
  if (!adults) throw new Error(`product ${productId} offers no ticket type`);
  availability = await succeeded(
    setPrices({ client, path: { productId, availabilityId: availability.id }, query: { currencyCode: "EUR" }, body: [{ unitId: adults.id, value: options.adults ?? 2 }] }),
  );
  if (!availability.isPricingStepCompleted) throw new Error(`not bookable: ${JSON.stringify(availability.pricingIssues)}`);

  let booking = await succeeded(createBooking({ client, body: { availabilityId: availability.id, resellerRef: `HEY${randomUUID().replace(/-/g, "").slice(0, 16)}` } }));
  // Answering can reveal follow-ups, which the next call answers along with the rest.
  while (!booking.isQuestionStepComplete) {
    booking = await succeeded(setAnswers({ client, path: { bookingId: booking.id }, body: answersTo(booking) }));
  }
  await succeeded(confirmBooking({ client, path: { bookingId: booking.id } }));

  const deadline = Date.now() + (options.confirmationTimeoutMs ?? 30_000);
  for (;;) {
    booking = await succeeded(getBooking({ client, path: { bookingId: booking.id } }));
    if (booking.status !== "PENDING_CONFIRM" || Date.now() > deadline) return booking;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Every question shown, follow-ups included, answered with a value its dataType accepts. */
function answersTo(booking: Booking): { id: string; value: string }[] {
  const answers: { id: string; value: string }[] = [];
  const walk = (questions: Question[]) => {
    for (const question of questions) {
      answers.push({ id: question.id, value: question.value ?? exampleAnswer({ dataType: question.dataType, dataFormat: question.dataFormat ?? null }, Object.keys(question.questionChoices ?? {})[0]) });
      walk(question.followUpQuestions ?? []);
    }
  };
  walk(booking.questions.customer);
  walk(booking.questions.booking);
  for (const participant of booking.questions.participants) walk(participant.questions);
  return answers;
}

/** The answer's body, or an Error with the service's status and error (REST error body or OAuth error). */
async function succeeded<T>(call: Promise<{ data?: T; error?: unknown; response?: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) throw new Error(`${response?.status ?? "no answer"}: ${JSON.stringify(error)}`);
  return data;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [baseUrl = "http://localhost:4000", username = "demo-consumer", password = "sandbox-booking-2026", search = "cityName:paris"] = process.argv.slice(2);
  const { totalFound, product, booking } = await searchAndBook({ baseUrl, username, password, search });
  console.log({ totalFound, product: product && { id: product.productId, title: product.title }, booking: booking && { id: booking.id, status: booking.status, bookingCode: booking.bookingEngineDetails?.bookingCode } });
}

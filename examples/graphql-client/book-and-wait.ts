/**
 * A typed GraphQL client of the booking flow: signs in, books a product through the mutations
 * (availability, options, tickets, booking, answers, confirmation) and waits on the
 * `bookingStatusChanged` subscription until the supplier confirmed.
 *
 * The operations below are typed by `npm run codegen` (./gql); a change to them or to the schema
 * that breaks this file fails `npm run typecheck`.
 *
 * Against `npm start` (demo data):
 *   npx tsx examples/graphql-client/book-and-wait.ts http://localhost:4000 demo-consumer sandbox-booking-2026 UHJvZHVjdDox
 * (the demo's first product: a product's `id` as search, `node` or any answer gives it)
 */
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { graphql } from "./gql/index.js";
import type { BookingFieldsFragment, QuestionFieldsFragment, WatchBookingSubscription, WatchBookingSubscriptionVariables } from "./gql/graphql.js";

graphql(`
  fragment AvailabilityFields on Availability {
    id
    isOptionStepCompleted
    isPricingStepCompleted
    options { id dataType selectedValue choices { key } }
    units { id minAge restrictions { minQuantity } }
    pricingIssues { rule message }
    totalPrice { amount currencyCode }
  }
`);

graphql(`
  fragment QuestionFields on Question { id dataType dataFormat choices { key } value }
`);

graphql(`
  fragment BookingFields on Booking {
    id
    status
    isQuestionStepComplete
    totalPrice { amount currencyCode }
    supplierBooking { bookingCode }
    questions {
      customer { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }
      booking { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }
      participants { questions { ...QuestionFields followUpQuestions { ...QuestionFields } } }
    }
  }
`);

const NextDates = graphql(`
  query NextDates($productId: ID!) { nextAvailableDates(productId: $productId) }
`);
const CreateAvailability = graphql(`
  mutation CreateAvailability($input: CreateAvailabilityInput!) {
    createAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }
  }
`);
const SetOption = graphql(`
  mutation SetOption($input: SetAvailabilityOptionInput!) {
    setAvailabilityOption(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }
  }
`);
const Price = graphql(`
  mutation Price($input: PriceAvailabilityInput!) {
    priceAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }
  }
`);
const SetQuantities = graphql(`
  mutation SetQuantities($input: SetAvailabilityQuantitiesInput!) {
    setAvailabilityQuantities(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }
  }
`);
const CreateBooking = graphql(`
  mutation CreateBooking($input: CreateBookingInput!) { createBooking(input: $input) { booking { ...BookingFields } userErrors { code message field } } }
`);
const AnswerQuestions = graphql(`
  mutation AnswerQuestions($input: AnswerBookingQuestionsInput!) {
    answerBookingQuestions(input: $input) { booking { ...BookingFields } userErrors { code message field } }
  }
`);
const ConfirmBooking = graphql(`
  mutation ConfirmBooking($input: ConfirmBookingInput!) { confirmBooking(input: $input) { booking { id status } userErrors { code message field } } }
`);
const WatchBooking = graphql(`
  subscription WatchBooking($bookingId: ID!) {
    bookingStatusChanged(bookingId: $bookingId) { id status paymentStatus supplierBooking { bookingCode } }
  }
`);

export interface BookAndWaitOptions {
  /** Where the service runs, such as http://localhost:4000 */
  baseUrl: string;
  /** A consumer account (the demo one: demo-consumer / sandbox-booking-2026) */
  username: string;
  password: string;
  /** The global id of a product with a booking setup */
  productId: string;
  /** YYYY-MM-DD; the product's first date with places when not given */
  date?: string;
  /** Adults booked; each other ticket type starts at its minimum */
  adults?: number;
  /** How long to wait for the supplier's answer */
  timeoutMs?: number;
}

export interface BookAndWaitResult {
  bookingId: string;
  status: string;
  bookingCode: string | undefined;
  /** Every status the subscription reported, the first being the state when it started */
  statuses: string[];
}

export async function bookAndWait(options: BookAndWaitOptions): Promise<BookAndWaitResult> {
  const token = await signIn(options);
  const call = graphqlOverHttp(`${options.baseUrl}/graphql`, token);
  const { productId } = options;

  const date = options.date ?? (await call(NextDates, { productId })).nextAvailableDates[0];
  if (!date) throw new Error(`product ${productId} has no dates with places`);

  // Step 2: each option answered brings the next level, until none is open.
  let availability = accepted((await call(CreateAvailability, { input: { productId, date } })).createAvailability);
  for (let open = firstOpenOption(availability); open; open = firstOpenOption(availability)) {
    const value = open.dataType === "BOOLEAN" ? "true" : (open.choices?.[0]?.key ?? "none");
    availability = accepted((await call(SetOption, { input: { availabilityId: availability.id, optionId: open.id, value } })).setAvailabilityOption);
  }

  // Step 3: the ticket types and their prices, then the quantities.
  availability = accepted((await call(Price, { input: { availabilityId: availability.id, currencyCode: "EUR" } })).priceAvailability);
  const units = availability.units ?? [];
  const adult = units.find((unit) => unit.minAge >= 18) ?? units[0];
  const quantities = units.map((unit) => ({ unitId: unit.id, quantity: unit === adult ? (options.adults ?? 1) : unit.restrictions.minQuantity }));
  availability = accepted((await call(SetQuantities, { input: { availabilityId: availability.id, quantities } })).setAvailabilityQuantities);
  if (!availability.isPricingStepCompleted) throw new Error(`not bookable: ${JSON.stringify(availability.pricingIssues)}`);

  // Steps 4 and 5: the booking holds the place; answers may reveal follow-up questions.
  let booking = accepted((await call(CreateBooking, { input: { availabilityId: availability.id, resellerRef: `EX${randomUUID().replace(/-/g, "").slice(0, 16)}` } })).createBooking, "booking");
  for (let round = 0; !booking.isQuestionStepComplete; round++) {
    if (round === 5) throw new Error("the questions are still not complete after five rounds of answers");
    booking = accepted((await call(AnswerQuestions, { input: { bookingId: booking.id, answers: answersFor(booking) } })).answerBookingQuestions, "booking");
  }

  // Step 6: watch first (the first message is the current state), so no change is missed.
  const watched = watch(options, token, booking.id, options.timeoutMs ?? 30_000);
  await watched.started;
  accepted((await call(ConfirmBooking, { input: { bookingId: booking.id } })).confirmBooking, "booking");
  const statuses = await watched.statuses;
  const last = statuses.at(-1)!;
  return { bookingId: booking.id, status: last.status, bookingCode: last.supplierBooking?.bookingCode, statuses: statuses.map((s) => s.status) };
}

async function signIn({ baseUrl, username, password }: BookAndWaitOptions): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/realms/activities/protocol/openid-connect/token`, {
    method: "POST",
    body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password }),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (!response.ok || !body.access_token) throw new Error(`sign-in failed (${response.status}): ${body.error_description ?? "no token"}`);
  return body.access_token;
}

/** One typed operation over HTTP: the variables and the result take the document's types. */
function graphqlOverHttp(url: string, token: string) {
  return async <TResult, TVariables>(document: TypedDocumentNode<TResult, TVariables>, variables: TVariables): Promise<TResult> => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: print(document), variables }),
    });
    const body = (await response.json()) as { data?: TResult; errors?: { message: string; extensions?: { code?: string } }[] };
    if (body.errors?.length || !body.data) {
      throw new Error(`GraphQL ${response.status}: ${(body.errors ?? []).map((e) => `${e.extensions?.code ?? ""} ${e.message}`.trim()).join("; ")}`);
    }
    return body.data;
  };
}

type Status = WatchBookingSubscription["bookingStatusChanged"];

/**
 * Subscribes to the booking over graphql-ws. `started` resolves with the first message (the
 * current state); `statuses` once the subscription completes after a final status, with every
 * message's status, and rejects unless the last is CONFIRMED.
 */
function watch(options: BookAndWaitOptions, token: string, bookingId: string, timeoutMs: number) {
  const client = createClient({
    url: `${options.baseUrl.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  let started!: () => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const seen: Status[] = [];
  let timer: NodeJS.Timeout | undefined;
  const statuses = new Promise<Status[]>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no final status within ${timeoutMs} ms (seen: ${seen.map((s) => s.status).join(", ")})`)), timeoutMs);
    client.subscribe<WatchBookingSubscription, WatchBookingSubscriptionVariables>(
      { query: print(WatchBooking), variables: { bookingId } },
      {
        next: (message) => {
          if (message.errors?.length || !message.data) return reject(new Error(`subscription: ${JSON.stringify(message.errors)}`));
          seen.push(message.data.bookingStatusChanged);
          started();
        },
        error: (error) => reject(error instanceof Error ? error : new Error(`subscription: ${JSON.stringify(error)}`)),
        complete: () => {
          const last = seen.at(-1);
          if (last?.status === "CONFIRMED") resolve(seen);
          else reject(new Error(`the booking ended ${last?.status ?? "without a status"}`));
        },
      },
    );
  }).finally(() => {
    clearTimeout(timer);
    return client.dispose();
  });
  // A subscription that fails before its first message must not leave `started` waiting.
  statuses.catch(() => started());
  return { started: startedPromise, statuses };
}

/** What a step answers (its availability or booking), or the refusals of its input as an error. */
function accepted<P extends { userErrors: { code: string; message: string; field?: readonly string[] | null }[] }, K extends Exclude<keyof P, "userErrors" | "__typename">>(payload: P, result: K = "availability" as K): NonNullable<P[K]> {
  const value = payload[result];
  if (value == null) throw new Error(`refused: ${payload.userErrors.map((error) => `${error.code} ${error.field?.join(".") ?? ""}: ${error.message}`).join("; ")}`);
  return value as NonNullable<P[K]>;
}

function firstOpenOption<T extends { options: { selectedValue?: string | null }[] }>(availability: T) {
  return availability.options.find((option) => option.selectedValue == null) as T["options"][number] | undefined;
}

/** Example answers for every question shown, follow-ups included; a real client asks the traveller. */
function answersFor(booking: BookingFieldsFragment): { questionId: string; value: string }[] {
  type Shown = QuestionFieldsFragment & { followUpQuestions?: Shown[] };
  const answers: { questionId: string; value: string }[] = [];
  const walk = (questions: Shown[]) => {
    for (const question of questions) {
      answers.push({ questionId: question.id, value: question.value ?? exampleAnswer(question, question.choices?.[0]?.key) });
      walk(question.followUpQuestions ?? []);
    }
  };
  walk(booking.questions.customer);
  walk(booking.questions.booking);
  for (const participant of booking.questions.participants) walk(participant.questions);
  return answers;
}

/** A valid answer for any question type, an OPTIONS one with the choice given (the test suite answers with it too). */
export function exampleAnswer(question: { dataType: string; dataFormat?: string | null }, firstChoice?: string): string {
  if (question.dataFormat === "EMAIL_ADDRESS") return "traveller@example.com";
  if (question.dataFormat === "PHONE_NUMBER") return "+41791234567";
  switch (question.dataType) {
    case "INT":
      return "34";
    case "DOUBLE":
      return "1.5";
    case "BOOLEAN":
    case "ACCEPT":
    case "CHECKBOX_TOGGLE":
      return "true";
    case "DATE":
      return "1990-04-01";
    case "TIME":
      return "09:30:00";
    case "DATE_AND_TIME":
      return "2027-03-10T09:00:00+01:00";
    case "OPTIONS":
      return firstChoice ?? "";
    default:
      return "Ada Lovelace";
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [baseUrl = "http://localhost:4000", username = "demo-consumer", password = "sandbox-booking-2026", productId = "UHJvZHVjdDox"] = process.argv.slice(2);
  console.log(await bookAndWait({ baseUrl, username, password, productId }));
}

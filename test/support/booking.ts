import { exampleAnswer } from "../../examples/graphql-client/book-and-wait.js";
import { randomUUID } from "node:crypto";
import { contentPartner, productRequest, restClient, supplierRequest } from "./catalogue.js";
import type { Stack } from "./stack.js";

/** Open every day from a year ago to two years ahead, so that tests pick dates freely. */
export const everyDay = (from = "2026-01-01", to = "2028-12-31") => ({
  weeklyPeriods: [
    {
      description: "All year",
      startDate: from,
      endDate: to,
      ...Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, { open: true, hours: null }])),
      closedDayList: [],
    },
  ],
});

/** A setup with adults, children who need an adult (at most 2 each), a fee, and two cancellation tiers. */
export const familySetup = (overrides: Record<string, unknown> = {}) => ({
  timeZone: "Europe/Zurich",
  startTimes: ["09:00", "14:00"],
  capacityPerSlot: 10,
  minParticipants: 1,
  maxParticipants: 8,
  currency: "EUR",
  units: [
    { key: "adult", label: { en: "Adult", de: "Erwachsene" }, minAge: 18, unitPriceType: "PER_PERSON", price: 50, minQuantity: 1, maxQuantity: 8 },
    { key: "child", label: { en: "Child", de: "Kind" }, minAge: 4, maxAge: 17, unitPriceType: "PER_PERSON", price: 20, maxQuantity: 6, accompaniedBy: ["adult"], maxPerCompanion: 2 },
  ],
  options: [
    { key: "route", label: "Route", dataType: "OPTIONS", choices: [{ key: "glacier", label: "Glacier" }, { key: "lake", label: "Lake" }] },
    { key: "lunch", label: "Packed lunch", dataType: "BOOLEAN", shownWhen: { option: "route", equals: "glacier" } },
  ],
  questions: {
    customer: [
      { key: "firstName", question: { en: "First name" }, dataType: "TEXT" },
      { key: "email", question: "E-mail", dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
      { key: "phone", question: "Mobile phone", dataType: "TEXT", dataFormat: "PHONE_NUMBER" },
      { key: "lastName", question: { en: "Last name" }, dataType: "TEXT" },
    ],
    booking: [
      {
        key: "pickup",
        question: "Hotel pickup?",
        dataType: "BOOLEAN",
        followUps: [{ equals: "true", questions: [{ key: "hotel", question: "Hotel name", dataType: "TEXT", dataFormat: "ADDRESS" }] }],
      },
    ],
    participant: [{ key: "age", question: "Age", dataType: "INT" }],
  },
  leadTravellerName: ["firstName", "lastName"],
  cancellationTiers: [
    { label: "Free cancellation up to 2 days before", duration: "P2D", refundPercentage: 100 },
    { label: "Half refund up to 12 hours before", duration: "PT12H", refundPercentage: 50 },
  ],
  confirmationDelaySeconds: 2,
  ...overrides,
});

export interface BookableProduct {
  productId: number;
  supplierId: number;
  partner: Awaited<ReturnType<typeof contentPartner>>;
}

/** A content partner's product with a booking setup, made through the REST management paths. */
export async function bookableProduct(
  stack: Stack,
  setup: Record<string, unknown> = familySetup(),
  periods: Record<string, unknown> = everyDay(),
  productFields: Record<string, unknown> = {},
): Promise<BookableProduct> {
  const partner = await contentPartner(stack);
  const supplier = await partner.rest.post("/api/supplier", supplierRequest());
  if (supplier.status !== 201) throw new Error(`supplier: ${JSON.stringify(supplier.body)}`);
  const product = await partner.rest.post(`/api/supplier/${supplier.body.id}/product`, productRequest({ availabilityPeriods: periods, ...productFields }));
  if (product.status !== 201) throw new Error(`product: ${JSON.stringify(product.body)}`);
  const put = await partner.rest.put(`/api/supplier/${supplier.body.id}/product/${product.body.id}/booking-setup`, setup);
  if (put.status !== 200) throw new Error(`setup: ${JSON.stringify(put.body)}`);
  return { productId: product.body.id, supplierId: supplier.body.id, partner };
}

/** A consumer account of a fresh organisation, signed in, with a REST client that can send headers. */
export async function consumer(stack: Stack, organisation?: string) {
  const account = await stack.createAccount("CONSUMER", organisation ? { name: organisation } : undefined);
  const token = (await stack.login(account.username, account.password)).access_token;
  return { ...account, token, rest: bookingClient(stack, token) };
}

export function bookingClient(stack: Stack, token: string) {
  const base = restClient(stack, token);
  const withHeaders = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return { ...base, send: withHeaders };
}
export type BookingClient = ReturnType<typeof bookingClient>;

export const newRef = () => `REF${randomUUID().replace(/-/g, "").slice(0, 12)}`;

/** Runs steps 2 and 3 to a bookable availability: the route, adults and children given; `language` is sent as Accept-Language. */
export async function bookableAvailability(
  client: BookingClient,
  productId: number,
  date: string,
  choice: { time?: string; adults?: number; children?: number; currency?: string; language?: string } = {},
) {
  const headers: Record<string, string> = choice.language ? { "accept-language": choice.language } : {};
  const rest = {
    get: (path: string) => client.send("GET", path, undefined, headers),
    put: (path: string, body: unknown) => client.send("PUT", path, body, headers),
  };
  const base = `/booking-flow/v1/products/${productId}/availabilities`;
  let availability = (await rest.get(`${base}/${date}/options`)).body;
  for (;;) {
    const next = availability.availabilityOptions.find((o: { selectedOptionId?: string }) => o.selectedOptionId === undefined);
    if (!next) break;
    const value = next.dataType === "BOOLEAN" ? "true" : next.label === "Start time" ? (choice.time ?? Object.keys(next.optionChoices)[0]) : Object.keys(next.optionChoices)[0];
    const put = await rest.put(`${base}/${availability.id}/options`, { optionId: next.id, value });
    if (put.status !== 200) throw new Error(`options: ${JSON.stringify(put.body)}`);
    availability = put.body;
  }
  const currency = choice.currency ?? "EUR";
  await rest.get(`${base}/${availability.id}/prices?currencyCode=${currency}`);
  const priced = await rest.put(`${base}/${availability.id}/prices?currencyCode=${currency}`, [
    { unitId: "adult", value: choice.adults ?? 2 },
    ...(choice.children ? [{ unitId: "child", value: choice.children }] : []),
  ]);
  if (priced.status !== 200) throw new Error(`prices: ${JSON.stringify(priced.body)}`);
  return priced.body;
}

/** Answers every question shown, follow-ups included, with valid values; repeats until complete. REST's booking body. */
export function validAnswers(booking: any): { id: string; value: string }[] {
  return answersOf(booking, (q) => Object.keys(q.questionChoices ?? {})[0]).map(({ questionId, value }) => ({ id: questionId, value }));
}

/** The same answers for the graph's booking (`choices { key }`), as AnswerInput takes them. */
export function validGraphAnswers(booking: any): { questionId: string; value: string }[] {
  return answersOf(booking, (q) => q.choices?.[0]?.key);
}

function answersOf(booking: any, firstChoice: (question: any) => string | undefined): { questionId: string; value: string }[] {
  const answers: { questionId: string; value: string }[] = [];
  const walk = (questions: any[]) => {
    for (const q of questions) {
      answers.push({ questionId: q.id, value: q.value ?? exampleAnswer(q, firstChoice(q)) });
      walk(q.followUpQuestions ?? []);
    }
  };
  walk(booking.questions.customer ?? []);
  walk(booking.questions.booking ?? []);
  for (const participant of booking.questions.participants ?? []) walk(participant.questions);
  return answers;
}


import { randomUUID } from "node:crypto";
import type { Stack } from "./stack.js";

export interface RestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** A small REST client bound to one token. */
export function restClient(stack: Stack, token: string) {
  const call = async (method: string, path: string, body?: unknown): Promise<RestResponse> => {
    const response = await fetch(`${stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body?: unknown) => call("POST", path, body ?? {}),
    put: (path: string, body: unknown) => call("PUT", path, body),
    delete: (path: string) => call("DELETE", path),
  };
}
export type RestClient = ReturnType<typeof restClient>;

export const uniqueEngineName = () => `ENGINE_${randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;

/** A content partner with a booking engine of its own, signed in. */
export async function contentPartner(stack: Stack, options: { scope?: string } = {}) {
  const engineName = uniqueEngineName();
  const account = await stack.createAccount("CONTENT_PARTNER", { bookingEngine: engineName, country: "CH" });
  const token = await signIn(stack, account.username, account.password, options.scope);
  const engineId = (await restClient(stack, token).get("/api/me")).body.organisation.bookingEngineId as number;
  return { ...account, token, engineName, engineId, rest: restClient(stack, token) };
}

export async function signIn(stack: Stack, username: string, password: string, scope?: string): Promise<string> {
  const response = await fetch(stack.tokenUrl, {
    method: "POST",
    body: new URLSearchParams({ client_id: "content-partner-api", grant_type: "password", username, password, ...(scope ? { scope } : {}) }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export const supplierRequest = (overrides: Record<string, unknown> = {}) => ({
  externalId: `SUP-${randomUUID().slice(0, 8)}`,
  country: "CH",
  name: "Zermatt Mountain Guides",
  channel: "api",
  endpoint: "https://guides.example/api",
  logo: "https://guides.example/logo.png",
  supplierContact: { website: "https://guides.example", email: "info@guides.example", telephone: "+41 27 966 24 60", address: "Bahnhofstrasse 1, 3920 Zermatt" },
  geoLocation: { latitude: 46.0207, longitude: 7.7491 },
  ...overrides,
});

export const productRequest = (overrides: Record<string, unknown> = {}) => ({
  externalId: `PRD-${randomUUID().slice(0, 8)}`,
  title: { en: "Matterhorn glacier hike", de: "Matterhorn Gletscherwanderung" },
  countryCode: "CH",
  zipCode: "3920",
  cityName: "Zermatt",
  rating: 4.7,
  numberOfRatings: 312,
  instantConfirmation: true,
  availabilityType: "START_TIME",
  redemptionMethod: "DIGITAL",
  description: { en: "A guided hike onto the Gorner glacier.", de: "Eine geführte Wanderung auf den Gornergletscher." },
  experienceHighlights: { en: "Glacier views/nIce caves" },
  thumbnailImage: "https://img.example/matterhorn-thumb.jpg",
  bookingUrl: { en: "https://guides.example/book/matterhorn" },
  minPrice: 120,
  maxPrice: 180,
  priceCurrency: "CHF",
  pricingUnit: "PER_PERSON",
  priceLevel: 3,
  minParticipants: 2,
  maxParticipants: 12,
  geoLocation: { latitude: 45.9763, longitude: 7.6586 },
  duration: "PT6H",
  galleryImage: [{ title: "Glacier", url: "https://img.example/glacier.jpg", order: 1 }],
  categories: [
    { level: 1, code: "outdoor", name: { en: "Outdoor" } },
    { level: 2, code: "hiking" },
  ],
  availabilityPeriods: {
    weeklyPeriods: [
      {
        description: "Summer season",
        startDate: "2027-06-01",
        endDate: "2027-09-30",
        monday: { open: true, hours: null },
        tuesday: { open: true, hours: [{ start: "08:00", end: "14:00" }] },
        sunday: { open: false, hours: null },
        closedDayList: ["2027-08-01"],
      },
    ],
    spontaneousPeriod: { description: "Full moon tours", eventDateList: ["2027-07-21T21:00"] },
  },
  itinerary: { type: "STANDARD", unitType: "ITEM", units: [{ title: { en: "Ascent" }, items: [{ title: { en: "Trockener Steg" }, location: { name: "Trockener Steg", latitude: 45.9686, longitude: 7.7237 } }] }] },
  isCancellable: true,
  cancellationCutOffAmount: 24,
  cancellationCutOffUnit: "hour",
  handiAccess: false,
  likelyToBeSoldOut: true,
  skipTheLine: false,
  metadata: { season: "summer" },
  ...overrides,
});

/**
 * A fresh engine with `count` products under one supplier, and an agent consumer's token: a run
 * of the bulk import narrowed to the engine (`bookingEngineList`) sees exactly these products.
 */
export async function importableEngine(stack: Stack, count: number) {
  const partner = await contentPartner(stack);
  const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
  for (let i = 0; i < count; i++) await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest());
  const consumer = await stack.createAccount("CONSUMER", { model: "agent" });
  return { partner, supplierId, consumerToken: await signIn(stack, consumer.username, consumer.password) };
}

/** A supplier as the graph's CreateSupplierInput takes it: spec 1's request under the graph's names. */
export const supplierInput = (overrides: Record<string, unknown> = {}) => {
  const { country, supplierContact, ...fields } = supplierRequest();
  return { ...fields, countryCode: country, contact: supplierContact, ...overrides };
};

import type { ProductRequest } from "../subgraphs/catalogue/product/product.rules.js";
import { createProductsInBulk } from "../subgraphs/catalogue/product/product.service.js";
import { bookingEngineRepository } from "../subgraphs/catalogue/booking-engine/booking-engine.repository.js";
import { supplierRepository, type SupplierRow } from "../subgraphs/catalogue/supplier/supplier.repository.js";
import { supplierProblems, supplierValues, type SupplierRequest } from "../subgraphs/catalogue/supplier/supplier.rules.js";
import type { Database, Executor } from "../drizzle/database.js";
import { bookingSetupRepository } from "../subgraphs/booking/engines/inventory/booking-setup.repository.js";
import { bookingSetupSchema, type BookingSetup } from "../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import { demoBookingSetup } from "./booking-setups.js";
import { cities, eurTo, inCity, templates, type ActivityTemplate, type City } from "./catalogue-data.js";
import { INVENTORY_ENGINE } from "./demo.js";

/** A small deterministic PRNG (mulberry32): the same seed gives the same catalogue on every machine. */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (probability: number) => next() < probability,
  };
}
type Random = ReturnType<typeof randomSource>;

const round = (value: number, currency: string) => (currency === "JPY" ? Math.round(value / 100) * 100 : Math.round(value));

/** One realistic product: an activity template placed in a city, in the city's languages and English. */
export function productFor(index: number, city: City, random: Random, externalPrefix: string): ProductRequest {
  const template = templates[index % templates.length];
  const languages = ["en", ...city.languages].filter((language) => template.title[language as keyof typeof template.title]);
  const title = Object.fromEntries(languages.map((language) => [language, `${template.title[language as "en"]} ${inCity[language]} ${city.name}`]));
  const [low, high] = priceRange(template, city, random);
  const jitter = () => (random.next() - 0.5) * 0.06;
  const rating = Math.round((3.4 + random.next() * 1.6) * 10) / 10;
  const request: ProductRequest = {
    externalId: `${externalPrefix}-${index.toString().padStart(7, "0")}`,
    title,
    description: { en: `${template.description} Meeting point in central ${city.name}.` },
    shortDescription: { en: template.description },
    countryCode: city.country,
    cityName: city.name,
    zipCode: city.zip,
    rating,
    numberOfRatings: random.int(0, 4000),
    availabilityType: template.availabilityType,
    redemptionMethod: random.pick(["DIGITAL", "DIGITAL", "PRINT", "MANIFEST"]),
    instantConfirmation: random.chance(0.8),
    instantDelivery: random.chance(0.7),
    duration: template.duration,
    pricingUnit: template.pricingUnit,
    priceCurrency: city.currency,
    geoLocation: { latitude: Math.round((city.latitude + jitter()) * 1e6) / 1e6, longitude: Math.round((city.longitude + jitter()) * 1e6) / 1e6 },
    categories: [
      { level: 1, code: template.category },
      { level: 2, code: template.subcategory },
    ],
    thumbnailImage: `https://images.activities.example/${template.subcategory}/${(index % 97) + 1}.jpg`,
    galleryImage: [1, 2, 3].map((order) => ({ url: `https://images.activities.example/${template.subcategory}/${((index + order) % 97) + 1}-large.jpg`, order })),
    isCancellable: random.chance(0.85),
    cancellationCutOffAmount: 24,
    cancellationCutOffUnit: "hour",
    cancellationCutOff: { en: "Free cancellation up to 24 hours before the start" },
    handiAccess: random.chance(0.4),
    likelyToBeSoldOut: random.chance(0.15),
    skipTheLine: template.category === "tickets-attractions" && random.chance(0.6),
    minParticipants: template.pricingUnit === "GROUP" ? 2 : 1,
    maxParticipants: template.pricingUnit === "PER_BOAT" ? 8 : random.int(8, 30),
    modalitiesIncluded: { en: "Professional guide/nAll entrance fees listed" },
    modalitiesExcluded: { en: "Hotel pick-up/nTips" },
  };
  setPrices(request, template, low, high);
  if (random.chance(0.3)) request.bookingUrl = { en: `https://book.activities.example/${request.externalId}` };
  setCommission(request, index);
  return request;
}

/** The template's prices in the city's currency, each varied by up to 15 % either way. */
function priceRange(template: ActivityTemplate, city: City, random: Random): [low: number, high: number] {
  const rate = eurTo[city.currency] ?? 1;
  const low = round(template.price[0] * rate * (0.85 + random.next() * 0.3), city.currency);
  const high = Math.max(low, round(template.price[1] * rate * (0.85 + random.next() * 0.3), city.currency));
  return [low, high];
}

/** A restaurant states an average price and a price level; an activity its lowest and highest price. */
function setPrices(request: ProductRequest, template: ActivityTemplate, low: number, high: number): void {
  if (template.restaurant) {
    request.averagePrice = Math.round((low + high) / 2);
    request.priceLevel = Math.min(4, Math.max(1, Math.ceil((template.price[1] / 260) * 4)));
  } else {
    request.minPrice = low;
    request.maxPrice = high;
  }
}

/**
 * Commission terms as suppliers state them: mostly a share of the retail price (15-30 %), one in
 * five as an amount per adult. Derived from the index, not drawn, so that adding them left the
 * rest of the generated catalogue as it was.
 */
function setCommission(request: ProductRequest, index: number): void {
  const share = (15 + ((index * 7) % 16)) / 100;
  if (index % 5 === 4 && request.minPrice) request.estCommNet = Math.round(request.minPrice * share * 100) / 100;
  else request.estCommFrpricePerc = share;
}

/**
 * Products for one supplier, written by the catalogue's bulk creation: each checked by the
 * catalogue's rules, with its taxonomy links, its NEW change and the product.changed messages
 * that change calls for. `bookingFlow[i]`: the booking flow sells `requests[i]` (its setup is
 * written beside it).
 */
export function insertProducts(db: Executor, supplier: { id: number; bookingEngineId: number }, requests: ProductRequest[], now: Date, bookingFlow: boolean[] = []): Promise<number[]> {
  return createProductsInBulk(db, supplier, requests, now, bookingFlow);
}

/** A supplier as its service creates one, checked by the catalogue's rules first. */
export async function insertSupplier(db: Executor, request: SupplierRequest, engineId: number, now: Date): Promise<SupplierRow> {
  const problems = supplierProblems(request);
  if (!problems.empty) throw new Error(`supplier ${request.externalId} is invalid: ${JSON.stringify(problems.list)}`);
  return supplierRepository.insert(db, supplierValues(request, engineId), now);
}

/** The demo suppliers: one per region, each with the cities it runs activities in. */
export const demoSuppliers = [
  { externalId: "DEMO-ALPINE", name: "Alpine Experiences", country: "CH", cities: ["Zermatt", "Lucerne", "Vienna", "Munich"] },
  { externalId: "DEMO-PARIS", name: "Paris Insiders", country: "FR", cities: ["Paris", "Nice", "Marrakesh"] },
  { externalId: "DEMO-ROMA", name: "Roma Autentica", country: "IT", cities: ["Rome", "Florence", "Athens"] },
  { externalId: "DEMO-IBERIA", name: "Iberia Trails", country: "ES", cities: ["Barcelona", "Seville", "Lisbon"] },
  { externalId: "DEMO-NORTH", name: "Northern Lights Tours", country: "GB", cities: ["London", "Edinburgh", "Dublin", "Copenhagen", "Amsterdam", "Berlin", "Prague"] },
  { externalId: "DEMO-AMERICAS", name: "Big Apple Adventures", country: "US", cities: ["New York", "San Francisco", "Cancún"] },
  { externalId: "DEMO-ASIAPAC", name: "Asia Pacific Journeys", country: "AU", cities: ["Kyoto", "Bangkok", "Sydney"] },
  { externalId: "DEMO-AFRICA", name: "Cape and Gulf Expeditions", country: "ZA", cities: ["Cape Town", "Dubai"] },
];

export const DEMO_PRODUCTS_PER_CITY = 9;

/**
 * The demo catalogue of `npm start`: the suppliers above under the built-in inventory engine,
 * with 9 activities in each of their 28 cities (252 products). Skipped when already there.
 * `signal`: a stop during the seed rolls it back between two suppliers (the seed is one
 * transaction, all or nothing), and the next start seeds again.
 */
export async function seedDemoCatalogue(database: Database, now: Date, signal?: AbortSignal): Promise<{ suppliers: number; products: number }> {
  const engine = await bookingEngineRepository.byName(database.db, INVENTORY_ENGINE);
  if (!engine) return { suppliers: 0, products: 0 };
  const existing = await supplierRepository.liveByExternalIds(database.db, engine.id, demoSuppliers.map((s) => s.externalId));
  if (existing.length) return { suppliers: 0, products: 0 };
  const randoms: DemoRandoms = {
    content: randomSource(20261122),
    // A source of its own, so that booking setups do not change the catalogue content the seed makes.
    setups: randomSource(5),
  };
  const today = now.toISOString().slice(0, 10);
  let count = 0;
  await database.db.transaction(async (tx) => {
    for (const demo of demoSuppliers) {
      signal?.throwIfAborted();
      const supplier = await insertDemoSupplier(tx, demo, engine.id, now);
      const { requests, setups } = demoProducts(demo, count, randoms, today);
      const ids = await insertProducts(tx, supplier, requests, now, setups.map(Boolean));
      await insertBookingSetups(tx, ids, setups, now);
      count += ids.length;
    }
  });
  return { suppliers: demoSuppliers.length, products: count };
}

type DemoSupplier = (typeof demoSuppliers)[number];
interface DemoRandoms {
  content: Random;
  setups: Random;
}

function insertDemoSupplier(tx: Executor, demo: DemoSupplier, engineId: number, now: Date): Promise<SupplierRow> {
  const home = cities.find((c) => c.name === demo.cities[0])!;
  const request: SupplierRequest = {
    externalId: demo.externalId,
    country: demo.country,
    name: demo.name,
    channel: "demo",
    supplierContact: { website: `https://${demo.externalId.toLowerCase()}.activities.example`, email: `hello@${demo.externalId.toLowerCase()}.activities.example` },
    geoLocation: { latitude: home.latitude, longitude: home.longitude },
  };
  return insertSupplier(tx, request, engineId, now);
}

/** A supplier's products, numbered on from `count`, in each of its cities, each with its booking setup or none. */
function demoProducts(demo: DemoSupplier, count: number, randoms: DemoRandoms, today: string): { requests: ProductRequest[]; setups: (BookingSetup | undefined)[] } {
  const requests: ProductRequest[] = [];
  const setups: (BookingSetup | undefined)[] = [];
  for (const cityName of demo.cities) {
    const city = cities.find((c) => c.name === cityName)!;
    for (let i = 0; i < DEMO_PRODUCTS_PER_CITY; i++) {
      const index = count + requests.length;
      const request = productFor(index, city, randoms.content, demo.externalId);
      const template = templates[index % templates.length];
      // Two products in three are bookable through the built-in inventory; restaurants are not.
      if (!template.restaurant && index % 3 !== 2) {
        const demoSetup = demoBookingSetup(template, city, randoms.setups, request.minPrice ?? 30, today);
        request.availabilityPeriods = demoSetup.periods;
        setups.push(bookingSetupSchema.parse(demoSetup.setup));
      } else {
        setups.push(undefined);
      }
      requests.push(request);
    }
  }
  return { requests, setups };
}

/**
 * The setups, written by booking's repository. No booking-flow announcement goes with them: the
 * catalogue's side was written in the same transaction, by its own code (the products were made
 * with `bookingFlow`), so a tell would change nothing (docs/architecture.md, "The seed").
 */
async function insertBookingSetups(tx: Executor, ids: number[], setups: (BookingSetup | undefined)[], now: Date): Promise<void> {
  await bookingSetupRepository.insertNew(tx, ids.flatMap((productId, i) => (setups[i] ? [{ productId, setup: setups[i] }] : [])), now);
}

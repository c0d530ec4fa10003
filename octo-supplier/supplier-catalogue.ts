/**
 * What the local OCTO supplier sells: three Paris products, one with start times and two options,
 * one with opening hours, one priced per booking, each in English, French and German. Prices are in euro cents, as OCTO
 * counts money in the currency's minor units.
 */

export const SUPPLIER_LANGUAGES = ["en", "fr", "de"] as const;
export type SupplierLanguage = (typeof SUPPLIER_LANGUAGES)[number];
export type Texts = Record<SupplierLanguage, string>;

export const SUPPLIER_TIME_ZONE = "Europe/Paris";
export const SUPPLIER_CURRENCY = "EUR";

/** A question the supplier asks (`octo/questions`), in its three languages. */
export interface SupplierQuestion {
  id: string;
  title: Texts;
  required: boolean;
  inputType: "date" | "text" | "textarea" | "select" | "email" | "tel" | "number";
  selectOptions?: { value: string; label: Texts }[];
}

export interface SupplierUnit {
  id: string;
  type: "ADULT" | "YOUTH" | "CHILD" | "INFANT" | "FAMILY" | "SENIOR" | "STUDENT";
  title: Texts;
  minAge: number;
  maxAge: number;
  /** People one unit admits (a family ticket admits four). */
  paxCount: number;
  /** Retail price per unit, in cents. */
  retail: number;
  /** Asked of each ticket of this unit. */
  questions?: SupplierQuestion[];
  /** Tickets of this unit in one booking (OCTO's unit restrictions). */
  minQuantity?: number;
  maxQuantity?: number;
}

export interface SupplierOption {
  id: string;
  title: Texts;
  /** Local start times; an opening-hours product has one ("00:00"), the whole day. */
  startTimes: string[];
  /** Places per departure (or per day, for opening hours). */
  capacity: number;
  /** Departures that are always sold out, so that a newcomer can try one on any date. */
  soldOutTimes: string[];
  durationMinutes: number;
  openingHours: { from: string; to: string }[];
  minUnits: number;
  maxUnits: number;
  units: SupplierUnit[];
  /** Departures priced otherwise than the units' prices: start time to unit id to cents. */
  departurePrices?: Record<string, Record<string, number>>;
  /** Asked once per booking of this option. */
  questions?: SupplierQuestion[];
  /** People in one booking (OCTO's `minPaxCount`, `maxPaxCount`). */
  minPaxCount?: number;
  maxPaxCount?: number;
  /** Units a booking may take at each departure, when lower than `maxUnits` (the availability's own `maxUnits`). */
  departureMaxUnits?: number;
  /** Products priced per booking: the price of one booking, in cents, whatever its units. */
  bookingPrice?: number;
}

export interface SupplierProduct {
  id: string;
  internalName: string;
  availabilityType: "START_TIME" | "OPENING_HOURS";
  title: Texts;
  shortDescription: Texts;
  description: Texts;
  options: SupplierOption[];
  cancellationCutoffHours: number;
  /** How tickets come: a code to scan, and for some products a PDF the supplier serves as well. */
  deliveryFormats: ("QRCODE" | "PDF_URL")[];
  place: { latitude: number; longitude: number; street: string; postalCode: string; city: string };
  image: string;
  /** Asked once per booking of the product. */
  questions?: SupplierQuestion[];
  /** OCTO's `pricingPer`: UNIT (default, each unit priced) or BOOKING (the option's `bookingPrice`). */
  pricingPer?: "UNIT" | "BOOKING";
  /**
   * How its bookings state their price: TOTAL (default) as the booking's `pricing`; UNIT_ITEMS_ONLY
   * as a booking-level `pricing` of 0 with each unit item priced, as OCTO's own mock supplier answers
   * (a product priced per booking then states no price at all).
   */
  bookingPricing?: "TOTAL" | "UNIT_ITEMS_ONLY";
  /** How its length is written: MINUTES (`durationMinutesFrom`/`To`, default) or AMOUNT_AND_UNIT (`duration`, `durationAmount`, `durationUnit` on each option). */
  durationStyle?: "MINUTES" | "AMOUNT_AND_UNIT";
}

export const SUPPLIER = {
  id: "paris-discovery",
  name: "Paris Discovery (local OCTO supplier)",
  website: "https://paris-discovery.example",
  email: "bookings@paris-discovery.example",
  telephone: "+33 1 40 20 50 50",
  address: "99 Rue de Rivoli, 75001 Paris",
  shortDescription: { en: "Guided tours and river passes in Paris", fr: "Visites guidées et passes fluviaux à Paris", de: "Führungen und Flusspässe in Paris" } as Texts,
};

const childBirthDate: SupplierQuestion = {
  id: "child-birth-date",
  title: { en: "Child's date of birth", fr: "Date de naissance de l'enfant", de: "Geburtsdatum des Kindes" },
  required: true,
  inputType: "date",
};
const adult = (retail: number): SupplierUnit => ({ id: "adult", type: "ADULT", title: { en: "Adult", fr: "Adulte", de: "Erwachsener" }, minAge: 18, maxAge: 99, paxCount: 1, retail });
const child = (retail: number): SupplierUnit => ({ id: "child", type: "CHILD", title: { en: "Child", fr: "Enfant", de: "Kind" }, minAge: 4, maxAge: 17, paxCount: 1, retail, questions: [childBirthDate] });

export const SUPPLIER_PRODUCTS: SupplierProduct[] = [
  {
    id: "louvre-highlights",
    internalName: "Louvre highlights guided tour",
    availabilityType: "START_TIME",
    title: { en: "Louvre highlights guided tour", fr: "Visite guidée des chefs-d'œuvre du Louvre", de: "Führung zu den Höhepunkten des Louvre" },
    shortDescription: { en: "The Mona Lisa, the Venus de Milo and the Winged Victory with an art historian.", fr: "La Joconde, la Vénus de Milo et la Victoire de Samothrace avec une historienne de l'art.", de: "Mona Lisa, Venus von Milo und Nike von Samothrake mit einer Kunsthistorikerin." },
    description: {
      en: "Two hours through the Louvre's best-known rooms in a group of at most twenty. Entry tickets are included.",
      fr: "Deux heures dans les salles les plus célèbres du Louvre, en groupe de vingt personnes au plus. Billets d'entrée inclus.",
      de: "Zwei Stunden durch die bekanntesten Säle des Louvre in einer Gruppe von höchstens zwanzig Personen. Eintrittskarten inbegriffen.",
    },
    cancellationCutoffHours: 24,
    deliveryFormats: ["QRCODE"],
    place: { latitude: 48.8606, longitude: 2.3376, street: "Rue de Rivoli", postalCode: "75001", city: "Paris" },
    image: "https://paris-discovery.example/img/louvre.jpg",
    questions: [
      {
        id: "step-free-access",
        title: { en: "Does anyone in your party need step-free access?", fr: "Une personne de votre groupe a-t-elle besoin d'un accès sans marches ?", de: "Benötigt jemand in Ihrer Gruppe einen stufenlosen Zugang?" },
        required: true,
        inputType: "select",
        selectOptions: [
          { value: "no", label: { en: "No", fr: "Non", de: "Nein" } },
          { value: "yes", label: { en: "Yes", fr: "Oui", de: "Ja" } },
        ],
      },
      // Optional: a reseller may leave it out, so the flow does not ask it.
      { id: "guide-notes", title: { en: "Anything your guide should know?", fr: "Quelque chose que votre guide devrait savoir ?", de: "Sollte Ihr Guide etwas wissen?" }, required: false, inputType: "textarea" },
    ],
    options: [
      {
        id: "group",
        title: { en: "Small group", fr: "Petit groupe", de: "Kleingruppe" },
        startTimes: ["09:00", "11:00", "14:00"],
        // Three guides a departure, each with a group of twenty at most.
        capacity: 60,
        soldOutTimes: ["14:00"],
        durationMinutes: 120,
        openingHours: [{ from: "09:00", to: "18:00" }],
        minUnits: 1,
        maxUnits: 10,
        units: [adult(6500), child(3500)],
        // The early group is cheaper for adults: OCTO prices each departure.
        departurePrices: { "09:00": { adult: 5500 } },
        // A guide leads at most eight tickets of one booking, whatever the option allows.
        departureMaxUnits: 8,
      },
      {
        id: "private",
        title: { en: "Private tour", fr: "Visite privée", de: "Private Führung" },
        startTimes: ["10:00", "15:00"],
        capacity: 6,
        soldOutTimes: [],
        durationMinutes: 120,
        openingHours: [{ from: "09:00", to: "18:00" }],
        minUnits: 1,
        maxUnits: 6,
        units: [adult(14500), child(9000)],
        questions: [
          {
            id: "guide-language",
            title: { en: "Language of your guide", fr: "Langue de votre guide", de: "Sprache Ihres Guides" },
            required: true,
            inputType: "select",
            selectOptions: [
              { value: "en-GB", label: { en: "English", fr: "Anglais", de: "Englisch" } },
              { value: "fr-FR", label: { en: "French", fr: "Français", de: "Französisch" } },
              { value: "de-DE", label: { en: "German", fr: "Allemand", de: "Deutsch" } },
            ],
          },
        ],
      },
    ],
  },
  {
    id: "seine-day-pass",
    internalName: "Seine hop-on hop-off day pass",
    availabilityType: "OPENING_HOURS",
    title: { en: "Seine hop-on hop-off boat: day pass", fr: "Bateau hop-on hop-off sur la Seine : pass journée", de: "Hop-on-Hop-off-Boot auf der Seine: Tagespass" },
    shortDescription: { en: "Nine stops from the Eiffel Tower to Notre-Dame, as often as you like for a day.", fr: "Neuf escales de la tour Eiffel à Notre-Dame, à volonté pendant une journée.", de: "Neun Haltestellen vom Eiffelturm bis Notre-Dame, einen Tag lang beliebig oft." },
    description: {
      en: "Board at any stop between 10:00 and 18:00. Boats leave every 20 minutes.",
      fr: "Embarquez à n'importe quelle escale entre 10 h et 18 h. Départ toutes les 20 minutes.",
      de: "Einsteigen an jeder Haltestelle zwischen 10 und 18 Uhr. Abfahrt alle 20 Minuten.",
    },
    cancellationCutoffHours: 0,
    deliveryFormats: ["QRCODE", "PDF_URL"],
    bookingPricing: "UNIT_ITEMS_ONLY",
    place: { latitude: 48.8584, longitude: 2.2945, street: "Port de la Bourdonnais", postalCode: "75007", city: "Paris" },
    image: "https://paris-discovery.example/img/seine.jpg",
    options: [
      {
        id: "day-pass",
        title: { en: "Day pass", fr: "Pass journée", de: "Tagespass" },
        startTimes: ["00:00"],
        capacity: 200,
        soldOutTimes: [],
        durationMinutes: 480,
        openingHours: [{ from: "10:00", to: "18:00" }],
        minUnits: 1,
        maxUnits: 20,
        units: [adult(2200), child(1100), { id: "family", type: "FAMILY", title: { en: "Family (2 adults, 2 children)", fr: "Famille (2 adultes, 2 enfants)", de: "Familie (2 Erwachsene, 2 Kinder)" }, minAge: 0, maxAge: 99, paxCount: 4, retail: 5500, questions: [{ id: "family-names", title: { en: "Names of the four travellers", fr: "Noms des quatre voyageurs", de: "Namen der vier Reisenden" }, required: true, inputType: "text" }] }],
      },
    ],
  },
  {
    id: "seine-private-cruise",
    internalName: "Private Seine cruise at sunset",
    availabilityType: "START_TIME",
    title: { en: "Private Seine cruise at sunset", fr: "Croisière privée sur la Seine au coucher du soleil", de: "Private Seine-Kreuzfahrt bei Sonnenuntergang" },
    shortDescription: { en: "A boat for your party alone, from the Eiffel Tower to Notre-Dame and back.", fr: "Un bateau pour votre groupe seul, de la tour Eiffel à Notre-Dame et retour.", de: "Ein Boot nur für Ihre Gruppe, vom Eiffelturm bis Notre-Dame und zurück." },
    description: {
      en: "Two hours on a private boat for two to eight people, one price for the boat whoever comes.",
      fr: "Deux heures sur un bateau privé pour deux à huit personnes, un seul prix pour le bateau.",
      de: "Zwei Stunden auf einem privaten Boot für zwei bis acht Personen, ein Preis für das Boot.",
    },
    cancellationCutoffHours: 48,
    deliveryFormats: ["QRCODE"],
    place: { latitude: 48.857, longitude: 2.29, street: "Port de Suffren", postalCode: "75007", city: "Paris" },
    image: "https://paris-discovery.example/img/cruise.jpg",
    pricingPer: "BOOKING",
    durationStyle: "AMOUNT_AND_UNIT",
    options: [
      {
        id: "boat",
        title: { en: "Private boat", fr: "Bateau privé", de: "Privates Boot" },
        startTimes: ["18:00", "20:30"],
        capacity: 8,
        soldOutTimes: [],
        durationMinutes: 120,
        openingHours: [{ from: "18:00", to: "22:30" }],
        minUnits: 2,
        maxUnits: 8,
        minPaxCount: 2,
        maxPaxCount: 8,
        bookingPrice: 39000,
        // Four children at most: the boat has four child life jackets.
        units: [adult(0), { ...child(0), maxQuantity: 4 }],
      },
    ],
  },
];


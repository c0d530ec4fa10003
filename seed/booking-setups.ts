import type { BookingSetupDocument } from "../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import type { City } from "./catalogue-data.js";
import type { randomSource } from "./catalogue.js";

type Random = ReturnType<typeof randomSource>;

const timeZoneOfCountry: Record<string, string> = {
  AE: "Asia/Dubai", AT: "Europe/Vienna", AU: "Australia/Sydney", CH: "Europe/Zurich", CZ: "Europe/Prague", DE: "Europe/Berlin",
  DK: "Europe/Copenhagen", ES: "Europe/Madrid", FR: "Europe/Paris", GB: "Europe/London", GR: "Europe/Athens", IE: "Europe/Dublin",
  IT: "Europe/Rome", JP: "Asia/Tokyo", MA: "Africa/Casablanca", MX: "America/Cancun", NL: "Europe/Amsterdam", PT: "Europe/Lisbon",
  TH: "Asia/Bangkok", US: "America/New_York", ZA: "Africa/Johannesburg",
};
const timeZoneOfCity: Record<string, string> = { "San Francisco": "America/Los_Angeles" };

const days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** Weekly periods over the next two years from `today`: closed one weekday, a few closed holidays, opening hours for attractions. */
function demoPeriods(today: string, random: Random, openingHours: boolean) {
  const year = Number(today.slice(0, 4));
  const closedDay = random.pick([...days, "none", "none"]);
  const hours = openingHours ? [{ start: "09:00", end: "18:00" }] : null;
  return {
    weeklyPeriods: [
      {
        description: "All year",
        startDate: today,
        endDate: `${year + 2}-12-31`,
        ...Object.fromEntries(days.map((d) => [d, { open: d !== closedDay, hours }])),
        closedDayList: [`${year}-12-25`, `${year + 1}-01-01`, `${year + 1}-12-25`, `${year + 2}-01-01`].filter((d) => d >= today),
      },
    ],
  };
}

/**
 * A varied booking setup for a demo product: walking-tour style start times with adults,
 * children and seniors; private tours priced per group; fixed-plus-variable day trips;
 * attractions open all day; options that reveal more options; follow-up questions.
 */
export function demoBookingSetup(
  template: { subcategory: string; pricingUnit: string; availabilityType: string; price: [number, number] },
  city: City,
  random: Random,
  price: number,
  today: string,
): { periods: Record<string, unknown>; setup: BookingSetupDocument } {
  const openingHours = template.availabilityType === "OPENING_HOURS";
  const periods = demoPeriods(today, random, openingHours);
  const group = template.pricingUnit === "GROUP" || template.pricingUnit === "PER_BOAT";
  const language = city.languages[0] ?? "en";
  const units = demoUnits(group, language, price);
  const options = demoOptions(template.subcategory, language, random);
  // The random choices stay in this order, so that one seed gives the same catalogue.
  return {
    periods,
    setup: {
      timeZone: timeZoneOfCity[city.name] ?? timeZoneOfCountry[city.country] ?? "UTC",
      ...(openingHours ? {} : { startTimes: random.chance(0.5) ? ["10:00"] : ["09:30", "14:00", "17:30"] }),
      capacityPerSlot: random.pick([8, 12, 20, 40]),
      minParticipants: 1,
      maxParticipants: group ? 10 : 15,
      currency: city.currency,
      fixedFee: template.subcategory === "day-trips" ? Math.round(price * 0.4) : 0,
      options,
      units,
      questions: demoQuestions(group),
      leadTravellerName: ["firstName", "lastName"],
      cancellationTiers: demoCancellationTiers(random),
      confirmationDelaySeconds: random.pick([1, 2, 3, 5]),
    },
  };
}

/** Groups of two sizes for private tours; otherwise adults, seniors and accompanied children. */
function demoUnits(group: boolean, language: string, price: number): BookingSetupDocument["units"] {
  if (group) {
    return [
      { key: "small-group", label: { en: "Group of up to 4" }, minAge: 0, unitPriceType: "GROUP", price, minQuantity: 1, maxQuantity: 4 },
      { key: "large-group", label: { en: "Group of 5 to 10" }, minAge: 0, unitPriceType: "GROUP", price: Math.round(price * 1.8), minQuantity: 5, maxQuantity: 10 },
    ];
  }
  return [
    { key: "adult", label: { en: "Adult", [language]: language === "de" ? "Erwachsene" : language === "fr" ? "Adulte" : "Adult" }, minAge: 18, maxAge: 64, unitPriceType: "PER_PERSON", price, maxQuantity: 15 },
    { key: "senior", label: { en: "Senior (65+)" }, minAge: 65, unitPriceType: "PER_PERSON", price: Math.round(price * 0.8 * 100) / 100, maxQuantity: 15 },
    {
      key: "child",
      label: { en: "Child (4-17)" },
      minAge: 4,
      maxAge: 17,
      unitPriceType: "PER_PERSON",
      price: Math.round(price * 0.5 * 100) / 100,
      maxQuantity: 10,
      accompaniedBy: ["adult", "senior"],
      maxPerCompanion: 3,
    },
  ];
}

/** Sometimes a tour language; for day trips (and now and then others) a hotel transfer that reveals the hotel's area. */
function demoOptions(subcategory: string, language: string, random: Random): BookingSetupDocument["options"] {
  const options: BookingSetupDocument["options"] = [];
  if (random.chance(0.5)) {
    options.push({ key: "language", label: { en: "Tour language" }, dataType: "OPTIONS", choices: [{ key: "en", label: "English" }, ...(language !== "en" ? [{ key: language, label: language.toUpperCase() }] : [])] });
  }
  if (subcategory === "day-trips" || random.chance(0.2)) {
    options.push({ key: "transfer", label: { en: "Hotel transfer" }, dataType: "BOOLEAN" });
    options.push({ key: "hotelArea", label: { en: "Hotel area" }, dataType: "OPTIONS", choices: [{ key: "centre", label: "City centre" }, { key: "outskirts", label: "Outskirts" }], shownWhen: { option: "transfer", equals: "true" } });
  }
  return options;
}

/** The customer's contact, a dietary question with follow-ups two levels deep, and each participant's name unless priced per group. */
function demoQuestions(group: boolean): BookingSetupDocument["questions"] {
  return {
    customer: [
      { key: "firstName", question: { en: "First name", de: "Vorname", fr: "Prénom" }, dataType: "TEXT" },
      { key: "lastName", question: { en: "Last name", de: "Nachname", fr: "Nom" }, dataType: "TEXT" },
      { key: "email", question: { en: "E-mail address" }, dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
      { key: "phone", question: { en: "Mobile phone (with country code)" }, dataType: "TEXT", dataFormat: "PHONE_NUMBER" },
    ],
    booking: [
      {
        key: "dietary",
        question: { en: "Any dietary requirements?" },
        dataType: "BOOLEAN",
        followUps: [
          {
            equals: "true",
            questions: [
              {
                key: "diet",
                question: { en: "Which one?" },
                dataType: "OPTIONS",
                choices: [{ key: "vegetarian", label: "Vegetarian" }, { key: "vegan", label: "Vegan" }, { key: "allergy", label: "Allergy" }],
                followUps: [{ equals: "allergy", questions: [{ key: "allergyDetails", question: { en: "Describe the allergy" }, dataType: "LONG_TEXT" }] }],
              },
            ],
          },
        ],
      },
    ],
    participant: group ? [] : [{ key: "participantName", question: { en: "Participant's full name" }, dataType: "TEXT" }],
  };
}

/** Most products refund in full up to a day before, some by half up to six hours before. */
function demoCancellationTiers(random: Random): BookingSetupDocument["cancellationTiers"] {
  if (!random.chance(0.85)) return [];
  return [
    { label: { en: "Full refund up to 24 hours before" }, duration: "PT24H", refundPercentage: 100 },
    ...(random.chance(0.5) ? [{ label: { en: "Half refund up to 6 hours before" }, duration: "PT6H", refundPercentage: 50 }] : []),
  ];
}

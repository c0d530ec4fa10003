import type { FastifyRequest } from "fastify";
import { answer, arr, bool, int, num, obj, str, type JsonSchema } from "../../json-schema.js";
import { RestError } from "../../error-body.js";
import { toGlobalId } from "../../../core/global-id.js";
import { isUuid } from "../../../core/uuid.js";
import { MAX_FOLLOW_UP_DEPTH } from "../../../subgraphs/booking/engines/inventory/booking-setup.js";

/** The graph's availability option, as every REST body that shows one selects it. */
export const AVAILABILITY_OPTION_FIELDS = "id label level dataType choices { key label } selectedValue selectedLabel";

/** The Availability of spec 2, and the GraphQL selection it is built from. */
export const AVAILABILITY_FIELDS = /* GraphQL */ `
  fragment RestAvailability on Availability {
    legacyResourceId date maxParticipants minParticipants isOptionStepCompleted isPricingStepCompleted expiresAt participantCount
    options { ${AVAILABILITY_OPTION_FIELDS} }
    units {
      id label description quantity minAge maxAge priceType
      restrictions { minQuantity maxQuantity accompaniedBy }
      price { amount currencyCode }
    }
    totalPrice { amount currencyCode }
    exchangeRates { date source }
    pricingIssues { unitId rule message }
  }
`;

/** The graph's Money as the contract writes it: `{ retail, currency }`, the amount a number. */
export interface GraphMoney {
  amount: string;
  currencyCode: string;
}
export const restMoney = (money: GraphMoney) => ({ retail: Number(money.amount), currency: money.currencyCode });

export interface GraphAvailabilityOption {
  id: string;
  label: string;
  level: number;
  dataType: string;
  choices: { key: string; label: string }[] | null;
  selectedValue: string | null;
  selectedLabel: string | null;
}

/** Choice key → label, as the contract's `optionChoices` and `questionChoices` are. */
export function choiceMap(choices: { key: string; label: string }[]): Record<string, string> {
  const map: Record<string, string> = {};
  // Keys are a partner's: "__proto__" must stay a key, not set the object's prototype.
  for (const { key, label } of choices) Object.defineProperty(map, key, { value: label, enumerable: true, writable: true, configurable: true });
  return map;
}

export const restAvailabilityOption = (option: GraphAvailabilityOption) => ({
  id: option.id,
  label: option.label,
  level: String(option.level),
  dataType: option.dataType,
  optionChoices: option.choices ? choiceMap(option.choices) : null,
  selectedOptionId: option.selectedValue,
  selectedOptionValue: option.selectedLabel,
});

export interface GraphAvailability {
  legacyResourceId: string;
  date: string;
  options: GraphAvailabilityOption[];
  units:
    | {
        id: string;
        label: string;
        description: string | null;
        quantity: number;
        minAge: number;
        maxAge: number | null;
        priceType: string;
        restrictions: { minQuantity: number; maxQuantity: number; accompaniedBy: string[] };
        price: GraphMoney;
      }[]
    | null;
  maxParticipants: number;
  minParticipants: number;
  isOptionStepCompleted: boolean;
  isPricingStepCompleted: boolean;
  totalPrice: GraphMoney | null;
  exchangeRates: { date: string; source: string } | null;
  participantCount: number | null;
  pricingIssues: { unitId: string | null; rule: string; message: string }[] | null;
  expiresAt: string;
}

/** Spec 2's Availability from the graph's, without its unset members. */
export function restAvailability(availability: GraphAvailability) {
  return withoutNulls({
    id: availability.legacyResourceId,
    availabilityDate: availability.date,
    availabilityOptions: availability.options.map(restAvailabilityOption),
    unitOptions: availability.units?.map((unit) => ({
      id: unit.id,
      label: unit.label,
      description: unit.description,
      restrictions: { minQuantity: unit.restrictions.minQuantity, maxQuantity: unit.restrictions.maxQuantity, accompagniedBy: unit.restrictions.accompaniedBy },
      price: restMoney(unit.price),
      unitQuantity: unit.quantity,
      minAge: unit.minAge,
      maxAge: unit.maxAge,
      unitPriceType: unit.priceType,
    })),
    maxParticipants: availability.maxParticipants,
    minParticipants: availability.minParticipants,
    isOptionStepCompleted: availability.isOptionStepCompleted,
    isPricingStepCompleted: availability.isPricingStepCompleted,
    totalPrice: availability.totalPrice && restMoney(availability.totalPrice),
    exchangeRates: availability.exchangeRates,
    participants: availability.participantCount,
    pricingIssues: availability.pricingIssues,
    expiresAt: availability.expiresAt,
  });
}

/** Spec 2's Booking from the graph's: its availability and price as the contract writes them. */
export function restBooking(booking: Record<string, unknown> & { availability: GraphAvailability; totalPrice: GraphMoney }) {
  return withoutNulls({ ...booking, availability: restAvailability(booking.availability), totalPrice: restMoney(booking.totalPrice) });
}

const QUESTION_LEAF = "id question value dataType dataFormat questionChoices parentId level requirementType conditions { op value }";
const questionSelection = (depth: number): string =>
  depth === 0 ? QUESTION_LEAF : `${QUESTION_LEAF} followUpQuestions { ${questionSelection(depth - 1)} }`;

export const BOOKING_FIELDS = /* GraphQL */ `
  fragment RestBooking on Booking {
    id availabilityDateTime resellerRef status paymentStatus voucherUrl creationDate updateDate isQuestionStepComplete
    holdExpiresAt answersRedactedAt rejectionReason
    availability { ...RestAvailability }
    questions {
      customer { ${questionSelection(MAX_FOLLOW_UP_DEPTH)} }
      booking { ${questionSelection(MAX_FOLLOW_UP_DEPTH)} }
      participants { id questions { ${questionSelection(MAX_FOLLOW_UP_DEPTH)} } }
    }
    cancellation { isCancellable cancellationPolicy { label duration refundPercentage } }
    bookingEngineDetails { bookingExternalId bookingEngineName productExternalId bookingCode }
    travelerDetails { externalClientId }
    totalPrice { amount currencyCode }
    exchangeRates { date source }
  }
  ${AVAILABILITY_FIELDS}
`;

type Json = Record<string, unknown>;

/** Drops null members at every depth: the contract's optional fields are absent when unset. */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    // A plain loop: every booking step's answer passes through here, and the entries-filter-map
    // chain allocated three arrays an object.
    const kept: Json = {};
    for (const key of Object.keys(value)) {
      const v = (value as Json)[key];
      if (v === null || v === undefined) continue;
      // Keys can be a partner's (option choices): "__proto__" must stay a key, as fromEntries kept it.
      if (key === "__proto__") Object.defineProperty(kept, key, { value: withoutNulls(v), enumerable: true, writable: true, configurable: true });
      else kept[key] = withoutNulls(v);
    }
    return kept as T;
  }
  return value;
}

const money = answer({ retail: num("Amount"), currency: str("ISO 4217") }, ["retail", "currency"]);
const exchangeRates = answer({ date: str("YYYY-MM-DD the rates were fixed"), source: str("Where they came from") }, ["date", "source"]);
const dateTime = (description: string): JsonSchema => ({ type: "string", format: "date-time", description });

export const availabilityOptionSchema: JsonSchema = answer(
  {
    id: str("Option id (UUID)"),
    label: str("Label"),
    level: str("'0' is the first level"),
    dataType: str("OPTIONS, TEXT or BOOLEAN"),
    optionChoices: { type: "object", additionalProperties: { type: "string" }, description: "Choice key → label (OPTIONS)" },
    selectedOptionId: str("Chosen choice key, text or boolean; absent until set"),
    selectedOptionValue: str("Label of the chosen choice, or the value"),
  },
  ["id", "label", "level", "dataType"],
);

const availability: JsonSchema = answer(
  {
    id: str("Availability id (UUID)"),
    availabilityDate: str("YYYY-MM-DD"),
    availabilityOptions: arr(availabilityOptionSchema, "Options set so far and the next one to set; empty when the product has none"),
    unitOptions: arr(
      answer(
        {
          id: str("Unit id"),
          label: str("For example an age class"),
          description: str("Optional"),
          restrictions: answer(
            {
              minQuantity: int("Minimum"),
              maxQuantity: int("Maximum"),
              accompagniedBy: arr(str("Unit id"), "Ids of the units whose participants must accompany this one (spelled as in the contract)"),
            },
            ["minQuantity", "maxQuantity", "accompagniedBy"],
          ),
          price: money,
          unitQuantity: int("Chosen quantity"),
          minAge: int("Minimum age"),
          maxAge: int("Maximum age (optional)"),
          unitPriceType: str("PER_PERSON or GROUP"),
        },
        ["id", "label", "restrictions", "price", "unitQuantity", "minAge", "unitPriceType"],
      ),
      "Ticket types, from the prices step",
    ),
    maxParticipants: int("Most participants"),
    minParticipants: int("Fewest participants"),
    isOptionStepCompleted: bool("All options set"),
    isPricingStepCompleted: bool("Quantities bookable"),
    totalPrice: { ...money, description: "Extension: the exact total of the chosen quantities" },
    exchangeRates: { ...exchangeRates, description: "Extension: the exchange rates the prices are converted at (from the prices step)" },
    participants: int("Extension: participants chosen"),
    pricingIssues: arr(answer({ unitId: str("Unit"), rule: str("Rule"), message: str("Why") }, ["rule", "message"]), "Extension: why the quantities are not bookable yet"),
    expiresAt: dateTime("Extension: after this the availability is refused"),
  },
  ["id", "availabilityDate", "availabilityOptions", "maxParticipants", "minParticipants", "isOptionStepCompleted", "isPricingStepCompleted", "expiresAt"],
  "The availability (spec 2); unset fields absent",
);

export const cancellationPolicySchema = arr(
  answer({ label: str("Tier"), duration: str("ISO 8601 duration before the start"), refundPercentage: num("Refund, percent") }, ["label", "refundPercentage"]),
  "Tiers",
);

const cancellationSchema: JsonSchema = answer({ isCancellable: bool("Cancellable now"), cancellationPolicy: cancellationPolicySchema }, ["isCancellable", "cancellationPolicy"]);

/** A question and its follow-ups, which are questions too (answers nest them up to MAX_FOLLOW_UP_DEPTH levels). */
const question: JsonSchema = answer(
    {
      id: str("Question id (UUID)"),
      question: str("The question, in the flow's language"),
      value: str("The answer, once given"),
      dataType: str("TEXT, LONG_TEXT, INT, DOUBLE, BOOLEAN, DATE, TIME, DATE_AND_TIME, CHECKBOX_TOGGLE, ACCEPT or OPTIONS"),
      dataFormat: str("PHONE_NUMBER, EMAIL_ADDRESS or ADDRESS (TEXT)"),
      questionChoices: { type: "object", additionalProperties: { type: "string" }, description: "Choice key → label (OPTIONS)" },
      parentId: str("The question this one follows up"),
      level: str("'0' for a question, one more per follow-up level"),
      requirementType: str("CONDITIONAL for a follow-up"),
      conditions: arr(answer({ op: str("equals"), value: str("The parent's answer that activates it") }, ["op", "value"]), "When a follow-up applies"),
      followUpQuestions: arr({ $ref: "Question#" }, `Follow-ups activated by the answer; parse them recursively (at most ${MAX_FOLLOW_UP_DEPTH} levels)`),
    },
    ["id", "question", "dataType", "level"],
    "A question to answer",
  );
const questions = arr({ $ref: "Question#" }, "Questions");

const booking: JsonSchema = answer(
  {
    id: str("Booking id (UUID)"),
    availabilityDateTime: str("Start: local date-time with offset and zone id"),
    resellerRef: str("Client-side booking identifier"),
    status: str("ON_HOLD, PENDING_CONFIRM, CONFIRMED, REJECTED, CANCELLED, EXPIRED"),
    paymentStatus: str("ON_HOLD, PAID, REFUND"),
    voucherUrl: str("After confirmation: signed link to the PDF voucher, valid 24 hours from this read; for a booking in an OCTO supplier's system that serves its own PDF ticket, that ticket's address"),
    creationDate: dateTime("Created"),
    updateDate: dateTime("Last changed"),
    isQuestionStepComplete: bool("All questions answered"),
    holdExpiresAt: dateTime("Extension: an ON_HOLD booking not confirmed by then expires"),
    answersRedactedAt: dateTime("Extension: answers erased for privacy; give them again before confirming"),
    rejectionReason: str("Extension: why the supplier refused"),
    availability: { $ref: "Availability#" },
    questions: answer(
      { customer: questions, booking: questions, participants: arr(answer({ id: str("Participant id"), questions }, ["id", "questions"]), "One entry per participant") },
      ["customer", "booking", "participants"],
      "Questions to answer: customer (billing and contact), booking (not tied to a participant), participants",
    ),
    cancellation: cancellationSchema,
    bookingEngineDetails: answer(
      {
        bookingExternalId: str("The booking's id in the engine"),
        bookingEngineName: str("Booking engine name"),
        productExternalId: str("The product's id in the engine"),
        bookingCode: str("For customer care with the supplier"),
      },
      ["bookingExternalId", "bookingEngineName", "productExternalId", "bookingCode"],
      "After confirmation",
    ),
    travelerDetails: answer({ externalClientId: str("As sent with the booking") }),
    totalPrice: { ...money, description: "Extension: the booking's price" },
    exchangeRates: { ...exchangeRates, description: "Extension: the exchange rates its prices were converted at when it was made" },
  },
  ["id", "availabilityDateTime", "resellerRef", "status", "paymentStatus", "creationDate", "updateDate", "isQuestionStepComplete", "availability", "questions", "cancellation", "travelerDetails", "totalPrice"],
  "The booking (spec 2); unset fields absent",
);

/**
 * The booking flow's answers, as components of the document (generated clients name their types
 * after them) and as the shared schemas the routes' serializers resolve.
 */
export const bookingFlowSchemas = [
  { $id: "Question", ...question },
  { $id: "Availability", ...availability },
  { $id: "Booking", ...booking },
];
export const availabilitySchema = (description: string) => ({ description, $ref: "Availability#" });
export const bookingSchema = (description: string) => ({ description, $ref: "Booking#" });

export const cancellationInformationSchema: JsonSchema = answer(
  {
    cancellationInformation: answer(
      {
        cancellation: cancellationSchema,
        cancellationReason: str("Reason"),
        cancellationRequestDateTime: dateTime("When the cancellation was asked for"),
        refundPercentage: num("Extension: refund of the tier applied"),
      },
      ["cancellation", "cancellationReason", "cancellationRequestDateTime", "refundPercentage"],
    ),
  },
  ["cancellationInformation"],
  "The booking is cancelled",
);

export const productAvailabilityParams = (second: "date" | "availabilityId"): JsonSchema =>
  obj(
    {
      productId: { type: "integer", minimum: 1, maximum: 2_147_483_647, description: "Product id" },
      [second]: str(second === "date" ? "YYYY-MM-DD" : "Availability id (UUID)"),
    },
    { required: ["productId", second] },
  );

export const bookingIdParams = obj({ bookingId: str("Booking id (UUID)") }, { required: ["bookingId"] });

export const currencyQuery = obj({
  currencyCode: str("AED, AUD, BRL, CAD, CHF, DKK, EGP, EUR, FJD, GBP, INR, MXN, NAD, NOK, NPR, NZD, PEN, QAR, SAR, SEK, SGD, THB, USD or ZAR; default EUR; holds to the end of the flow"),
});

export const externalClientIdHeader: JsonSchema = {
  type: "object",
  properties: { externalClientId: { type: "string", description: "Alphanumeric, at most 255: ties the booking to a traveller" } },
};

/** Header names are case-insensitive; Node gives them in lower case. */
export function externalClientId(request: FastifyRequest): string | null {
  const value = request.headers.externalclientid;
  if (Array.isArray(value)) throw new RestError(400, "VALIDATION_FAILED", "externalClientId header given more than once");
  return value ?? null;
}

export const params = <T>(request: FastifyRequest) => request.params as T;

/**
 * The availability a path names, as a step's input takes it: its global id, and the path's product,
 * which it must be of (404 otherwise). An id that is no UUID is refused here, naming the parameter.
 */
export function availabilityIdOf(request: FastifyRequest): { availabilityId: string; productId: number } {
  const { productId, availabilityId } = params<{ productId: number; availabilityId: string }>(request);
  if (!isUuid(availabilityId)) throw new RestError(400, "VALIDATION_FAILED", "availabilityId must be a UUID", [{ field: "availabilityId", rule: "uuid", message: "availabilityId must be a UUID" }]);
  return { availabilityId: toGlobalId("Availability", availabilityId), productId };
}
export const query = <T>(request: FastifyRequest) => request.query as T;

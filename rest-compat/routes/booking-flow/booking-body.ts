import type { FastifyRequest } from "fastify";
import type { GraphQLError } from "graphql";
import { isCurrencyCode } from "../../../core/iso-codes.js";
import { currencyRefusal } from "../../../subgraphs/booking/availability/availability.steps.js";
import { userErrorsOf } from "../../../subgraphs/common/user.errors.js";
import { refusedBeforeTyping } from "../../refused-before-typing.js";
import { refusedUnlessEmpty } from "../../user-errors.js";
import { answer, arr, bool, int, num, obj, str, type JsonSchema } from "../../json-schema.js";
import { restRejected } from "../../error-body.js";
import { contractAvailability, contractAvailabilityOption, contractBooking, withoutNulls, type AvailabilityData, type BookingData } from "../../../subgraphs/booking/contract.bodies.js";
import { toGlobalId } from "../../../core/global-id.js";
import { productIdOf, uuidParameter } from "../../path-ids.js";
import { MAX_FOLLOW_UP_DEPTH } from "../../../subgraphs/booking/engines/inventory/booking-setup.schema.js";

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

export { choiceMap, withoutNulls } from "../../../subgraphs/booking/contract.bodies.js";
export type { AvailabilityData as GraphAvailability, AvailabilityOptionData as GraphAvailabilityOption, BookingData as GraphBooking } from "../../../subgraphs/booking/contract.bodies.js";

/** Spec 2's availability option from the graph's. */
export const restAvailabilityOption = contractAvailabilityOption;

/** Spec 2's Availability from the graph's, without its unset members. */
export const restAvailability = (availability: AvailabilityData) => withoutNulls(contractAvailability(availability));

/** Spec 2's Booking from the graph's, without its unset members. */
export const restBooking = (booking: BookingData) => withoutNulls(contractBooking(booking));

const QUESTION_LEAF = "id text value dataType dataFormat choices { key label } parentId level requirementType conditions { operator value }";
const questionSelection = (depth: number): string =>
  depth === 0 ? QUESTION_LEAF : `${QUESTION_LEAF} followUpQuestions { ${questionSelection(depth - 1)} }`;

/** A booking's cancellation terms, as every REST body that shows them selects them. */
export const CANCELLATION_FIELDS = "isCancellable policy { label duration refundRate }";

export const BOOKING_FIELDS = /* GraphQL */ `
  fragment RestBooking on Booking {
    legacyResourceId availabilityDateTime resellerRef status paymentStatus voucherUrl createdAt updatedAt isQuestionStepComplete
    holdExpiresAt answersRedactedAt rejectionReason
    availability { ...RestAvailability }
    questions {
      customer { ${questionSelection(MAX_FOLLOW_UP_DEPTH)} }
      booking { ${questionSelection(MAX_FOLLOW_UP_DEPTH)} }
      participants { id questions { ${questionSelection(MAX_FOLLOW_UP_DEPTH)} } }
    }
    cancellation { ${CANCELLATION_FIELDS} }
    supplierBooking { externalId engineName productExternalId bookingCode }
    travelerDetails { externalClientId }
    totalPrice { amount currencyCode }
    exchangeRates { date source }
  }
  ${AVAILABILITY_FIELDS}
`;



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
  if (Array.isArray(value)) throw restRejected("VALIDATION_FAILED", "externalClientId header given more than once");
  return value ?? null;
}

export const params = <T>(request: FastifyRequest) => request.params as T;

/** The product a path names, as the graph takes it: its global id (the path's schema checked the number). */

/** The booking a path names, as the graph takes it: its global id. An id that is no UUID is refused here, naming the parameter. */
export function bookingIdOf(request: FastifyRequest): string {
  return toGlobalId("Booking", uuidParameter(request, "bookingId"));
}

/**
 * The availability a path names, as a step's input takes it: its global id, and the path's product,
 * which it must be of (404 otherwise). An id that is no UUID is refused here, naming the parameter.
 */
export function availabilityIdOf(request: FastifyRequest): { availabilityId: string; productId: string } {
  return { availabilityId: toGlobalId("Availability", uuidParameter(request, "availabilityId")), productId: productIdOf(request) };
}

export const query = <T>(request: FastifyRequest) => request.query as T;

/**
 * The operation that runs the booking flow's access check alone (the booking scope; a booking id
 * that names none answers null, reading nothing): what a step checks before the request's own values.
 */
export const BOOKING_ACCESS = {
  operation: /* GraphQL */ `query RestBookingAccess($probe: ID!) { booking(id: $probe) { id } }`,
  variables: () => ({ probe: toGlobalId("Booking", "none") }),
};

/** A step's refusal, as its payload's userErrors would have carried it, as the REST error. */
export const answeredAsUserError = (refusal: GraphQLError, parameters: Record<string, string> = { input: "" }): never => {
  refusedUnlessEmpty({ userErrors: userErrorsOf(refusal) ?? [] }, parameters);
  throw refusal;
};

/** The query's currency, as steps 3a and 3b take it (null: the flow's default). */
export const currencyOf = (request: FastifyRequest) => query<{ currencyCode?: string | null }>(request).currencyCode ?? null;

/**
 * A currency that is no ISO 4217 code cannot be typed: after the access check, the step's own
 * refusal (UNSUPPORTED_CURRENCY), as for a code it does not accept.
 */
export const malformedCurrency = refusedBeforeTyping(
  (request) => {
    const code = currencyOf(request);
    return code === null || isCurrencyCode(code) ? null : currencyRefusal(code);
  },
  BOOKING_ACCESS,
  (refusal) => answeredAsUserError(refusal),
);

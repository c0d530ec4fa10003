/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The answers known so far */
export type AnswerBookingQuestionsInput = {
  /** Every answer known so far: questions left out keep no answer */
  answers: Array<AnswerInput>;
  /** The booking's global id */
  bookingId: string | number;
};

/** One answer */
export type AnswerInput = {
  /** The question's id */
  questionId: string | number;
  /** The answer; null clears it */
  value?: string | null | undefined;
};

/** Where a booking is in its life */
export type BookingStatus =
  /** Cancelled by the client. Final */
  | 'CANCELLED'
  /** The supplier confirmed: the voucher is ready. Final */
  | 'CONFIRMED'
  /** Not confirmed before its hold ran out. Final */
  | 'EXPIRED'
  /** Made and holding its places until holdExpiresAt; not paid */
  | 'ON_HOLD'
  /** Paid (confirmBooking); the supplier is being asked to confirm */
  | 'PENDING_CONFIRM'
  /** The supplier refused (rejectionReason says why). Final */
  | 'REJECTED';

/** The booking paid for */
export type ConfirmBookingInput = {
  /** The booking's global id */
  bookingId: string | number;
  /** Letters and digits, at most 255: ties the booking to a traveller */
  externalClientId?: string | null | undefined;
};

/** The product and date to book */
export type CreateAvailabilityInput = {
  /** The day, in the product's time zone */
  date: string;
  /** The product's global id */
  productId: string | number;
};

/** The availability to book, and the client's references */
export type CreateBookingInput = {
  /** The availability's global id */
  availabilityId: string | number;
  /** When given, must be the flow's currency (CURRENCY_CHANGE otherwise) */
  currencyCode?: string | null | undefined;
  /** Letters and digits, at most 255: ties the booking to a traveller */
  externalClientId?: string | null | undefined;
  /** Letters and digits, at most 255: the client's booking reference. The same reference and availability give the same booking */
  resellerRef: string;
};

/** What kind of value an option or a question takes */
export type OptionDataType =
  /** true or false */
  | 'BOOLEAN'
  /** One of its choices, by key */
  | 'OPTIONS'
  /** Free text */
  | 'TEXT';

/** What the client owes or is owed for a booking */
export type PaymentStatus =
  /** Nothing paid yet */
  | 'ON_HOLD'
  /** Paid at confirmation */
  | 'PAID'
  /** Cancelled after payment under a tier that refunds part or all of it */
  | 'REFUND';

/** The currency the availability is priced in */
export type PriceAvailabilityInput = {
  /** The availability's global id */
  availabilityId: string | number;
  /** One of the accepted currencies (UNSUPPORTED_CURRENCY otherwise); EUR when not given. It holds to the end of the flow */
  currencyCode?: string | null | undefined;
  /** The product's global id: when given, the availability must be of this product (NOT_FOUND otherwise) */
  productId?: string | number | null | undefined;
};

/** How a text answer is checked */
export type QuestionDataFormat =
  /** A postal address */
  | 'ADDRESS'
  /** An e-mail address */
  | 'EMAIL_ADDRESS'
  /** A phone number in international form (E.164) */
  | 'PHONE_NUMBER';

/** What kind of answer a question takes (spec 2, dataType) */
export type QuestionDataType =
  /** Terms to accept: true */
  | 'ACCEPT'
  /** true or false */
  | 'BOOLEAN'
  /** A box ticked or not: true or false */
  | 'CHECKBOX_TOGGLE'
  /** A date, YYYY-MM-DD */
  | 'DATE'
  /** A local date and time, YYYY-MM-DDTHH:mm */
  | 'DATE_AND_TIME'
  /** A decimal number */
  | 'DOUBLE'
  /** A whole number */
  | 'INT'
  /** Text of several lines */
  | 'LONG_TEXT'
  /** One of its choices, by key */
  | 'OPTIONS'
  /** One line of text */
  | 'TEXT'
  /** A time of day, HH:mm */
  | 'TIME';

/** One option's value */
export type SetAvailabilityOptionInput = {
  /** The availability's global id */
  availabilityId: string | number;
  /** An option the availability has offered (the next one, or one already set) */
  optionId: string | number;
  /** The product's global id: when given, the availability must be of this product (NOT_FOUND otherwise): REST's paths name both */
  productId?: string | number | null | undefined;
  /** A choice's key (OPTIONS), the text (TEXT) or true/false (BOOLEAN) */
  value: string;
};

/** New quantities of some of the availability's units */
export type SetAvailabilityQuantitiesInput = {
  /** The availability's global id */
  availabilityId: string | number;
  /** When given, must be the flow's currency (CURRENCY_CHANGE otherwise) */
  currencyCode?: string | null | undefined;
  /** The product's global id: when given, the availability must be of this product (NOT_FOUND otherwise) */
  productId?: string | number | null | undefined;
  /** The units whose quantity changes; the others keep theirs */
  quantities: Array<UnitQuantityInput>;
};

/** The quantity of one unit */
export type UnitQuantityInput = {
  /** Its new quantity (absolute, not a change) */
  quantity: number;
  /** The unit's id */
  unitId: string | number;
};

/** Why a mutation refused its input: each value is one refusal of the service's table, the same code REST answers with */
export type UserErrorCode =
  /** The availability is past its time to live: start again with a new one */
  | 'AVAILABILITY_EXPIRED'
  /** Every option and bookable quantities must be set before booking */
  | 'AVAILABILITY_INCOMPLETE'
  /** The availability was already booked */
  | 'AVAILABILITY_USED'
  /** The booking is cancelled already */
  | 'BOOKING_ALREADY_CANCELLED'
  /** The booking is confirmed already */
  | 'BOOKING_ALREADY_CONFIRMED'
  /** A supplier's booking engine cannot change: create the supplier under the other engine */
  | 'BOOKING_ENGINE_CHANGE'
  /** The hold ran out before confirmation: the booking expired */
  | 'BOOKING_EXPIRED'
  /** No cancellation tier allows cancelling now */
  | 'BOOKING_NOT_CANCELLABLE'
  /** The booking's status no longer allows this change */
  | 'BOOKING_NOT_EDITABLE'
  /** The supplier rejected the booking */
  | 'BOOKING_REJECTED'
  /** The flow runs in another currency: start a new availability for this one */
  | 'CURRENCY_CHANGE'
  /** The date has no places */
  | 'DATE_NOT_AVAILABLE'
  /** The booking engine has a supplier with this externalId already */
  | 'DUPLICATE_EXTERNAL_ID'
  /** The supplier system does not offer a capability the service needs (octo/pricing) */
  | 'ENGINE_CAPABILITY_MISSING'
  /** A booking engine of another kind has this name */
  | 'ENGINE_KIND_CONFLICT'
  /** The booking engine is not an OCTO engine: only those are imported */
  | 'ENGINE_NOT_OCTO'
  /** A secret cannot be kept: the service runs in production without ENGINE_SECRETS_KEY. Nothing was saved */
  | 'ENGINE_SECRETS_KEY_MISSING'
  /** The supplier system did not answer as OCTO, or refused the key given: nothing was saved */
  | 'ENGINE_VERIFICATION_FAILED'
  /** An import of this engine is running: try again when it has finished */
  | 'IMPORT_RUNNING'
  /** An answer does not fit its question */
  | 'INVALID_ANSWERS'
  /** The availability id names no availability the caller may use */
  | 'INVALID_AVAILABILITY'
  /** The option or its value is not one the availability offers */
  | 'INVALID_OPTION'
  /** The ticket quantities break the product's rules (units, minimum, maximum) */
  | 'INVALID_QUANTITIES'
  /** The booking setup breaks a rule (docs/booking-setup.md) */
  | 'INVALID_SETUP'
  /** The flow runs in another language than the request asks for */
  | 'LANGUAGE_CHANGE'
  /** A PLATFORM_CATALOG_MANAGEMENT caller names the booking engine it acts for */
  | 'MISSING_BOOKING_ENGINE'
  /** What the input names does not exist, or the caller may not see it: the two are not told apart */
  | 'NOT_FOUND'
  /** Options remain to be set before prices */
  | 'OPTIONS_INCOMPLETE'
  /** Prices changed since the selection: the availability holds the new prices; submit again once they are accepted */
  | 'PRICES_CHANGED'
  /** Prices must be asked for first: they fix the flow's currency */
  | 'PRICING_INCOMPLETE'
  /** Another product holds this externalId */
  | 'PRODUCT_EXTERNAL_ID_EXISTS'
  /** The product cannot be booked: deprecated, or without a booking setup or engine */
  | 'PRODUCT_NOT_BOOKABLE'
  /** Required questions are unanswered: confirmation waits for them */
  | 'QUESTIONS_INCOMPLETE'
  /** The product's booking engine takes no booking setup from the service */
  | 'SETUP_NOT_FOR_ENGINE'
  /** The booking engine named does not exist */
  | 'UNKNOWN_BOOKING_ENGINE'
  /** The currency is not one the service converts prices to */
  | 'UNSUPPORTED_CURRENCY'
  /** A value of the input breaks a rule: `field` names it and `rule` says which */
  | 'VALIDATION_FAILED'
  /** The caller manages another booking engine only */
  | 'WRONG_BOOKING_ENGINE';

export type AvailabilityFieldsFragment = { id: string, isOptionStepCompleted: boolean, isPricingStepCompleted: boolean, options: Array<{ id: string, dataType: OptionDataType, selectedValue: string | null, choices: Array<{ key: string }> | null }>, units: Array<{ id: string, minAge: number, restrictions: { minQuantity: number } }> | null, pricingIssues: Array<{ rule: string, message: string }> | null, totalPrice: { amount: string, currencyCode: string } | null };

export type QuestionFieldsFragment = { id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null };

export type BookingFieldsFragment = { id: string, status: BookingStatus, isQuestionStepComplete: boolean, totalPrice: { amount: string, currencyCode: string }, supplierBooking: { bookingCode: string } | null, questions: { customer: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, booking: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, participants: Array<{ questions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }> }> } };

export type NextDatesQueryVariables = Exact<{
  productId: string | number;
}>;


export type NextDatesQuery = { nextAvailableDates: Array<string> };

export type CreateAvailabilityMutationVariables = Exact<{
  input: CreateAvailabilityInput;
}>;


export type CreateAvailabilityMutation = { createAvailability: { availability: { id: string, isOptionStepCompleted: boolean, isPricingStepCompleted: boolean, options: Array<{ id: string, dataType: OptionDataType, selectedValue: string | null, choices: Array<{ key: string }> | null }>, units: Array<{ id: string, minAge: number, restrictions: { minQuantity: number } }> | null, pricingIssues: Array<{ rule: string, message: string }> | null, totalPrice: { amount: string, currencyCode: string } | null } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type SetOptionMutationVariables = Exact<{
  input: SetAvailabilityOptionInput;
}>;


export type SetOptionMutation = { setAvailabilityOption: { availability: { id: string, isOptionStepCompleted: boolean, isPricingStepCompleted: boolean, options: Array<{ id: string, dataType: OptionDataType, selectedValue: string | null, choices: Array<{ key: string }> | null }>, units: Array<{ id: string, minAge: number, restrictions: { minQuantity: number } }> | null, pricingIssues: Array<{ rule: string, message: string }> | null, totalPrice: { amount: string, currencyCode: string } | null } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type PriceMutationVariables = Exact<{
  input: PriceAvailabilityInput;
}>;


export type PriceMutation = { priceAvailability: { availability: { id: string, isOptionStepCompleted: boolean, isPricingStepCompleted: boolean, options: Array<{ id: string, dataType: OptionDataType, selectedValue: string | null, choices: Array<{ key: string }> | null }>, units: Array<{ id: string, minAge: number, restrictions: { minQuantity: number } }> | null, pricingIssues: Array<{ rule: string, message: string }> | null, totalPrice: { amount: string, currencyCode: string } | null } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type SetQuantitiesMutationVariables = Exact<{
  input: SetAvailabilityQuantitiesInput;
}>;


export type SetQuantitiesMutation = { setAvailabilityQuantities: { availability: { id: string, isOptionStepCompleted: boolean, isPricingStepCompleted: boolean, options: Array<{ id: string, dataType: OptionDataType, selectedValue: string | null, choices: Array<{ key: string }> | null }>, units: Array<{ id: string, minAge: number, restrictions: { minQuantity: number } }> | null, pricingIssues: Array<{ rule: string, message: string }> | null, totalPrice: { amount: string, currencyCode: string } | null } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type CreateBookingMutationVariables = Exact<{
  input: CreateBookingInput;
}>;


export type CreateBookingMutation = { createBooking: { booking: { id: string, status: BookingStatus, isQuestionStepComplete: boolean, totalPrice: { amount: string, currencyCode: string }, supplierBooking: { bookingCode: string } | null, questions: { customer: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, booking: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, participants: Array<{ questions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }> }> } } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type AnswerQuestionsMutationVariables = Exact<{
  input: AnswerBookingQuestionsInput;
}>;


export type AnswerQuestionsMutation = { answerBookingQuestions: { booking: { id: string, status: BookingStatus, isQuestionStepComplete: boolean, totalPrice: { amount: string, currencyCode: string }, supplierBooking: { bookingCode: string } | null, questions: { customer: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, booking: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }>, participants: Array<{ questions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, followUpQuestions: Array<{ id: string, dataType: QuestionDataType, dataFormat: QuestionDataFormat | null, value: string | null, choices: Array<{ key: string }> | null }>, choices: Array<{ key: string }> | null }> }> } } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type ConfirmBookingMutationVariables = Exact<{
  input: ConfirmBookingInput;
}>;


export type ConfirmBookingMutation = { confirmBooking: { booking: { id: string, status: BookingStatus } | null, userErrors: Array<{ code: UserErrorCode, message: string, field: Array<string> | null }> } };

export type WatchBookingSubscriptionVariables = Exact<{
  bookingId: string | number;
}>;


export type WatchBookingSubscription = { bookingStatusChanged: { id: string, status: BookingStatus, paymentStatus: PaymentStatus, supplierBooking: { bookingCode: string } | null } };

export const AvailabilityFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AvailabilityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Availability"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"isOptionStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"isPricingStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"selectedValue"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"units"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minAge"}},{"kind":"Field","name":{"kind":"Name","value":"restrictions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minQuantity"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricingIssues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}}]}}]} as unknown as DocumentNode<AvailabilityFieldsFragment, unknown>;
export const QuestionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"QuestionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Question"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"dataFormat"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]} as unknown as DocumentNode<QuestionFieldsFragment, unknown>;
export const BookingFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BookingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Booking"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"isQuestionStepComplete"}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"supplierBooking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"bookingCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"booking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"participants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"QuestionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Question"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"dataFormat"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]} as unknown as DocumentNode<BookingFieldsFragment, unknown>;
export const NextDatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NextDates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"productId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nextAvailableDates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"productId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"productId"}}}]}]}}]} as unknown as DocumentNode<NextDatesQuery, NextDatesQueryVariables>;
export const CreateAvailabilityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateAvailability"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAvailabilityInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createAvailability"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"availability"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AvailabilityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AvailabilityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Availability"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"isOptionStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"isPricingStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"selectedValue"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"units"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minAge"}},{"kind":"Field","name":{"kind":"Name","value":"restrictions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minQuantity"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricingIssues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}}]}}]} as unknown as DocumentNode<CreateAvailabilityMutation, CreateAvailabilityMutationVariables>;
export const SetOptionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetOption"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SetAvailabilityOptionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setAvailabilityOption"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"availability"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AvailabilityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AvailabilityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Availability"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"isOptionStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"isPricingStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"selectedValue"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"units"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minAge"}},{"kind":"Field","name":{"kind":"Name","value":"restrictions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minQuantity"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricingIssues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}}]}}]} as unknown as DocumentNode<SetOptionMutation, SetOptionMutationVariables>;
export const PriceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Price"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PriceAvailabilityInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"priceAvailability"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"availability"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AvailabilityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AvailabilityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Availability"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"isOptionStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"isPricingStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"selectedValue"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"units"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minAge"}},{"kind":"Field","name":{"kind":"Name","value":"restrictions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minQuantity"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricingIssues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}}]}}]} as unknown as DocumentNode<PriceMutation, PriceMutationVariables>;
export const SetQuantitiesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetQuantities"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SetAvailabilityQuantitiesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setAvailabilityQuantities"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"availability"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AvailabilityFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AvailabilityFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Availability"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"isOptionStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"isPricingStepCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"selectedValue"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"units"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"minAge"}},{"kind":"Field","name":{"kind":"Name","value":"restrictions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minQuantity"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pricingIssues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rule"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}}]}}]} as unknown as DocumentNode<SetQuantitiesMutation, SetQuantitiesMutationVariables>;
export const CreateBookingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateBooking"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateBookingInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createBooking"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"booking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BookingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"QuestionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Question"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"dataFormat"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BookingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Booking"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"isQuestionStepComplete"}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"supplierBooking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"bookingCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"booking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"participants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<CreateBookingMutation, CreateBookingMutationVariables>;
export const AnswerQuestionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AnswerQuestions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AnswerBookingQuestionsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"answerBookingQuestions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"booking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BookingFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"QuestionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Question"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"dataType"}},{"kind":"Field","name":{"kind":"Name","value":"dataFormat"}},{"kind":"Field","name":{"kind":"Name","value":"choices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}}]}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BookingFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Booking"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"isQuestionStepComplete"}},{"kind":"Field","name":{"kind":"Name","value":"totalPrice"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currencyCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"supplierBooking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"bookingCode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"booking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"participants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}},{"kind":"Field","name":{"kind":"Name","value":"followUpQuestions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"QuestionFields"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<AnswerQuestionsMutation, AnswerQuestionsMutationVariables>;
export const ConfirmBookingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConfirmBooking"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ConfirmBookingInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"confirmBooking"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"booking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}},{"kind":"Field","name":{"kind":"Name","value":"userErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"field"}}]}}]}}]}}]} as unknown as DocumentNode<ConfirmBookingMutation, ConfirmBookingMutationVariables>;
export const WatchBookingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"WatchBooking"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"bookingId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"bookingStatusChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"bookingId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"bookingId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"paymentStatus"}},{"kind":"Field","name":{"kind":"Name","value":"supplierBooking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"bookingCode"}}]}}]}}]}}]} as unknown as DocumentNode<WatchBookingSubscription, WatchBookingSubscriptionVariables>;
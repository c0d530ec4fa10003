/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment AvailabilityFields on Availability {\n    id\n    isOptionStepCompleted\n    isPricingStepCompleted\n    options { id dataType selectedValue choices { key } }\n    units { id minAge restrictions { minQuantity } }\n    pricingIssues { rule message }\n    totalPrice { amount currencyCode }\n  }\n": typeof types.AvailabilityFieldsFragmentDoc,
    "\n  fragment QuestionFields on Question { id dataType dataFormat choices { key } value }\n": typeof types.QuestionFieldsFragmentDoc,
    "\n  fragment BookingFields on Booking {\n    id\n    status\n    isQuestionStepComplete\n    totalPrice { amount currencyCode }\n    supplierBooking { bookingCode }\n    questions {\n      customer { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      booking { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      participants { questions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n    }\n  }\n": typeof types.BookingFieldsFragmentDoc,
    "\n  query NextDates($productId: ID!) { nextAvailableDates(productId: $productId) }\n": typeof types.NextDatesDocument,
    "\n  mutation CreateAvailability($input: CreateAvailabilityInput!) {\n    createAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": typeof types.CreateAvailabilityDocument,
    "\n  mutation SetOption($input: SetAvailabilityOptionInput!) {\n    setAvailabilityOption(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": typeof types.SetOptionDocument,
    "\n  mutation Price($input: PriceAvailabilityInput!) {\n    priceAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": typeof types.PriceDocument,
    "\n  mutation SetQuantities($input: SetAvailabilityQuantitiesInput!) {\n    setAvailabilityQuantities(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": typeof types.SetQuantitiesDocument,
    "\n  mutation CreateBooking($input: CreateBookingInput!) { createBooking(input: $input) { booking { ...BookingFields } userErrors { code message field } } }\n": typeof types.CreateBookingDocument,
    "\n  mutation AnswerQuestions($input: AnswerBookingQuestionsInput!) {\n    answerBookingQuestions(input: $input) { booking { ...BookingFields } userErrors { code message field } }\n  }\n": typeof types.AnswerQuestionsDocument,
    "\n  mutation ConfirmBooking($input: ConfirmBookingInput!) { confirmBooking(input: $input) { booking { id status } userErrors { code message field } } }\n": typeof types.ConfirmBookingDocument,
    "\n  subscription WatchBooking($bookingId: ID!) {\n    bookingStatusChanged(bookingId: $bookingId) { id status paymentStatus supplierBooking { bookingCode } }\n  }\n": typeof types.WatchBookingDocument,
};
const documents: Documents = {
    "\n  fragment AvailabilityFields on Availability {\n    id\n    isOptionStepCompleted\n    isPricingStepCompleted\n    options { id dataType selectedValue choices { key } }\n    units { id minAge restrictions { minQuantity } }\n    pricingIssues { rule message }\n    totalPrice { amount currencyCode }\n  }\n": types.AvailabilityFieldsFragmentDoc,
    "\n  fragment QuestionFields on Question { id dataType dataFormat choices { key } value }\n": types.QuestionFieldsFragmentDoc,
    "\n  fragment BookingFields on Booking {\n    id\n    status\n    isQuestionStepComplete\n    totalPrice { amount currencyCode }\n    supplierBooking { bookingCode }\n    questions {\n      customer { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      booking { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      participants { questions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n    }\n  }\n": types.BookingFieldsFragmentDoc,
    "\n  query NextDates($productId: ID!) { nextAvailableDates(productId: $productId) }\n": types.NextDatesDocument,
    "\n  mutation CreateAvailability($input: CreateAvailabilityInput!) {\n    createAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": types.CreateAvailabilityDocument,
    "\n  mutation SetOption($input: SetAvailabilityOptionInput!) {\n    setAvailabilityOption(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": types.SetOptionDocument,
    "\n  mutation Price($input: PriceAvailabilityInput!) {\n    priceAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": types.PriceDocument,
    "\n  mutation SetQuantities($input: SetAvailabilityQuantitiesInput!) {\n    setAvailabilityQuantities(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n": types.SetQuantitiesDocument,
    "\n  mutation CreateBooking($input: CreateBookingInput!) { createBooking(input: $input) { booking { ...BookingFields } userErrors { code message field } } }\n": types.CreateBookingDocument,
    "\n  mutation AnswerQuestions($input: AnswerBookingQuestionsInput!) {\n    answerBookingQuestions(input: $input) { booking { ...BookingFields } userErrors { code message field } }\n  }\n": types.AnswerQuestionsDocument,
    "\n  mutation ConfirmBooking($input: ConfirmBookingInput!) { confirmBooking(input: $input) { booking { id status } userErrors { code message field } } }\n": types.ConfirmBookingDocument,
    "\n  subscription WatchBooking($bookingId: ID!) {\n    bookingStatusChanged(bookingId: $bookingId) { id status paymentStatus supplierBooking { bookingCode } }\n  }\n": types.WatchBookingDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AvailabilityFields on Availability {\n    id\n    isOptionStepCompleted\n    isPricingStepCompleted\n    options { id dataType selectedValue choices { key } }\n    units { id minAge restrictions { minQuantity } }\n    pricingIssues { rule message }\n    totalPrice { amount currencyCode }\n  }\n"): (typeof documents)["\n  fragment AvailabilityFields on Availability {\n    id\n    isOptionStepCompleted\n    isPricingStepCompleted\n    options { id dataType selectedValue choices { key } }\n    units { id minAge restrictions { minQuantity } }\n    pricingIssues { rule message }\n    totalPrice { amount currencyCode }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment QuestionFields on Question { id dataType dataFormat choices { key } value }\n"): (typeof documents)["\n  fragment QuestionFields on Question { id dataType dataFormat choices { key } value }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BookingFields on Booking {\n    id\n    status\n    isQuestionStepComplete\n    totalPrice { amount currencyCode }\n    supplierBooking { bookingCode }\n    questions {\n      customer { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      booking { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      participants { questions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n    }\n  }\n"): (typeof documents)["\n  fragment BookingFields on Booking {\n    id\n    status\n    isQuestionStepComplete\n    totalPrice { amount currencyCode }\n    supplierBooking { bookingCode }\n    questions {\n      customer { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      booking { ...QuestionFields followUpQuestions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n      participants { questions { ...QuestionFields followUpQuestions { ...QuestionFields } } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NextDates($productId: ID!) { nextAvailableDates(productId: $productId) }\n"): (typeof documents)["\n  query NextDates($productId: ID!) { nextAvailableDates(productId: $productId) }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateAvailability($input: CreateAvailabilityInput!) {\n    createAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"): (typeof documents)["\n  mutation CreateAvailability($input: CreateAvailabilityInput!) {\n    createAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetOption($input: SetAvailabilityOptionInput!) {\n    setAvailabilityOption(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"): (typeof documents)["\n  mutation SetOption($input: SetAvailabilityOptionInput!) {\n    setAvailabilityOption(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Price($input: PriceAvailabilityInput!) {\n    priceAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"): (typeof documents)["\n  mutation Price($input: PriceAvailabilityInput!) {\n    priceAvailability(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetQuantities($input: SetAvailabilityQuantitiesInput!) {\n    setAvailabilityQuantities(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"): (typeof documents)["\n  mutation SetQuantities($input: SetAvailabilityQuantitiesInput!) {\n    setAvailabilityQuantities(input: $input) { availability { ...AvailabilityFields } userErrors { code message field } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateBooking($input: CreateBookingInput!) { createBooking(input: $input) { booking { ...BookingFields } userErrors { code message field } } }\n"): (typeof documents)["\n  mutation CreateBooking($input: CreateBookingInput!) { createBooking(input: $input) { booking { ...BookingFields } userErrors { code message field } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AnswerQuestions($input: AnswerBookingQuestionsInput!) {\n    answerBookingQuestions(input: $input) { booking { ...BookingFields } userErrors { code message field } }\n  }\n"): (typeof documents)["\n  mutation AnswerQuestions($input: AnswerBookingQuestionsInput!) {\n    answerBookingQuestions(input: $input) { booking { ...BookingFields } userErrors { code message field } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmBooking($input: ConfirmBookingInput!) { confirmBooking(input: $input) { booking { id status } userErrors { code message field } } }\n"): (typeof documents)["\n  mutation ConfirmBooking($input: ConfirmBookingInput!) { confirmBooking(input: $input) { booking { id status } userErrors { code message field } } }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription WatchBooking($bookingId: ID!) {\n    bookingStatusChanged(bookingId: $bookingId) { id status paymentStatus supplierBooking { bookingCode } }\n  }\n"): (typeof documents)["\n  subscription WatchBooking($bookingId: ID!) {\n    bookingStatusChanged(bookingId: $bookingId) { id status paymentStatus supplierBooking { bookingCode } }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;
import { readFileSync } from "node:fs";
import graphqlPlugin from "@graphql-eslint/eslint-plugin";
import { parse } from "graphql";

/**
 * `npm run lint`: graphql-eslint's schema rules on the graph clients see (schema/api.graphql),
 * as docs/graph-design.md ("Enforced") lists them. While the graph moves to that design a part at
 * a time, only the parts already moved are held to it (schema/graph-design-parts.json): the
 * processor below keeps the reports that fall inside their definitions and drops the others.
 */
const parts = JSON.parse(readFileSync(new URL("./schema/graph-design-parts.json", import.meta.url), "utf8"));
const movedTypes = new Set(parts.types);
const movedRootFields = new Set(parts.rootFields);

/** The lines of each moved definition (and of each moved root field) in the schema's text. */
function movedLines(text) {
  const lines = [];
  for (const definition of parse(text).definitions) {
    const name = definition.name?.value;
    if (!name || !definition.loc) continue;
    if (movedTypes.has(name)) lines.push([definition.loc.startToken.line, definition.loc.endToken.line]);
    for (const field of definition.fields ?? []) {
      if (movedRootFields.has(`${name}.${field.name.value}`) && field.loc) lines.push([field.loc.startToken.line, field.loc.endToken.line]);
    }
  }
  return lines;
}

const linesOfFile = new Map();
const movedParts = {
  meta: { name: "graph-design-moved-parts" },
  preprocess: (text, filename) => {
    linesOfFile.set(filename, movedLines(text));
    return [text];
  },
  postprocess: (messages, filename) => {
    const lines = linesOfFile.get(filename) ?? [];
    return messages.flat().filter((message) => lines.some(([first, last]) => message.line >= first && message.line <= last));
  },
  supportsAutofix: false,
};

export default [
  {
    files: ["schema/api.graphql"],
    processor: movedParts,
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig: { schema: "schema/api.graphql" } },
    },
    plugins: { "@graphql-eslint": graphqlPlugin },
    rules: {
      "@graphql-eslint/naming-convention": [
        "error",
        {
          types: "PascalCase",
          FieldDefinition: "camelCase",
          InputValueDefinition: "camelCase",
          Argument: "camelCase",
          EnumValueDefinition: "UPPER_CASE",
          "FieldDefinition[parent.name.value=Query]": { forbiddenPrefixes: ["get", "query"] },
          "FieldDefinition[parent.name.value=Mutation]": { forbiddenPrefixes: ["mutation"], forbiddenSuffixes: ["Mutation"] },
        },
      ],
      "@graphql-eslint/relay-connection-types": "error",
      "@graphql-eslint/relay-edge-types": ["error", { withEdgeSuffix: true, shouldImplementNode: true, listTypeCanWrapOnlyEdgeType: false }],
      "@graphql-eslint/relay-page-info": "error",
      "@graphql-eslint/relay-arguments": ["error", { includeBoth: true }],
      "@graphql-eslint/require-description": [
        "error",
        { types: true, rootField: true, FieldDefinition: true, InputValueDefinition: true, EnumValueDefinition: true, DirectiveDefinition: true },
      ],
      "@graphql-eslint/strict-id-in-types": [
        "error",
        {
          acceptedIdNames: ["id"],
          acceptedIdTypes: ["ID"],
          // Values, not entities: they have no identity of their own.
          exceptions: { types: ["PageInfo", "TotalCount", "UserError", "WebhookAttempt", "OctoEngineSettings", "OctoImport", "OctoImportRefusal", "Money", "Choice", "UnitRestrictions", "PricingIssue", "BookingQuestions", "Cancellation", "CancellationInformation", "CancellationPolicyTier", "QuestionCondition", "SupplierBooking", "TravelerDetails", "VoucherDocument", "SupplierContact", "GeoLocation", "ReportingAccess", "ProductChange", "ExchangeRates", "BookingSetup", "BookingSetupText", "BookingSetupChoice", "BookingSetupCondition", "BookingSetupOption", "BookingSetupUnit", "BookingSetupQuestion", "BookingSetupQuestionCondition", "BookingSetupQuestions", "BookingSetupCancellationTier", "ProductBookingSetup", "ProductCommissionTerms", "Descriptor", "LanguageBookability", "AvailabilityPeriods", "WeeklyPeriod", "DayOpening", "OpeningHours", "SpontaneousPeriod", "Itinerary", "ItineraryUnit", "ItineraryItem", "ItineraryLocation", "Translation", "LocalizedText"], suffixes: ["Connection", "Edge", "Payload"] },
        },
      ],
      "@graphql-eslint/input-name": ["error", { checkInputType: true, caseSensitiveInputType: false, checkQueries: false, checkMutations: true }],
      "@graphql-eslint/no-typename-prefix": "error",
    },
  },
];

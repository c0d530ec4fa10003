import graphqlPlugin from "@graphql-eslint/eslint-plugin";

/**
 * `npm run lint`: graphql-eslint's schema rules on the graph clients see (schema/api.graphql),
 * as docs/graph-design.md ("Enforced") lists them, on every type and field of it.
 */
export default [
  {
    files: ["schema/api.graphql"],
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
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          DirectiveDefinition: true,
          // Composition gives the root operation types no description (their fields have theirs).
          ignoredSelectors: ["[type=ObjectTypeDefinition][name.value=/^(Query|Mutation)$/]"],
        },
      ],
      "@graphql-eslint/strict-id-in-types": [
        "error",
        {
          acceptedIdNames: ["id"],
          acceptedIdTypes: ["ID"],
          // Values, not entities: they have no identity of their own.
          exceptions: { types: ["PageInfo", "TotalCount", "UserError", "WebhookAttempt", "OctoEngineSettings", "OctoImport", "OctoImportRefusal", "Money", "Choice", "UnitRestrictions", "PricingIssue", "BookingQuestions", "Cancellation", "CancellationInformation", "CancellationPolicyTier", "QuestionCondition", "SupplierBooking", "TravelerDetails", "VoucherDocument", "SupplierContact", "GeoLocation", "ReportingAccess", "ProductChange", "ExchangeRates", "BookingSetup", "BookingSetupText", "BookingSetupChoice", "BookingSetupCondition", "BookingSetupOption", "BookingSetupUnit", "BookingSetupQuestion", "BookingSetupQuestionCondition", "BookingSetupQuestions", "BookingSetupCancellationTier", "ProductBookingSetup", "ProductCommissionTerms", "Descriptor", "LanguageBookability", "AvailabilityPeriods", "WeeklyPeriod", "DayOpening", "OpeningHours", "SpontaneousPeriod", "Itinerary", "ItineraryUnit", "ItineraryItem", "ItineraryLocation", "Translation", "LocalizedText", "Country", "GalleryImage", "ProductCategory"], suffixes: ["Connection", "Edge", "Payload"] },
        },
      ],
      "@graphql-eslint/input-name": ["error", { checkInputType: true, caseSensitiveInputType: false, checkQueries: false, checkMutations: true }],
      "@graphql-eslint/no-typename-prefix": "error",
    },
  },
];

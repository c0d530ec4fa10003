import graphqlPlugin from "@graphql-eslint/eslint-plugin";
import comments from "@eslint-community/eslint-plugin-eslint-comments/configs";
import tseslint from "typescript-eslint";

/**
 * `npm run lint`: typescript-eslint's recommended rules on every TypeScript file we write, where a
 * rule may be switched off only with the reason written beside it (eslint-comments'
 * require-description); and graphql-eslint's schema rules on the graph clients see
 * (schema/api.graphql), as docs/graph-design.md ("Enforced") lists them, on every type and field.
 */
export default tseslint.config(
  {
    // Generators' output (rewritten by `npm run codegen*`), and what is built or measured.
    ignores: ["node_modules/**", "dist/**", "coverage/**", "bench/results/**", "examples/graphql-client/gql/**", "examples/generated-client/sdk/**"],
  },
  {
    files: ["**/*.ts", "**/*.mts", "**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.recommended, comments.recommended],
    // Named, so that ESLint run in a process that has linted another folder (the graph lint's
    // test) still knows which project these files belong to.
    languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@eslint-community/eslint-comments/require-description": ["error", { ignore: [] }],
      // A leading underscore names what is left out on purpose (`{ secret: _secret, ...shown }`).
      // A `let` that closures made before it read once it is set (`let graph; … graph = await …`).
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // A test or a bench reads answers as JSON and lets its assertions say what shape they must
    // have; typing each answer first would repeat the schema the test is there to check.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
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
);

import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * `npm run codegen`: typed operations for the example client, from the committed client schema
 * (queries, mutations and the subscriptions the edge serves). The output is committed;
 * test/integration/codegen-drift.test.ts fails when it no longer matches.
 */
const config: CodegenConfig = {
  schema: "schema/api.graphql",
  documents: ["examples/graphql-client/**/*.ts", "!examples/graphql-client/gql/**"],
  ignoreNoDocuments: false,
  generates: {
    "examples/graphql-client/gql/": {
      preset: "client",
      presetConfig: { fragmentMasking: false },
      config: {
        // NodeNext resolution wants the extension in relative imports.
        emitLegacyCommonJSImports: false,
        useTypeImports: true,
        // Only the types the operations use, not the whole schema.
        onlyOperationTypes: true,
        enumsAsTypes: true,
        scalars: { DateTime: "string", URL: "string", UUID: "string", CountryCode: "string", Date: "string", Decimal: "string", CurrencyCode: "string", JSONObject: "Record<string, unknown>" },
      },
    },
  },
};

export default config;

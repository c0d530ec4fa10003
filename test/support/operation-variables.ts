import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";

const scalarSamples: Record<string, unknown> = {
  Int: 1,
  Float: 1.5,
  String: "x",
  Boolean: true,
  ID: "1",
  JSONObject: {},
  JSON: {},
  DateTime: "2026-01-01T00:00:00.000Z",
  URL: "https://example.org/",
  UUID: "00000000-0000-4000-8000-000000000000",
  CountryCode: "CH",
  Date: "2026-01-01",
  Decimal: "1.00",
  CurrencyCode: "EUR",
};

/** A minimal valid value of an input type: required members only, lists of one. */
function sample(type: GraphQLInputType): unknown {
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) return [sample(nullable.ofType)];
  if (isEnumType(nullable)) return nullable.getValues()[0].value;
  if (isScalarType(nullable)) return scalarSamples[nullable.name] ?? "x";
  if (isInputObjectType(nullable)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) {
      if (isNonNullType(field.type) && field.defaultValue === undefined) value[field.name] = sample(field.type);
    }
    return value;
  }
  return null;
}

/**
 * Variables for an operation as a client would send them: every variable set (optional ones too,
 * so that page sizes take the values given), Int variables from `overrides` by name.
 */
export function sampleVariables(schema: GraphQLSchema, document: DocumentNode, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (!type) continue;
    if (name in overrides && getNamedType(type).name === "Int") variables[name] = overrides[name];
    else variables[name] = sample(type);
  }
  return variables;
}

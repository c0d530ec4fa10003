import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from "graphql";

/**
 * A language object of the contract: `{ "en": "…", "fr": "…" }`. The scalar accepts any JSON
 * object so that the service can name the offending key and rule; rules live in the validators.
 */
export const LanguageObjectScalar = new GraphQLScalarType({
  name: "LanguageObject",
  description: "A JSON object whose keys are ISO 639-1 language codes and whose values are strings",
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GraphQLError("LanguageObject must be a JSON object");
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.OBJECT) throw new GraphQLError("LanguageObject must be an object literal");
    return Object.fromEntries(ast.fields.map((field) => [field.name.value, literal(field.value)]));
  },
});

/** Free-form JSON objects (metadata, availability periods, itineraries): validated by the service. */
export const JSONObjectScalar = new GraphQLScalarType({
  name: "JSONObject",
  description: "A JSON object",
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GraphQLError("JSONObject must be a JSON object");
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.OBJECT) throw new GraphQLError("JSONObject must be an object literal");
    return literal(ast);
  },
});

function literal(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((field) => [field.name.value, literal(field.value)]));
    default:
      throw new GraphQLError("Variables are not accepted inside JSON literals; pass the whole object as a variable");
  }
}

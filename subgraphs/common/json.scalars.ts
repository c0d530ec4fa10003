import { GraphQLError, GraphQLScalarType, Kind, type ObjectValueNode, type ValueNode } from "graphql";

/** A scalar for JSON objects; rules live in the validators so that they can name the key at fault. */
function objectScalar(name: string, description: string, literalOf: (ast: ObjectValueNode) => unknown) {
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: (value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GraphQLError(`${name} must be a JSON object`);
      return value;
    },
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.OBJECT) throw new GraphQLError(`${name} must be an object literal`);
      return literalOf(ast);
    },
  });
}

/** Free-form JSON objects (a partner's metadata; the booking service's own reads of documents): validated by the service. */
export const JSONObjectScalar = objectScalar("JSONObject", "A JSON object", literal);

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

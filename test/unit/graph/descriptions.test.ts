import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, type GraphQLSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { schemaFolder } from "../../../schema/files.js";

/** Every type, field, argument, input field and enum value without a description (docs/graph-design.md, "Descriptions"). */
function undescribed(schema: GraphQLSchema): string[] {
  // The root operation types are named by the schema builder, which gives them no place for a description; their fields have one.
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name));
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__") || isSpecifiedScalarType(type)) continue;
    if (!type.description && !roots.has(type.name)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of "args" in field ? field.args : []) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

describe("the graph's descriptions", () => {
  it("describe every type, field, argument, input field and enum value clients see", async () => {
    const schema = buildSchema(await readFile(path.join(schemaFolder, "api.graphql"), "utf8"));
    expect(undescribed(schema)).toEqual([]);
  });

  it("are missed where one is left out", () => {
    const schema = buildSchema(`
      """A thing""" type Query { """Described""" a(x: Int): Int b: Int }
      enum E { """One""" ONE TWO }
      input I { """In""" c: Int d: Int }
      type T { e(y: E, z: I): Int }
    `);
    expect(undescribed(schema)).toEqual(["Query.a(x)", "Query.b", "E", "E.TWO", "I", "I.d", "T", "T.e", "T.e(y)", "T.e(z)"]);
  });
});

import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { schemaFolder } from "../../../schema/files.js";

/** Every element of the schema marked @deprecated: `Type.field`, `Type.field(arg)`, `Enum.VALUE`. */
function deprecatedElements(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (field.deprecationReason) found.push(`${type.name}.${field.name}`);
        for (const arg of "args" in field ? field.args : []) if (arg.deprecationReason) found.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) if (value.deprecationReason) found.push(`${type.name}.${value.name}`);
  }
  return found.sort();
}

/** The elements schema/deprecations.md lists: the first cell of each row of its table, in backticks. */
const listedElements = (document: string): string[] =>
  [...document.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]).sort();

describe("deprecations", () => {
  it("are the ones schema/deprecations.md lists, each marked in the schema", async () => {
    const schema = buildSchema(await readFile(path.join(schemaFolder, "api.graphql"), "utf8"));
    const listed = listedElements(await readFile(path.join(schemaFolder, "deprecations.md"), "utf8"));
    expect(deprecatedElements(schema)).toEqual(listed);
  });

  it("are found in the schema and in the list, so that either without the other is told", () => {
    const schema = buildSchema(`
      type Query { a: Int @deprecated(reason: "Use b.") b(old: Int @deprecated(reason: "Use c."), c: Int): Int }
      enum E { ONE @deprecated(reason: "Use TWO.") TWO }
      input I { d: Int @deprecated(reason: "Use e.") e: Int }
    `);
    expect(deprecatedElements(schema)).toEqual(["E.ONE", "I.d", "Query.a", "Query.b(old)"]);
    const list = "| element | deprecated on |\n|---|---|\n| `Query.a` | 2026-11-29 | 2027-05-29 | `b` |\n| `E.ONE` | 2026-11-29 | 2027-05-29 | `TWO` |\n";
    expect(listedElements(list)).toEqual(["E.ONE", "Query.a"]);
  });
});

import "reflect-metadata";
import { execute, parse, type GraphQLObjectType, type GraphQLSchema } from "graphql";
import { Authorized, Field, ObjectType, Query, Resolver, UseMiddleware, type MiddlewareFn } from "type-graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { buildFederatedSchema } from "../../../subgraphs/common/subgraph.build.js";
import { subgraphDefinitions } from "../../../subgraphs/subgraph.names.js";

/**
 * A field that only reads the property of its name is left without a resolver
 * (subgraphs/common/subgraph.build.ts), so GraphQL reads it directly instead of through
 * type-graphql's per-call wrapper. Every field that needs the wrapper keeps it: roles, middleware,
 * a field resolver, or a schema name that differs from the property's.
 */
const watched: string[] = [];
const recordRead: MiddlewareFn = async ({ info }, next) => {
  watched.push(info.fieldName);
  return next();
};

@ObjectType()
class PlainFieldsProbe {
  @Field(() => String) open!: string;
  @Authorized("OPERATOR")
  @Field(() => String)
  secret!: string;
  @Field(() => String, { name: "renamed" }) original!: string;
  @UseMiddleware(recordRead)
  @Field(() => String)
  observed!: string;
}

@Resolver()
class PlainFieldsProbeResolver {
  @Query(() => PlainFieldsProbe)
  plainFieldsProbe(): PlainFieldsProbe {
    return Object.assign(new PlainFieldsProbe(), { open: "o", secret: "s", original: "r", observed: "w" });
  }
}

const resolverOf = (schema: GraphQLSchema, type: string, field: string) => (schema.getType(type) as GraphQLObjectType).getFields()[field].resolve;

describe("plain data fields", () => {
  let probe: GraphQLSchema;
  let catalogue: GraphQLSchema;
  beforeAll(async () => {
    probe = await buildFederatedSchema([PlainFieldsProbeResolver]);
    catalogue = await subgraphDefinitions.catalogue.buildSchema();
  });

  it("have no resolver; fields with roles, middleware or another property name keep theirs", () => {
    expect(resolverOf(probe, "PlainFieldsProbe", "open")).toBeUndefined();
    for (const field of ["secret", "renamed", "observed"]) expect(resolverOf(probe, "PlainFieldsProbe", field), field).toBeTypeOf("function");
  });

  it("still enforce roles and run middleware, and read a renamed field from its property", async () => {
    watched.length = 0;
    const asConsumer = { caller: { roles: ["CONSUMER"] } };
    const document = parse("{ plainFieldsProbe { open renamed observed secret } }");
    const refused = await execute({ schema: probe, document, contextValue: asConsumer });
    expect(refused.errors?.[0]).toMatchObject({ path: ["plainFieldsProbe", "secret"], extensions: { code: "FORBIDDEN" } });
    expect(watched).toEqual(["observed"]);
    const allowed = await execute({ schema: probe, document, contextValue: { caller: { roles: ["OPERATOR"] } } });
    expect(allowed).toEqual({ data: { plainFieldsProbe: { open: "o", renamed: "r", observed: "w", secret: "s" } } });
  });

  it("are read directly in the real subgraphs, where field resolvers stay in place", () => {
    for (const [type, field] of [["Product", "externalId"], ["Product", "cityName"], ["Supplier", "countryCode"]]) expect(resolverOf(catalogue, type, field), `${type}.${field}`).toBeUndefined();
    for (const [type, field] of [["Product", "supplier"], ["Supplier", "isOnlineBookable"], ["Product", "bookingLink"], ["Product", "minPrice"]]) expect(resolverOf(catalogue, type, field), `${type}.${field}`).toBeTypeOf("function");
  });
});

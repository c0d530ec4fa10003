import { buildSubgraphSchema } from "@apollo/subgraph";
import type { GraphQLResolverMap } from "@apollo/subgraph/dist/schema-helper/resolverMap.js";
import { printSchemaWithDirectives } from "@graphql-tools/utils";
import { defaultFieldResolver, GraphQLSchema, lexicographicSortSchema } from "graphql";
import { gql } from "graphql-tag";
import { buildSchema, createResolversMap, getMetadataStorage, type BuildSchemaOptions } from "type-graphql";
import { TurnChain } from "../../core/event-loop-turns.js";
import { authChecker } from "./subgraph.authorization.js";
import { DateTimeScalar } from "./common.scalars.js";

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@interfaceObject"])';

/**
 * A type-graphql schema turned into an Apollo Federation 2 subgraph (the pattern of
 * type-graphql's apollo-federation-2 example): `@Directive('@key(...)')` on entity classes,
 * `__resolveReference` as plain functions merged in afterwards.
 */
export async function buildFederatedSchema(
  resolvers: BuildSchemaOptions["resolvers"],
  referenceResolvers: GraphQLResolverMap<unknown> = {},
  orphanedTypes: BuildSchemaOptions["orphanedTypes"] = [],
): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    orphanedTypes,
    authChecker,
    // Instants are the graph's DateTime everywhere (docs/graph-design.md, "Scalars, dates and money").
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
    skipCheck: true,
    validate: false,
  });
  const sorted = lexicographicSortSchema(schema);
  const resolverMap = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  for (const [typeName, fieldName] of plainDataFields()) delete (resolverMap[typeName] as Record<string, unknown> | undefined)?.[fieldName];
  for (const [typeName, typeResolvers] of Object.entries(referenceResolvers)) {
    resolverMap[typeName] = { ...(resolverMap[typeName] as object), ...(typeResolvers as object) } as GraphQLResolverMap<unknown>[string];
  }
  return rootFieldsInTurns(buildSubgraphSchema({ typeDefs: gql(`${FEDERATION_LINK}\n${printSchemaWithDirectives(sorted)}`), resolvers: resolverMap }));
}

/**
 * GraphQL starts a query's root fields in one loop: 30 aliased searches built their 30
 * statements back to back, 30 to 100 ms in which no other caller's request was read. Each root
 * field after the first starts on a turn of the event loop of its own (core/event-loop-turns.ts);
 * a mutation's run one after another already.
 */
function rootFieldsInTurns(schema: GraphQLSchema): GraphQLSchema {
  const turns = new TurnChain<object>();
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context: unknown, info) => {
      if (info.operation.operation !== "query" || info.operation.selectionSet.selections.length < 2 || typeof context !== "object" || context === null) return resolve(source, args, context, info);
      const turn = turns.next(context);
      return turn ? turn.then(() => resolve(source, args, context, info)) : resolve(source, args, context, info);
    };
  }
  return schema;
}

/**
 * The fields whose type-graphql resolver only reads the property of the same name: no field
 * resolver, no roles, no middleware. type-graphql still wraps each one in a resolver that builds
 * its middleware chain's arguments on every call, for every field of every record (6,000 calls on
 * a page of 100 products). Without a resolver, GraphQL's default resolver reads the property.
 * A GraphQL type name that several classes declare
 * (an entity's stub in another subgraph) counts only where every class agrees, and a field name
 * that has a field resolver anywhere keeps its resolvers everywhere.
 */
function plainDataFields(): [typeName: string, fieldName: string][] {
  const storage = getMetadataStorage();
  // By name alone, on any type: a field resolver may serve a field its class inherits.
  const withResolver = new Set(storage.fieldResolvers.flatMap((resolver) => [resolver.methodName, resolver.schemaName]));
  const verdicts = new Map<string, boolean>();
  for (const objectType of storage.objectTypes) {
    for (const field of objectType.fields ?? []) {
      const plain =
        field.name === field.schemaName &&
        !field.roles?.length &&
        !field.middlewares?.length &&
        !withResolver.has(field.name);
      const key = `${objectType.name}\u0000${field.schemaName}`;
      verdicts.set(key, (verdicts.get(key) ?? true) && plain);
    }
  }
  return [...verdicts].filter(([, plain]) => plain).map(([key]) => key.split("\u0000") as [string, string]);
}

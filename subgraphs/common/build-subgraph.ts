import { buildSubgraphSchema } from "@apollo/subgraph";
import type { GraphQLResolverMap } from "@apollo/subgraph/dist/schema-helper/resolverMap.js";
import { printSchemaWithDirectives } from "@graphql-tools/utils";
import { GraphQLSchema, lexicographicSortSchema } from "graphql";
import { gql } from "graphql-tag";
import { buildSchema, createResolversMap, type NonEmptyArray } from "type-graphql";
import { authChecker } from "./authorization.js";

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible"])';

/**
 * A type-graphql schema turned into an Apollo Federation 2 subgraph (the pattern of
 * type-graphql's apollo-federation-2 example): `@Directive('@key(...)')` on entity classes,
 * `__resolveReference` as plain functions merged in afterwards.
 */
export async function buildFederatedSchema(
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: NonEmptyArray<Function>,
  referenceResolvers: GraphQLResolverMap<unknown> = {},
  orphanedTypes: Function[] = [],
): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    orphanedTypes,
    authChecker,
    skipCheck: true,
    validate: false,
  });
  const sorted = lexicographicSortSchema(schema);
  const resolverMap = createResolversMap(schema) as GraphQLResolverMap<unknown>;
  for (const [typeName, typeResolvers] of Object.entries(referenceResolvers)) {
    resolverMap[typeName] = { ...(resolverMap[typeName] as object), ...(typeResolvers as object) } as GraphQLResolverMap<unknown>[string];
  }
  return buildSubgraphSchema({ typeDefs: gql(`${FEDERATION_LINK}\n${printSchemaWithDirectives(sorted)}`), resolvers: resolverMap });
}

/** Small helpers for route schemas: they validate JSON types (rules are the subgraph's) and document the contract. */
export type JsonSchema = Record<string, unknown> & { type?: string | string[]; properties?: Record<string, JsonSchema>; items?: JsonSchema };

export const str = (description: string): JsonSchema => ({ type: "string", description });
/** GraphQL's Int is 32-bit: a larger JSON integer would pass `type: integer` and fail in the operation. */
export const int = (description: string): JsonSchema => ({ type: "integer", minimum: -2_147_483_648, maximum: 2_147_483_647, description });
export const num = (description: string): JsonSchema => ({ type: "number", description });
/** An integer of an answer, unbounded: what the service writes is not a caller's input to check. */
export const answerInt = (description: string): JsonSchema => ({ type: "integer", description });
export const bool = (description: string): JsonSchema => ({ type: "boolean", description });
export const languageObject = (description: string): JsonSchema => ({
  type: "object",
  description: `${description}. Language object: ISO 639-1 code → text`,
  additionalProperties: { type: "string" },
});
export const freeObject = (description: string): JsonSchema => ({ type: "object", description, additionalProperties: true });
/**
 * An object whose optional members may also be null (integrators often send null for "unset");
 * required members keep their type, and so do members with a default: Ajv fills a default only
 * for an absent member, and coerces an empty query value (`?pageNumber=`) to null, which would
 * reach the operation instead of the default.
 */
export const obj = (properties: Record<string, JsonSchema>, extra: Partial<JsonSchema> & { required?: string[] } = {}): JsonSchema => {
  const required = new Set(extra.required ?? []);
  const keepsType = (name: string, schema: JsonSchema) => required.has(name) || typeof schema.type !== "string" || schema.default !== undefined;
  const nullable = Object.fromEntries(
    Object.entries(properties).map(([name, schema]): [string, JsonSchema] => [name, keepsType(name, schema) ? schema : { ...schema, type: [schema.type as string, "null"] }]),
  );
  return { type: "object", properties: nullable, ...extra };
};
export const arr = (items: JsonSchema, description: string): JsonSchema => ({ type: "array", items, description });

/** A database id in a path: a positive 32-bit integer, so a non-numeric or absurd id is a 400. */
export const idParam = (description: string): JsonSchema => ({ type: "integer", minimum: 1, maximum: 2_147_483_647, description });

/**
 * Keeps only what the schema names (recursively), so that fields the service sets (id,
 * creationDate, onlineBookable) or does not know are ignored rather than refused by GraphQL.
 * Objects whose schema allows any property are kept whole.
 */
export function pickBySchema(value: unknown, schema: JsonSchema): unknown {
  if (value === null || value === undefined) return value;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("array") && Array.isArray(value) && schema.items) return value.map((item) => pickBySchema(item, schema.items!));
  if (types.includes("object") && typeof value === "object" && !Array.isArray(value) && schema.properties) {
    const picked: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties)) {
      if (key in (value as Record<string, unknown>)) picked[key] = pickBySchema((value as Record<string, unknown>)[key], property);
    }
    return picked;
  }
  return value;
}

/** Drops null and undefined members: the contract says unset optional fields may be absent. */
export function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/**
 * An object an answer carries: every member it can have declared, `required` naming those always
 * present. Answers leave unset members out rather than send null, so members are not nullable.
 */
export const answer = (properties: Record<string, JsonSchema>, required: string[] = [], description?: string): JsonSchema => ({
  type: "object",
  ...(description ? { description } : {}),
  properties,
  ...(required.length ? { required } : {}),
});

/**
 * Members beyond the declared ones are kept as their sender wrote them: a partner's own JSON
 * (metadata, itinerary details), answered as stored. Written as an empty schema rather than `true`
 * so that tests closing every other object can tell a declared free-form value from an omission.
 */
export const keepsOtherMembers = { additionalProperties: {} } as const;

/** A language object as answered: ISO 639-1 code → text. */
export const languageMap = (description: string): JsonSchema => ({ type: "object", description, additionalProperties: { type: "string" } });

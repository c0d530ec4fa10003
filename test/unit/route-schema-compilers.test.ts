import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { routeSchemaCompilers } from "../../server/route-schema-compilers.js";

const app = () => Fastify({ schemaController: { compilersFactory: routeSchemaCompilers } });

/** A route that hands back what Fastify compiled for it, and answers through its serializer. */
async function compiledFor(shared: object | undefined, body: object, response: object, payload: unknown) {
  const server = app();
  if (shared) server.addSchema(shared);
  let validator: unknown;
  let serializer: unknown;
  server.post("/thing", { schema: { body, response: { 200: response } } }, (request, reply) => {
    validator = request.getValidationFunction("body");
    serializer = reply.getSerializationFunction("200");
    return payload;
  });
  const answer = await server.inject({ method: "POST", url: "/thing", payload: { name: "x" } });
  const withoutName = await server.inject({ method: "POST", url: "/thing", payload: { other: "x" } });
  await server.close();
  return { validator, serializer, answer: answer.json(), withoutName: withoutName.statusCode };
}

const body = { type: "object", required: ["name"], additionalProperties: false, properties: { name: { type: "string" } } };

describe("route schemas compiled once a process", () => {
  it("gives a second app the functions the first compiled, which validate and serialize as before", async () => {
    const response = { type: "object", properties: { kept: { type: "string" } } };
    const first = await compiledFor(undefined, body, response, { kept: "yes", dropped: "no" });
    const second = await compiledFor(undefined, body, response, { kept: "yes", dropped: "no" });
    expect(second.validator).toBe(first.validator);
    expect(second.serializer).toBe(first.serializer);
    for (const run of [first, second]) {
      expect(run.answer).toEqual({ kept: "yes" });
      expect(run.withoutName).toBe(400);
    }
  });

  it("compiles again for another schema, or for the same schema referring to different shared schemas", async () => {
    const one = await compiledFor({ $id: "shared-thing", type: "object", properties: { a: { type: "string" } } }, body, { $ref: "shared-thing#" }, { a: "A", b: "B" });
    const other = await compiledFor({ $id: "shared-thing", type: "object", properties: { b: { type: "string" } } }, body, { $ref: "shared-thing#" }, { a: "A", b: "B" });
    expect(other.serializer).not.toBe(one.serializer);
    expect(one.answer).toEqual({ a: "A" });
    expect(other.answer).toEqual({ b: "B" });

    const optional = await compiledFor(undefined, { ...body, required: [] }, { type: "object" }, {});
    const required = await compiledFor(undefined, body, { type: "object" }, {});
    expect(optional.validator).not.toBe(required.validator);
    expect(optional.withoutName).toBe(200);
    expect(required.withoutName).toBe(400);
  });
});

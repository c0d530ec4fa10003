import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildClientSchema, getIntrospectionQuery, GraphQLNonNull, GraphQLObjectType, type IntrospectionQuery } from "graphql";
import { describe, expect, it } from "vitest";
import { printApiSchema } from "../../schema/compose.js";
import { schemaFolder } from "../../schema/files.js";
import { consumer } from "../support/booking.js";
import { graphql, useStack } from "../support/stack.js";

const ctx = useStack();

describe("the API schema clients discover", () => {
  it("shows the Subscription type over HTTP introspection, exactly as schema/api.graphql and the WebSocket serve it", async () => {
    const buyer = await consumer(ctx.stack);
    const answer = await graphql(`${ctx.stack.url}/graphql`, buyer.token, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true }));
    expect(answer.body.errors).toBeUndefined();
    const schema = buildClientSchema(answer.body.data as unknown as IntrospectionQuery);

    const subscription = schema.getSubscriptionType();
    expect(subscription?.name).toBe("Subscription");
    const field = subscription!.getFields().bookingStatusChanged;
    expect(String(field.type)).toBe("Booking!");
    expect(field.args.map((arg) => [arg.name, String(arg.type)])).toEqual([["bookingId", "ID!"]]);
    expect(((field.type as GraphQLNonNull<GraphQLObjectType>).ofType).getFields().status).toBeDefined();

    // The committed client SDL is what introspection answers, field for field.
    const committed = await readFile(path.join(schemaFolder, "api.graphql"), "utf8");
    expect(committed.endsWith(printApiSchema(schema))).toBe(true);
    expect(schema.getType("_Entity")).toBeUndefined();
  });

  it("answers a query that mixes introspection with data through the gateway", async () => {
    const buyer = await consumer(ctx.stack);
    const answer = await graphql(`${ctx.stack.url}/graphql`, buyer.token, "{ __typename me { username } }");
    expect(answer.body).toEqual({ data: { __typename: "Query", me: { username: expect.any(String) } }, extensions: { cost: expect.objectContaining({ actualQueryCost: expect.any(Number) }) } });
    const typeOnly = await graphql(`${ctx.stack.url}/graphql`, buyer.token, 'query { ...T } fragment T on Query { __type(name: "Subscription") { fields { name } } }');
    expect(typeOnly.body.data?.__type.fields.map((f: { name: string }) => f.name)).toEqual(["bookingEngineRegistered", "bookingStatusChanged"]);
  });

  it("refuses an operationName that names no operation of the document as the client's mistake", async () => {
    const buyer = await consumer(ctx.stack);
    const response = await fetch(`${ctx.stack.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${buyer.token}` },
      body: JSON.stringify({ query: "{ me { username } }", operationName: "Me" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([expect.objectContaining({ message: 'Unknown operation named "Me".', extensions: expect.objectContaining({ code: "OPERATION_RESOLUTION_FAILURE" }) })]);
  });

  it("refuses a subscription over HTTP, naming graphql-ws, before the gateway sees it", async () => {
    const buyer = await consumer(ctx.stack);
    const answer = await graphql(`${ctx.stack.url}/graphql`, buyer.token, 'subscription { bookingStatusChanged(bookingId: "x") { status } }');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ message: expect.stringContaining("graphql-ws"), extensions: expect.objectContaining({ code: "BAD_REQUEST" }) })]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { importableEngine, restClient, type RestClient } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

/**
 * An import cursor carries the run's estimatedCount and the modifiedSince it was counted for, so
 * that later pages skip the count. Those members are signed with the rest: a caller cannot set
 * the count it is answered, nor keep a count made for another modifiedSince, by editing them.
 */
describe("the count an import cursor carries", () => {
  const t = useStack();
  let consumer: RestClient;
  let firstPage: string;

  beforeAll(async () => {
    const { partner, consumerToken } = await importableEngine(t.stack, 4);
    consumer = restClient(t.stack, consumerToken);
    firstPage = `/content/v0/import/activities/active?bookingEngineList=${partner.engineName}&page[limit]=2`;
  });

  const forge = (cursor: string, change: (decoded: Record<string, unknown>) => Record<string, unknown>) => {
    const [body, mac] = cursor.split(".");
    const decoded = JSON.parse(Buffer.from(body, "base64url").toString()) as Record<string, unknown>;
    return `${Buffer.from(JSON.stringify(change(decoded))).toString("base64url")}.${mac}`;
  };

  it.each([
    ["a count of its own choosing", (d: Record<string, unknown>) => ({ ...d, c: 1_000_000_000 })],
    ["a count claimed for another modifiedSince", (d: Record<string, unknown>) => ({ ...d, m: "2020-01-01T00:00:00.000Z" })],
    ["no count, to make every page count", (d: Record<string, unknown>) => ({ v: d.v, k: d.k, i: d.i, a: d.a, f: d.f })],
  ])("refuses a cursor edited to carry %s, and changes nothing", async (_name, change) => {
    const first = await consumer.get(firstPage);
    expect(first.body.meta.estimatedCount).toBe(4);
    const cursor: string = first.body.meta.nextCursor;
    const refused = await consumer.get(`${firstPage}&cursor=${encodeURIComponent(forge(cursor, change))}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "INVALID_CURSOR", message: expect.stringContaining("altered") });
    // The genuine cursor still pages on with the run's count.
    const next = await consumer.get(`${firstPage}&cursor=${encodeURIComponent(cursor)}`);
    expect(next.status).toBe(200);
    expect(next.body.meta.estimatedCount).toBe(4);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { exportInOwnProcess } from "../../bench/export-client.js";
import { importableEngine } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

/**
 * `npm run bench -- --export` measures the import endpoint with bench/export-client.ts, a consumer
 * in its own process that asks for the next page before parsing the current one. It runs here at
 * a tiny scale so that it cannot rot: every record counted once, every page followed.
 */
describe("the bench's export client at a tiny scale", () => {
  const t = useStack();
  let firstPage: string;
  let token: string;

  beforeAll(async () => {
    const { partner, consumerToken } = await importableEngine(t.stack, 5);
    token = consumerToken;
    firstPage = `${t.stack.url}/content/v0/import/activities/active?bookingEngineList=${partner.engineName}&page[limit]=2`;
  });

  it("follows every next link from its own process and counts each record once", async () => {
    expect(await exportInOwnProcess({ url: firstPage, token })).toMatchObject({ records: 5, pages: 3, seconds: expect.any(Number) });
  });

  it("fails with the endpoint's status when a page is refused", async () => {
    await expect(exportInOwnProcess({ url: firstPage, token: "not-a-token" })).rejects.toThrow(/import 401/);
  });
});

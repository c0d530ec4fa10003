import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { productTrackingIds } from "../../drizzle/schema.js";
import { runOperatorCommand } from "../../server/operator-cli.js";
import { contentPartner, productRequest, restClient, signIn, supplierRequest } from "../support/catalogue.js";
import { useStack } from "../support/stack.js";

/** The trackingId feature of spec 3 (product read): a per-call id when the organisation has it, the static id otherwise. */
describe("trackingId feature", () => {
  const t = useStack();
  let productId: number;
  let tracked: ReturnType<typeof restClient>;
  let untracked: ReturnType<typeof restClient>;

  beforeAll(async () => {
    const partner = await contentPartner(t.stack);
    const supplierId = (await partner.rest.post("/api/supplier", supplierRequest())).body.id;
    productId = (await partner.rest.post(`/api/supplier/${supplierId}/product`, productRequest())).body.id;
    const trackedAccount = await t.stack.createAccount("CONSUMER");
    await t.stack.service.identity.accounts.setTrackingIds(trackedAccount.organisationName!, true);
    tracked = restClient(t.stack, await signIn(t.stack, trackedAccount.username, trackedAccount.password));
    untracked = restClient(t.stack, await t.stack.tokenFor("CONSUMER"));
  });

  it("gives a new id on every read, keeps productId, and records each id", async () => {
    const first = (await tracked.get(`/api/consumer/product/${productId}`)).body;
    const second = (await tracked.get(`/api/consumer/product/${productId}`)).body;
    expect(first.productId).toBe(productId);
    expect(second.productId).toBe(productId);
    expect(first.id).not.toBe(productId);
    expect(second.id).not.toBe(first.id);
    expect(Number.isSafeInteger(first.id)).toBe(true);
    const recorded = await t.database.db.select().from(productTrackingIds).where(eq(productTrackingIds.productId, productId));
    expect(recorded.map((r) => r.trackingId).sort()).toEqual([first.id, second.id].sort());
  });

  it("keeps id equal to productId for organisations without the feature", async () => {
    const body = (await untracked.get(`/api/consumer/product/${productId}`)).body;
    expect(body).toMatchObject({ id: productId, productId });
  });

  it("is switched by the operator CLI", async () => {
    const account = await t.stack.createAccount("CONSUMER");
    const io = { out: () => {}, err: () => {} };
    const env = { ...process.env, DATA_DIR: "memory" };
    // The CLI opens the configured database; here the check is of its argument handling.
    expect(await runOperatorCommand(["set-tracking", "--organisation", account.organisationName!], env, io)).toBe(2);
    expect(await runOperatorCommand(["set-tracking", "--organisation", account.organisationName!, "--enabled", "maybe"], env, io)).toBe(2);
    const lines: string[] = [];
    const code = await runOperatorCommand(["set-tracking", "--organisation", "No Such Org", "--enabled", "true"], env, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(1);
    expect(lines.join("\n")).toContain("no organisation named No Such Org");
    // Each call opens its own embedded database (a few seconds each on a loaded machine).
  }, 90_000);
});

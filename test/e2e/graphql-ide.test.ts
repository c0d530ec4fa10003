import { toGlobalId } from "../../core/global-id.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDE_CONTENT_SECURITY_POLICY } from "../../server/graphql-ide/graphql-ide.js";
import { bookableAvailability, bookableProduct, bookingClient, newRef } from "../support/booking.js";
import { openChromium } from "../support/chromium.js";
import { useStack } from "../support/stack.js";

/** The page's DOM, as the functions run in the browser (page.evaluate) see it; tsconfig has no DOM lib. */
declare const document: { querySelector(selector: string): unknown };

const ctx = useStack({ env: { WORKER_LOOPS: "false" } });

describe("the GraphQL IDE at /graphql (sandbox default)", () => {
  it("answers a browser's GET with its page under a policy allowing only this origin, and its bundle from this service", async () => {
    const page = await fetch(`${ctx.stack.url}/graphql`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(IDE_CONTENT_SECURITY_POLICY);
    expect(IDE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|https?:|\*/);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>|<style/);
    for (const [file, type] of [
      ["ide.js", "text/javascript"],
      ["ide.css", "text/css"],
    ]) {
      expect(html).toContain(`graphql/ide/${file}`);
      const asset = await fetch(`${ctx.stack.url}/graphql/ide/${file}`);
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get("content-type"), file).toMatch(new RegExp(`^${type}`));
      expect((await asset.arrayBuffer()).byteLength, file).toBeGreaterThan(10_000);
    }
    expect((await fetch(`${ctx.stack.url}/graphql/ide/other.js`)).status).toBe(404);
    // Operations still need a token; the page is the only thing a browser gets without one.
    const operation = await fetch(`${ctx.stack.url}/graphql?query=${encodeURIComponent("{ me { id } }")}`, { headers: { accept: "text/html" } });
    expect(operation.status).toBe(401);
  });

  describe("in headless Chromium", () => {
    let browser: Awaited<ReturnType<typeof openChromium>>;
    let page: Page;
    const violations: string[] = [];
    const consoleLines: string[] = [];

    beforeAll(async () => {
      browser = await openChromium("graphql-ide");
      page = browser.page;
      page.on("console", (message) => {
        consoleLines.push(`${message.type()}: ${message.text()}`);
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      page.on("response", (answer) => {
        if (answer.status() >= 400) consoleLines.push(`${answer.status()} ${answer.request().method()} ${answer.url()}`);
      });
      page.on("pageerror", (error) => violations.push(`page error: ${error.message}`));
    });
    afterAll(async () => {
      await browser?.close();
    });

    /**
     * Replaces the query editor's text (CodeMirror closes brackets as one types) and runs it, once
     * GraphiQL has read the new operation's name (it does so shortly after an edit; the tab shows it).
     */
    const runInIde = async (name: string, operation: string) => {
      await page.evaluate((text) => {
        const editor = document.querySelector(".graphiql-query-editor .CodeMirror") as { CodeMirror: { setValue(v: string): void } };
        editor.CodeMirror.setValue(text);
      }, operation);
      await page.waitForSelector(`.graphiql-tab-active >> text=${name}`);
      await page.click(".graphiql-execute-button");
    };
    const response = () =>
      page.evaluate(() => (document.querySelector(".result-window .CodeMirror") as { CodeMirror: { getValue(): string } } | null)?.CodeMirror.getValue() ?? "(no response editor)");
    const responseShows = async (text: string) => {
      try {
        await page.waitForFunction(
          (expected) => {
            const editor = document.querySelector(".result-window .CodeMirror") as { CodeMirror: { getValue(): string } } | null;
            return editor?.CodeMirror.getValue().includes(expected) ?? false;
          },
          text,
          { timeout: 15_000 },
        );
      } catch (error) {
        throw new Error(`the response never showed ${text}: ${await response()}\nconsole:\n${consoleLines.join("\n")}`, { cause: error });
      }
    };

    it("signs in, runs a query, shows a subscription's first message, and takes a pasted token", async () => {
      const { productId } = await bookableProduct(ctx.stack);
      const buyer = await ctx.stack.createAccount("CONSUMER");
      const token = (await ctx.stack.login(buyer.username, buyer.password)).access_token;
      const client = bookingClient(ctx.stack, token);
      const availability = await bookableAvailability(client, productId, "2027-06-10", { adults: 2 });
      const created = await client.send("POST", "/booking-flow/v1/bookings", { availabilityId: availability.id, resellerRef: newRef() }, {});
      expect(created.status).toBe(201);

      await page.goto(`${ctx.stack.url}/graphql`);
      await page.fill("input[name=username]", buyer.username);
      await page.fill("input[name=password]", "not the password");
      await page.click("form[aria-label='Sign in'] button[type=submit]");
      await expect.poll(() => page.textContent("[role=alert]")).toMatch(/invalid/i);

      await page.fill("input[name=password]", buyer.password);
      await page.click("form[aria-label='Sign in'] button[type=submit]");
      await page.waitForSelector(".graphiql-query-editor .CodeMirror");
      expect(await page.textContent(".ide-who")).toBe(buyer.username);

      await runInIde("WhoAmI", "query WhoAmI { me { username roles } }");
      await responseShows(buyer.username);
      // The answer as the IDE shows it, with what the operation cost the account (gateway/cost-budget.ts).
      expect(JSON.parse(await response())).toEqual({ data: { me: { username: buyer.username, roles: ["CONSUMER"] } }, extensions: { cost: expect.objectContaining({ requestedQueryCost: expect.any(Number) }) } });

      // Over graphql-ws: the first message is the booking as it is now.
      const bookingId = toGlobalId("Booking", created.body.id);
      await runInIde("Watch", `subscription Watch { bookingStatusChanged(bookingId: "${bookingId}") { id status } }`);
      await responseShows("ON_HOLD");
      expect(JSON.parse(await response())).toEqual({ data: { bookingStatusChanged: { id: bookingId, status: "ON_HOLD" } } });

      // Signed out, a pasted token (with or without "Bearer ") is the other way in.
      await page.click("text=Sign out");
      await page.fill("textarea[name=token]", `Bearer ${token}`);
      await page.click("form[aria-label='Use a token'] button[type=submit]");
      await page.waitForSelector(".graphiql-query-editor .CodeMirror");
      await runInIde("Roles", "query Roles { me { roles } }");
      await responseShows("CONSUMER");
      expect(JSON.parse(await response())).toEqual({ data: { me: { roles: ["CONSUMER"] } }, extensions: { cost: expect.objectContaining({ actualQueryCost: expect.any(Number) }) } });

      expect(violations).toEqual([]);
    });
  });
});

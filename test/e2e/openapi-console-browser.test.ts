import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openChromium } from "../support/chromium.js";
import { freePort } from "../support/child-process.js";
import { useStack } from "../support/stack.js";

/** The page's DOM, as the functions run in the browser (page.waitForFunction) see it; tsconfig has no DOM lib. */
declare const document: { querySelectorAll(selector: string): { length: number } };

// The console sends its calls to the document's server, PUBLIC_URL: the address the browser opens.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useStack({ env: { PORT: String(port), PUBLIC_URL: base } });
const CONSOLE = `${base}/api/content-partner/swagger-ui/index.html`;

describe("the console (Swagger UI) at the contract's address, in headless Chromium", () => {
  let browser: Awaited<ReturnType<typeof openChromium>>;
  let page: Page;
  const failures: string[] = [];

  beforeAll(async () => {
    browser = await openChromium("openapi-console");
    page = browser.page;
    page.on("response", (answer) => {
      if (answer.status() >= 400 && !answer.url().endsWith("/openid-connect/token")) failures.push(`${answer.status()} ${answer.request().method()} ${answer.url()}`);
    });
    page.on("pageerror", (error) => failures.push(`page error: ${error.message}`));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("loads the OpenAPI document and lists every operation, no 'Failed to load'", async () => {
    const served = (await (await fetch(`${base}/api/content-partner/swagger-ui/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(served.paths).reduce((count, item) => count + Object.keys(item).length, 0);
    expect(operations).toBeGreaterThan(50);

    await page.goto(CONSOLE);
    await page.waitForFunction((expected) => document.querySelectorAll(".opblock").length === expected, operations, { timeout: 30_000 });
    expect(await page.locator(".opblock").count()).toBe(operations);
    expect(await page.locator("text=Failed to load").count()).toBe(0);
    expect(await page.locator(".opblock-summary-description", { hasText: /^Search products$/ }).count()).toBe(1);
    expect(failures).toEqual([]);
  });

  it("signs in with the Authorize dialog's default flow (client in Authorization: Basic), shows a wrong password as a failure, and the token works", async () => {
    const { username, password } = await t.stack.createAccount("CONSUMER");
    const tokenRequests: Request[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/openid-connect/token")) tokenRequests.push(request);
    });
    await page.goto(CONSOLE);
    await page.click(".btn.authorize");
    const oauth = page.locator(".auth-container", { hasText: "oauth2Password" });
    // The dialog's defaults: the client from initOAuth, its credentials in the Authorization header.
    expect(await oauth.locator("#client_id_password").inputValue()).toBe("content-partner-api");
    expect(await oauth.locator("#password_type").inputValue()).toBe("basic");

    await oauth.locator("#oauth_username").fill(username);
    await oauth.locator("#oauth_password").fill("not-the-password");
    await oauth.locator('button[aria-label="Apply given OAuth2 credentials"]').click();
    await expect.poll(() => oauth.innerText(), { timeout: 15_000 }).toMatch(/Auth Error.*invalid_grant.*Invalid user credentials/s);
    expect(await oauth.locator("text=Logout").count()).toBe(0);

    await oauth.locator("#oauth_password").fill(password);
    await oauth.locator('button[aria-label="Apply given OAuth2 credentials"]').click();
    await oauth.locator("button:has-text('Logout')").waitFor({ timeout: 15_000 });
    expect(await oauth.innerText()).toContain("Authorized");

    // What the dialog sent: RFC 6749 section 2.3.1, the public client's id and its empty password.
    expect(tokenRequests).toHaveLength(2);
    for (const request of tokenRequests) {
      expect(await request.headerValue("authorization")).toBe(`Basic ${Buffer.from("content-partner-api:").toString("base64")}`);
      expect(new URLSearchParams(request.postData() ?? "").get("client_id")).toBeNull();
    }

    // The console's own call carries the token the dialog got.
    await page.locator(".modal-ux .close-modal").click();
    const me = page.locator("#operations-Account-getMe");
    await me.locator(".opblock-summary").click();
    await me.locator(".try-out__btn").click();
    await me.locator(".execute").click();
    await expect.poll(() => me.locator(".live-responses-table .response .response-col_status").first().innerText(), { timeout: 15_000 }).toBe("200");
    expect(await me.locator(".live-responses-table .response .response-col_description").first().innerText()).toContain(username);
    expect(failures).toEqual([]);
  });
});

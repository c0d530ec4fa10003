import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Debian's package; .ci/run installs it when missing. Playwright's own browser downloads are never used. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless Chromium with a fresh profile of its own, reaching nothing but what a page asks for
 * (no background networking, updates or sync), and its first page.
 */
export async function openChromium(name: string): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium; .ci/run does)`);
  const profile = await mkdtemp(path.join(tmpdir(), `${name}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

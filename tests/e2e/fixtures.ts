// Each Playwright worker runs its own portal (the built Worker in workerd) from
// the seeded template, so tests can read and change its D1 and KV directly.
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createRequire } from "node:module";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { eventsConsumers, paymentsConsumers, startPortal, webhooksConsumers, type Portal } from "../support/portal";
import { mintSession } from "../support/sign-in";
import { E2E_TEMPLATE_STATE, prepareTemplateState } from "../support/state";
import { KUMASI } from "../support/tenants";

/** Who the browser is signed in as; null: signed out (the sign-in pages' tests). */
export interface SignedInAs {
  email: string;
  businessId: string | null;
}

export const KOFI_IN_KUMASI: SignedInAs = { email: "kofi.boateng@example.com", businessId: KUMASI };

/**
 * Chromium logs every non-2xx answer as "Failed to load resource: ... status of N": the
 * tests that provoke one assert its status themselves, so these lines are not defects.
 */
const NETWORK_STATUS_LINE = /^Failed to load resource: the server responded with a status of \d{3}/;

export const test = base.extend<
  { failOnCspViolation: void; failOnConsoleError: void; allowConsoleErrors: RegExp | null; signedInAs: SignedInAs | null },
  { portal: Portal }
>({
  // A test that provokes an error on purpose names it here, narrowly (test.use({ allowConsoleErrors: /.../ })).
  allowConsoleErrors: [null, { option: true }],
  // Screens behind sign-in are tested signed in, as an Administrator of Kumasi Fresh Foods by default.
  signedInAs: [KOFI_IN_KUMASI, { option: true }],
  context: async ({ context, signedInAs, portal }, use, testInfo) => {
    // Each test is its own client address (198.18.0.0/15, for tests), as separate
    // people would be: the per-address limits (120 analytics events a minute, email
    // lookups) then count one test's requests, not those of every test before it.
    // Miniflare keeps a CF-Connecting-IP the request already has; Cloudflare would not.
    const hash = createHash("sha256").update(testInfo.testId).digest();
    await context.setExtraHTTPHeaders({ "CF-Connecting-IP": `198.18.${hash[0]}.${hash[1]}` });
    if (signedInAs) {
      const session = await mintSession(await portal.db(), portal.url, signedInAs.email, signedInAs.businessId);
      await context.addCookies(session.browserCookies);
    }
    await use(context);
  },
  portal: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const template = await prepareTemplateState(E2E_TEMPLATE_STATE);
      // With the analytics consumer, so events the browser sends reach D1 (/__dev/events), and the Partner API's
      // and the webhooks' consumers, so payments sent to /api/v1 reach the screens and endpoints hear of them.
      const portal = await startPortal({
        template,
        queueConsumers: { ...eventsConsumers({ maxRetries: 3 }), ...paymentsConsumers(), ...webhooksConsumers() },
      });
      await use(portal);
      await portal.dispose();
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ portal }, use) => {
    await use(portal.url);
  },
  // A blocked script or style is a defect users would see as a broken page.
  failOnCspViolation: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await use();
      expect(violations, "CSP violations").toEqual([]);
    },
    { auto: true },
  ],
  // An error in the browser's console, or one no code caught, is a defect users would meet.
  failOnConsoleError: [
    async ({ context, portal, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      // The fake identity providers' pages are not the portal's.
      const ours = (page: Page | null) => page?.url().startsWith(portal.url) ?? true;
      const allowed = (text: string) => NETWORK_STATUS_LINE.test(text) || /Content Security Policy/i.test(text) || (allowConsoleErrors?.test(text) ?? false);
      // Every page of the test, popups included.
      context.on("console", (message) => {
        if (message.type() === "error" && ours(message.page()) && !allowed(message.text())) errors.push(message.text());
      });
      context.on("weberror", (error) => {
        if (ours(error.page()) && !allowed(error.error().message)) errors.push(`Uncaught: ${error.error().message}`);
      });
      await use();
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until React has hydrated the document (the shell marks <html>). */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/**
 * The signal to wait for before asserting that the page did nothing (asked for nothing, did not reload): the page's
 * pending tasks have run (a message posted now arrives after them, as React's scheduler posts its own), then a marker
 * fetch made after them has been seen here, so a request the page made before it has been reported. With `prefetches`,
 * a marker <link rel=prefetch> too: the browser sends those at idle priority, in the order asked, as it sends the page's
 * own prefetches (a test that asserts none were made asks for it). Works with the page's clock paused; a fixed wait
 * would prove nothing on a slow machine.
 */
export async function pageSettled(page: Page, options: { prefetches?: boolean } = {}): Promise<void> {
  const marker = `/favicon.svg?settled=${randomUUID()}`;
  const kinds = options.prefetches ? ["fetch", "link"] : ["fetch"];
  const seen = Promise.all(kinds.map((kind) => page.waitForRequest((request) => request.url().endsWith(`${marker}-${kind}`))));
  await page.evaluate(
    async ({ url, link }) => {
      const tasksRun = () =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = resolve;
          channel.port2.postMessage(null);
        });
      await tasksRun();
      if (link) {
        const prefetch = document.createElement("link");
        prefetch.rel = "prefetch";
        prefetch.href = `${url}-link`;
        document.head.appendChild(prefetch);
      }
      await fetch(`${url}-fetch`, { cache: "no-store" }).catch(() => null);
      await tasksRun();
    },
    { url: marker, link: options.prefetches === true },
  );
  await seen;
  if (options.prefetches) await page.evaluate((url) => document.head.querySelector(`link[href="${url}-link"]`)?.remove(), marker);
}

/**
 * Holds back the page's requests for a code file (`file`: its name before the hash, e.g. "security"): `asked` resolves
 * when the page asks for it, and the request goes on only after `release()`.
 */
export async function holdBackCode(page: Page, file: string): Promise<{ asked: Promise<void>; release: () => void }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let ask = () => {};
  const asked = new Promise<void>((resolve) => (ask = resolve));
  await page.route(new RegExp(`/assets/${file}-[\\w-]+\\.js$`), async (route) => {
    ask();
    await held;
    await route.continue();
  });
  return { asked, release: () => release() };
}

/** Leaves a mark on the window that only a full page load removes. */
export async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __ppMark?: number }).__ppMark = 1));
}

export async function windowIsMarked(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __ppMark?: number }).__ppMark === 1);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** What axe finds wrong on the page as it stands (WCAG 2.1 A and AA), one line per rule and place; empty when nothing. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/**
 * A screenshot for a person to look at (the screens a change touched, at 1280 and 390 px), taken only when SCREENSHOTS
 * names a folder (`SCREENSHOTS=tmp/shots npx playwright test tests/e2e/terminals.spec.ts`), under the file name the
 * test gives. No test asserts on one, so a plain run takes none: nothing is written into the tree, and CI does not pay
 * for about fifty full-page captures nobody opens.
 */
export async function lookAt(target: Page | Locator, options: { path: string; fullPage?: boolean; animations?: "disabled" | "allow" }): Promise<void> {
  const folder = process.env.SCREENSHOTS;
  if (!folder) return;
  const path = join(folder, basename(options.path));
  if ("goto" in target) await target.screenshot({ ...options, path });
  else await target.screenshot({ path, ...(options.animations ? { animations: options.animations } : {}) });
}

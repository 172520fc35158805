// SPEC section 7: "The first payload prefetch happens after 1 second and is skipped on a
// very slow connection." The page's clock is paused from the start, so "1 second" is the
// page's own second, whatever the machine's load.
import type { Page, Request } from "@playwright/test";
import { expect, hydrated, pageSettled, test } from "./fixtures";

const START = new Date("2026-11-23T09:00:00Z");

/** Remix single-fetch loader requests (the page's data) that the page makes from now on, apart from its own. */
function watchDataRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith(".data")) seen.push(url.pathname);
  });
  return seen;
}

/** <link>s the shell added for other pages (Remix's <Scripts> puts this page's own beside it, outside the shell). */
const prefetchLinks = (page: Page) => page.locator(".shell link[rel=prefetch], .shell link[rel=modulepreload]");

async function openPaused(page: Page, path: string): Promise<void> {
  await page.clock.install({ time: START });
  // A minute on: the clock ticks from install, and pausing in its past is refused. No page runs yet.
  await page.clock.pauseAt(START.getTime() + 60_000);
  await page.goto(path);
  await hydrated(page);
}

test("a second after the dashboard loads, its likely next pages are prefetched, not before", async ({ page }) => {
  const requests = watchDataRequests(page);
  // Real time passes (route discovery, any late work); the page's clock does not.
  const discovered = page.waitForResponse((response) => new URL(response.url()).pathname === "/__manifest");
  await openPaused(page, "/");
  await discovered;
  await pageSettled(page, { prefetches: true });
  await page.clock.runFor(990);
  await pageSettled(page, { prefetches: true });
  expect(requests, "nothing prefetched before 1 s").toEqual([]);
  await expect(prefetchLinks(page)).toHaveCount(0);

  await page.clock.runFor(10);
  await expect.poll(() => [...requests].sort()).toEqual(["/approvals.data", "/merchants.data", "/transactions.data"]);
  // The pages' code comes too, so the next click needs no round trip at all.
  await expect(page.locator(".shell link[rel=modulepreload]").first()).toBeAttached();
  expect(await page.locator(".shell link[rel=modulepreload]").evaluateAll((links) => links.map((l) => l.getAttribute("href")))).toContainEqual(
    expect.stringMatching(/transactions/),
  );
});

test("from a section, that section's next pages; the page itself is not fetched again", async ({ page }) => {
  const requests = watchDataRequests(page);
  await openPaused(page, "/merchants");
  await page.clock.runFor(1_000);
  await expect.poll(() => [...requests].sort()).toEqual(["/_root.data", "/pos-terminals.data", "/transactions.data"]);
});

test("a section hovered in the navigation is prefetched, its code and its data", async ({ page }) => {
  const requests = watchDataRequests(page);
  await openPaused(page, "/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).hover();
  // A hover counts as intent after a tenth of a second, as Remix's prefetch="intent".
  await page.clock.runFor(100);
  await expect.poll(() => requests).toEqual(["/reports.data"]);
  await expect(page.locator(".nav link[rel=modulepreload]").first()).toHaveAttribute("href", /reports\.route/);
});

for (const [label, connection] of [
  ["the person asked to save data", { saveData: true, effectiveType: "4g" }],
  ["the connection is 2g", { saveData: false, effectiveType: "2g" }],
  ["the connection is slow-2g", { saveData: false, effectiveType: "slow-2g" }],
] as const) {
  test(`nothing is prefetched when ${label}`, async ({ page }) => {
    await page.addInitScript((info) => {
      Object.defineProperty(Navigator.prototype, "connection", {
        configurable: true,
        get: () => ({ ...info, addEventListener() {}, removeEventListener() {} }),
      });
    }, connection);
    const requests = watchDataRequests(page);
    await openPaused(page, "/");
    await page.clock.runFor(5_000);
    await pageSettled(page, { prefetches: true });
    expect(requests).toEqual([]);
    await expect(prefetchLinks(page)).toHaveCount(0);

    // On to another section in the page: the dashboard's route is known to the browser now
    // (Remix's own link discovery also stands down when saving data), and still is not fetched.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transactions" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Transactions" })).toBeVisible();
    expect(requests).toEqual(["/transactions.data"]);
    await page.clock.runFor(5_000);
    await pageSettled(page, { prefetches: true });
    expect(requests).toEqual(["/transactions.data"]);
    await expect(prefetchLinks(page)).toHaveCount(0);
  });
}

test.describe("signed out", () => {
  test.use({ signedInAs: null });

  test("the sign-in page prefetches nothing", async ({ page }) => {
    const requests = watchDataRequests(page);
    await openPaused(page, "/login");
    await page.clock.runFor(5_000);
    await pageSettled(page, { prefetches: true });
    expect(requests).toEqual([]);
    await expect(prefetchLinks(page)).toHaveCount(0);
  });
});

// Decision 043: the first paint waits for the document alone; the page's code is asked for once the browser has painted.
test("a page is painted before any of its code is asked for, then hydrates", async ({ page }) => {
  await page.goto("/transactions");
  await hydrated(page);
  const { paint, scripts } = await page.evaluate(() => ({
    paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
    scripts: performance
      .getEntriesByType("resource")
      .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => ({ name: entry.name, startTime: entry.startTime })),
  }));
  expect(paint).toBeGreaterThan(0);
  expect(scripts.length).toBeGreaterThan(5);
  for (const script of scripts) expect(script.startTime, script.name).toBeGreaterThanOrEqual(paint!);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

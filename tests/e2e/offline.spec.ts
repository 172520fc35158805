// A dropped connection never ends on the browser's own "No internet" page: a prefetch or a page's code that cannot load
// leaves the document as it is (no reload), a page that cannot load shows the portal's "No connection" inside the shell,
// and it loads by itself when the connection is back.
import type { Page } from "@playwright/test";
import { expect, hydrated, markWindow, pageSettled, test, windowIsMarked, lookAt } from "./fixtures";

// Chromium logs each request it could not make; Remix logs the link lookups (route discovery) that failed offline.
test.use({
  allowConsoleErrors: /^(Failed to load resource: net::ERR_|Failed to fetch manifest patches|Action Failed\. Please check connectivity and try again )/,
});

const START = new Date("2026-11-23T09:00:00Z");
const CONNECTIVITY = "Action Failed. Please check connectivity and try again";

/** Opens a page with its clock paused, so the first prefetch (a page's second) waits for the test. */
async function openPaused(page: Page, path: string): Promise<void> {
  await page.clock.install({ time: START });
  await page.clock.pauseAt(START.getTime() + 60_000);
  // Route discovery of the page's links (Remix's manifest lookup: no code, no data) is done before the connection goes.
  const discovered = page.waitForResponse((response) => new URL(response.url()).pathname === "/__manifest");
  await page.goto(path);
  await hydrated(page);
  await discovered;
}

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

test("the first prefetch with no connection leaves the page as it is", async ({ page, context }) => {
  await openPaused(page, "/");
  await markWindow(page);
  await context.setOffline(true);
  await page.clock.runFor(1_000);
  // The first prefetch's moment has passed and what the page did then has run.
  await pageSettled(page);
  expect(await windowIsMarked(page)).toBe(true);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
});

test("a hover prefetch whose code cannot load leaves the page as it is", async ({ page }) => {
  await openPaused(page, "/");
  await markWindow(page);
  await page.route("**/assets/reports.route-*.js", (route) => route.abort("internetdisconnected"));
  const refused = page.waitForEvent("requestfailed", (request) => /\/assets\/reports\.route-[\w-]+\.js$/.test(new URL(request.url()).pathname));
  await nav(page).getByRole("link", { name: "Reports" }).hover();
  // Remix's wait before a hover counts as intent.
  await page.clock.runFor(200);
  await refused;
  await pageSettled(page);
  expect(await windowIsMarked(page)).toBe(true);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard");
});

for (const width of [1280, 390]) {
  test(`a page followed with no connection shows No connection in the shell, and loads by itself when the connection is back (${width} px)`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    await openPaused(page, "/");
    await markWindow(page);
    await context.setOffline(true);
    // At 390 px the navigation is a drawer behind the menu button.
    if (width < 980) await page.getByRole("button", { name: "Open menu" }).click();
    await nav(page).getByRole("link", { name: "Reports" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("No connection");
    await expect(page).toHaveURL(/\/reports$/);
    // SPEC section 2 has two titles for error pages; the heading says what happened.
    await expect(page).toHaveTitle("Internal Server Error");
    // The shell stays, with the business and the person it showed before.
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByTestId("topbar-context")).toContainText("Kumasi Fresh Foods");
    expect(await windowIsMarked(page)).toBe(true);
    await lookAt(page, { path: test.info().outputPath(`no-connection-${width}.png`) });

    await context.setOffline(false);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reports");
    await expect(page).toHaveTitle("Reports");
    expect(await windowIsMarked(page)).toBe(true);
  });
}

test("a page whose code does not arrive (its data did) shows No connection, not a reload, and Try again loads it", async ({ page }) => {
  await openPaused(page, "/");
  await markWindow(page);
  const chunk = "**/assets/reports.route-*.js";
  await page.route(chunk, (route) => route.abort("internetdisconnected"));
  await nav(page).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No connection");
  await expect(page).toHaveTitle("Internal Server Error");
  await expect(page.getByRole("banner")).toBeVisible();
  expect(await windowIsMarked(page)).toBe(true);

  await page.unroute(chunk);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reports");
  await expect(page).toHaveTitle("Reports");
  expect(await windowIsMarked(page)).toBe(true);
});

test("what was typed survives a send lost offline and the prefetch after it", async ({ page, context }) => {
  await openPaused(page, "/merchants/add-merchant");
  await markWindow(page);
  await page.getByLabel("Merchant code").fill("MRC-0701");
  await page.getByLabel("Registered name").fill("Ɛsi Ŋkansa Traders");
  await context.setOffline(true);
  await page.getByRole("button", { name: "Send for approval" }).click();
  await expect(page.getByTestId("alert")).toContainText(CONNECTIVITY);
  await page.clock.runFor(2_000);
  await pageSettled(page);
  expect(await windowIsMarked(page)).toBe(true);
  await expect(page.getByLabel("Registered name")).toHaveValue("Ɛsi Ŋkansa Traders");
});

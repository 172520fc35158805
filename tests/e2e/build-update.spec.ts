// SPEC sections 2, 7, 9: the client polls /builds/latest.json; when the deployed
// build differs, the next navigation is a full page load, at most once per 10 s.
// The poll is shortened through the documented test-only window setting.
import type { Page } from "@playwright/test";
import { BUILD_CHECK_INTERVAL_OVERRIDE } from "#app/lib/shell/build-check";
import { LATEST_BUILD_KEY } from "../support/portal";
import { expect, hydrated, markWindow, test, windowIsMarked } from "./fixtures";

const POLL_MS = 1_000;

test.beforeEach(async ({ page, portal }) => {
  await (await portal.kv()).put(LATEST_BUILD_KEY, portal.buildId);
  await page.addInitScript(([key, ms]) => ((window as unknown as Record<string, number>)[key as string] = ms as number), [
    BUILD_CHECK_INTERVAL_OVERRIDE,
    POLL_MS,
  ] as const);
  await page.clock.install();
});

async function pollOnce(page: Page, expectedBuildId: string) {
  const polled = page.waitForResponse(async (r) => r.url().includes("/builds/latest.json?t=") && (await r.json()).buildId === expectedBuildId);
  await page.clock.runFor(POLL_MS);
  await polled;
}

test("the same build keeps navigation in the page", async ({ page, portal }) => {
  await page.goto("/merchants");
  await hydrated(page);
  await markWindow(page);
  await pollOnce(page, portal.buildId);
  await page.getByRole("link", { name: "Transactions" }).click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByRole("heading", { level: 1, name: "Transactions" })).toBeVisible();
  expect(await windowIsMarked(page)).toBe(true);
});

test("a newer build turns the next navigation into a full page load, at most once per 10 000 ms", async ({ page, portal }) => {
  const polls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/builds/latest.json")) polls.push(new URL(request.url()).searchParams.get("t") ?? "");
  });
  await page.goto("/merchants");
  await hydrated(page);
  await markWindow(page);

  await (await portal.kv()).put(LATEST_BUILD_KEY, "a-newer-build");
  await pollOnce(page, "a-newer-build");
  // Nothing happens until the person navigates.
  expect(await windowIsMarked(page)).toBe(true);

  const documentLoad = page.waitForResponse((r) => r.request().resourceType() === "document" && r.url().endsWith("/reports"));
  await page.getByRole("link", { name: "Reports" }).click();
  await documentLoad;
  await hydrated(page);
  await expect(page).toHaveURL(/\/reports$/);
  expect(await windowIsMarked(page), "the navigation reloaded the page").toBe(false);

  // Still behind (KV says newer), but the last reload was under 10 s ago: stay in the page.
  await markWindow(page);
  await pollOnce(page, "a-newer-build");
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  expect(await windowIsMarked(page), "no second reload within 10 000 ms").toBe(true);

  // Once 10 s have passed, the next navigation may reload again.
  await page.clock.runFor(10_000);
  const secondLoad = page.waitForResponse((r) => r.request().resourceType() === "document" && new URL(r.url()).pathname === "/approvals");
  await page.getByRole("link", { name: "Approvals" }).click();
  await secondLoad;
  await hydrated(page);
  expect(await windowIsMarked(page)).toBe(false);

  // Every poll carried a cache-busting timestamp.
  expect(polls.length).toBeGreaterThan(0);
  for (const t of polls) expect(t).toMatch(/^\d+$/);
});

test("without the test setting the poll waits an hour", async ({ browser, portal }) => {
  const context = await browser.newContext({ baseURL: portal.url });
  const page = await context.newPage();
  await page.clock.install();
  let polls = 0;
  page.on("request", (request) => {
    if (request.url().includes("/builds/latest.json")) polls += 1;
  });
  await page.goto("/merchants");
  await hydrated(page);
  await page.clock.runFor(59 * 60 * 1000);
  expect(polls).toBe(0);
  const polled = page.waitForRequest((r) => r.url().includes("/builds/latest.json"));
  await page.clock.runFor(60 * 1000);
  await polled;
  expect(polls).toBe(1);
  await context.close();
});

// Each money list's "Export CSV" as Abena Darko (Finance) uses it: clicked on the list, the download read, and its
// rows compared with the rows on screen; the lists looked at 1280 and 390 px, with nothing axe finds.
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { api, makeKey } from "../support/partner-api";
import { KUMASI } from "../support/tenants";
import { axeViolations, expect, hydrated, lookAt, test } from "./fixtures";

type Portal = Parameters<typeof makeKey>[0];

/** Two disputes the processor opens through the Partner API (the seed has none), so the list has rows to export. */
async function openDisputes(portal: Portal): Promise<void> {
  const key = await makeKey(portal, KUMASI);
  const { results } = await (
    await portal.db()
  )
    .prepare(
      `SELECT t.reference, t.amount FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.cleared_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.transaction_id = t.id) ORDER BY t.amount LIMIT 50`,
    )
    .bind(KUMASI)
    .all<{ reference: string; amount: number }>();
  const payments = results.filter((p) => cardNumberPaths({ reference: p.reference }).length === 0).slice(0, 2);
  for (const [index, payment] of payments.entries()) {
    const due = new Date(Date.now() + (5 + index) * 86_400_000).toISOString().slice(0, 10);
    const opened = await api(portal, key, "/api/v1/disputes", {
      payment_reference: payment.reference,
      reason_code: "13.1",
      amount: payment.amount,
      currency: "GHS",
      evidence_due_by: due,
    });
    expect(opened.status).toBe(201);
  }
}

test.use({ signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

/** The download the list's Export CSV link gives, as rows of cells (no quoted commas in what is compared). */
async function exported(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv.startsWith("\uFEFF")).toBe(true);
  return csv
    .slice(1)
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));
}

/** The text of the table's body rows, one string per row. */
async function shownRows(page: Page, caption: string): Promise<string[]> {
  return page.getByRole("table", { name: caption }).locator("tbody tr").allInnerTexts();
}

const LISTS = [
  // [list, table caption, the CSV column the screen shows in each row, the screen's filter]
  { path: "/money/settlement-history?range=30d&status=paid", caption: "Settlements", column: "Reference", name: "settlement-history" },
  { path: "/money/merchant-funds?range=30d", caption: "Merchant funds", column: "Code", name: "merchant-funds" },
  { path: "/money/merchant-accounts?status=active", caption: "Merchant accounts", column: "Code", name: "merchant-accounts" },
  { path: "/disputes", caption: "Disputes", column: "Payment reference", name: "disputes" },
  { path: "/approvals?status=all", caption: "Approval requests", column: "Concerns", name: "approvals" },
] as const;

for (const list of LISTS) {
  test(`${list.name}: Export CSV holds the filtered rows the list shows, in its order`, async ({ page, portal }) => {
    if (list.name === "disputes") await openDisputes(portal);
    await page.goto(list.path);
    await hydrated(page);
    const rows = await shownRows(page, list.caption);
    expect(rows.length).toBeGreaterThan(0);
    const csv = await exported(page);
    const column = csv[0]!.indexOf(list.column);
    expect(column).toBeGreaterThanOrEqual(0);
    const body = csv.slice(1);
    // Exactly the filtered rows: one page with no next holds them all, and the file has no more; with a next page,
    // the file holds at least this one.
    const more = (await page.getByRole("link", { name: /^Next/ }).count()) > 0;
    if (more) expect(body.length).toBeGreaterThanOrEqual(rows.length);
    else expect(body.length).toBe(rows.length);
    if (list.name === "settlement-history") expect(new Set(body.map((cells) => cells[csv[0]!.indexOf("Status")]))).toEqual(new Set(["paid"]));
    // The screen's first page is the file's first rows, one for one.
    rows.forEach((row, index) => expect(row).toContain(body[index]![column]!.replace(/^'/, "")));
    await lookAt(page, { path: `exports-${list.name}-1280.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  });
}

test("a transfer history's Export CSV holds its transfers", async ({ page }) => {
  await page.goto("/money/merchant-accounts");
  await hydrated(page);
  await page
    .getByRole("link", { name: /^Transfer history of / })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Transfer History" })).toBeVisible();
  const rows = await page.locator("table tbody tr").allInnerTexts();
  if (rows.length > 0) {
    const csv = await exported(page);
    expect(csv.length - 1).toBe(rows.length);
  }
  await lookAt(page, { path: "exports-transfer-history-1280.png", fullPage: true });
  expect(await axeViolations(page)).toEqual([]);
});

test("Settlement History: the period picker narrows the list, and the CSV follows", async ({ page, portal }) => {
  // A settlement of a day long past: in every day's list and file, in no recent period's.
  const old = `STL-E2E-${Date.now()}`;
  const periodStart = Date.UTC(2024, 0, 15);
  await (
    await portal.db()
  )
    .prepare(
      `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, attempts, created_at, paid_at)
       SELECT ?, a.business_id, a.merchant_id, a.id, ?, ?, 1000, 10, 990, 'paid', ?, 1, ?, ? FROM settlement_accounts a
       WHERE a.business_id = ? AND a.merchant_id = 'mer_kff_0001' AND a.status = 'active' LIMIT 1`,
    )
    .bind(
      `stl_${old}`,
      periodStart,
      periodStart + 86_400_000,
      old,
      new Date(periodStart + 86_400_000).toISOString(),
      new Date(periodStart + 90_000_000).toISOString(),
      KUMASI,
    )
    .run();
  await page.goto("/money/settlement-history");
  await hydrated(page);
  const period = page.getByRole("navigation", { name: "Period" });
  await expect(period.getByRole("link", { name: "All days" })).toHaveAttribute("aria-current", "true");
  await period.getByRole("link", { name: "Today" }).click();
  await expect(page).toHaveURL(/range=today/);
  await expect(period.getByRole("link", { name: "Today" })).toHaveAttribute("aria-current", "true");
  await period.getByRole("link", { name: "Last 30 days" }).click();
  await expect(page).toHaveURL(/range=30d/);
  const csv = await exported(page);
  const day = csv[0]!.indexOf("Period");
  const reference = csv[0]!.indexOf("Reference");
  const first = Date.parse(`${new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`);
  expect(csv.length).toBeGreaterThan(1);
  expect(csv.slice(1).every((cells) => Date.parse(`${cells[day]}T00:00:00Z`) >= first)).toBe(true);
  expect(csv.slice(1).map((cells) => cells[reference])).not.toContain(old);
  // Every day's file has the old one too: the period, not the file, left it out.
  await period.getByRole("link", { name: "All days" }).click();
  await expect(period.getByRole("link", { name: "All days" })).toHaveAttribute("aria-current", "true");
  const all = await exported(page);
  expect(all.slice(1).map((cells) => cells[reference])).toContain(old);
  expect(all.length).toBeGreaterThan(csv.length);
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const list of LISTS) {
    test(`${list.name} fits, its Export CSV in reach`, async ({ page, portal }) => {
      if (list.name === "disputes") await openDisputes(portal);
      await page.goto(list.path);
      await hydrated(page);
      await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await lookAt(page, { path: `exports-${list.name}-390.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

test.describe("an export a role may not take", () => {
  test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: KUMASI } });

  test("opened in the browser, it is the portal's 403 page in the portal's look, with its way back", async ({ page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const response = await page.goto("/money/settlement-history/export");
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { level: 1, name: "You don't have access to this page" })).toBeVisible();
      await expect(page.getByTestId("error-message")).toHaveText("You do not have permission to do that.");
      await expect(page.getByRole("link", { name: "Partners Portal, dashboard" })).toBeVisible();
      // The portal's stylesheet, not the browser's defaults: the way back is the portal's primary button, on its card.
      const back = page.getByRole("link", { name: "Go to the dashboard" });
      expect(await back.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
      expect(await page.locator("main").evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe(
        await page.locator("body").evaluate((element) => getComputedStyle(element).backgroundColor),
      );
      await lookAt(page, { path: `tmp/export-forbidden-${width}.png`, fullPage: true });
    }
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Go to the dashboard" }).click();
    await expect(page).toHaveTitle(/Dashboard/);
  });
});

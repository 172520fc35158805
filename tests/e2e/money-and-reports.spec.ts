// Reports, merchant accounts and a transfer history as Abena Darko (Finance)
// reads them, on a desktop and at 390 px.
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";

test.use({ signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

test("reports: a period, a grouping, the chart and the CSV link", async ({ page }) => {
  await page.goto("/reports");
  await hydrated(page);
  await expect(page).toHaveTitle("Reports");
  await expect(page.getByRole("group", { name: /Value of successful payments per day/ })).toBeVisible();
  await page.getByRole("navigation", { name: "Group by" }).getByRole("link", { name: "By merchant" }).click();
  await expect(page).toHaveURL(/by=merchant/);
  await expect(page.getByRole("columnheader", { name: "Merchant" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Share of value" })).toBeVisible();
  const total = await page.getByTestId("report-totals").locator("dd").first().textContent();
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Today" }).click();
  await expect(page).toHaveURL(/range=today/);
  await expect(page).toHaveURL(/by=merchant/);
  await expect(page.getByTestId("report-totals").locator("dd").first()).not.toHaveText(total ?? "");
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Last 30 days" }).click();
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
});

test("merchant accounts lead to a transfer history", async ({ page }) => {
  await page.goto("/money/merchant-accounts");
  await hydrated(page);
  await expect(page.getByRole("columnheader", { name: "Available (GHS)" })).toBeVisible();
  await page
    .getByRole("link", { name: /^Transfer history of / })
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Transfer History" })).toBeVisible();
  await expect(page.getByTestId("balances")).toContainText("Available (GHS)");
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const path of ["/reports", "/reports?by=merchant", "/money/merchant-accounts", "/"]) {
    test(`${path} fits without sideways scrolling`, async ({ page }) => {
      await page.goto(path);
      await hydrated(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});

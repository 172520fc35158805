// /transactions as Abena Darko (Finance) works it: a quick period, a filter,
// a payment's detail with its postings (closed by Escape), the CSV link, a
// payment found by the last digits of its reference, 390 px.
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";

test.use({ signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

test("a period, a filter, a payment's postings, and back", async ({ page }) => {
  await page.goto("/transactions");
  await hydrated(page);
  await expect(page).toHaveTitle("Transactions");
  const period = page.getByRole("navigation", { name: "Period" });
  await expect(period.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "true");
  await period.getByRole("link", { name: "Last 30 days" }).click();
  await expect(page).toHaveURL(/range=30d/);
  const totals = page.getByTestId("totals");
  const allPayments = await totals.locator("dd").first().textContent();

  await page.getByLabel("Status").selectOption("failed");
  await expect(page).toHaveURL(/status=failed/);
  await expect(totals.locator("dd").first()).not.toHaveText(allPayments ?? "");
  // Failed payments move no money.
  await expect(totals.locator("dd").nth(1)).toHaveText("0.00");

  await page.getByLabel("Status").selectOption("successful");
  // The failed payments stay on screen until the successful ones arrive: open one of those.
  await expect(page).toHaveURL(/status=successful/);
  await expect(totals.locator("dd").nth(1)).not.toHaveText("0.00");
  await page.getByRole("table").getByRole("link").first().click();
  const detail = page.getByTestId("payment-detail");
  await expect(detail.getByRole("heading", { level: 3, name: "Ledger postings" })).toBeVisible();
  await expect(detail.getByRole("row")).not.toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(detail).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
});

test("the last digits of a reference, typed from a receipt, find the payment", async ({ page }) => {
  // Days the seed filled and no other test sends payments to (they send today's).
  const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/transactions?range=custom&from=${day(20)}&to=${day(2)}`);
  await hydrated(page);
  const references = page.getByRole("table").getByRole("link").locator("strong");
  const reference = (await references.nth(9).textContent())!.trim();
  const digits = reference.slice(-6);
  expect(digits).toMatch(/^\d{6}$/);

  const search = page.getByRole("searchbox", { name: "Search transactions" });
  await expect(search).toHaveAttribute("placeholder", "Reference, phone, last 4 or amount");
  await search.fill(digits);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${digits}`));
  await expect(references.filter({ hasText: reference })).toHaveCount(1);
  await references.filter({ hasText: reference }).click();
  await expect(page.getByTestId("payment-detail").getByRole("heading", { name: reference })).toBeVisible();
});

test("a typed period that cannot be is refused by the date fields", async ({ page }) => {
  await page.goto("/transactions?range=custom&from=2026-03-10&to=2026-03-01");
  await expect(page.getByRole("alert").filter({ hasText: "The first day must not be after the last day." })).toBeVisible();
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("cards, totals and the detail fit without sideways scrolling", async ({ page }) => {
    await page.goto("/transactions?range=30d");
    await hydrated(page);
    await page.getByRole("table").getByRole("link").first().click();
    await expect(page.getByTestId("payment-detail")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await lookAt(page, { path: "test-results/transactions-390.png" });
  });
});

test("the last four digits the payer column shows of a phone find its payment", async ({ page }) => {
  const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/transactions?range=custom&from=${day(20)}&to=${day(2)}`);
  await hydrated(page);
  const rows = page.getByRole("table").getByRole("row");
  const phoneRow = rows.filter({ hasText: /233\*+\d{4}/ }).first();
  const shown = (await phoneRow.textContent())!;
  const [, digits] = /233\*+(\d{4})/.exec(shown)!;
  const reference = (await phoneRow.getByRole("link").locator("strong").textContent())!.trim();

  const search = page.getByRole("searchbox", { name: "Search transactions" });
  await search.fill(digits!);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${digits}`));
  const found = page.getByRole("table").getByRole("link").locator("strong");
  await expect(found.filter({ hasText: reference })).toHaveCount(1);
});

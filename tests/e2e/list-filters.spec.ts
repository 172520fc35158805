// A list's controls change only what they set: a Status filter, a search or Clear keeps the chosen period (a quick
// one or a custom one), with the script and without it.
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";

test.use({ signedInAs: { email: "abena.darko@example.com", businessId: KUMASI } });

/** A day in Africa/Accra (UTC all year) `daysAgo` days before today, as the date fields write it. */
function day(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

test("a filter and Clear keep a quick period", async ({ page }) => {
  await page.goto("/transactions?range=30d");
  await hydrated(page);
  const period = page.getByRole("navigation", { name: "Period" });
  await page.getByLabel("Status").selectOption("successful");
  await expect(page).toHaveURL(/status=successful/);
  expect(new URL(page.url()).searchParams.get("range")).toBe("30d");
  await expect(period.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");

  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).not.toHaveURL(/status=/);
  expect(new URL(page.url()).searchParams.get("range")).toBe("30d");
  await expect(period.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");
});

test("a search keeps a custom period, and a new period keeps the search", async ({ page }) => {
  const from = day(20);
  const to = day(3);
  await page.goto(`/transactions?range=custom&from=${from}&to=${to}`);
  await hydrated(page);
  const lead = await page.locator(".page__lead").textContent();
  await page.getByRole("searchbox", { name: "Search transactions" }).fill("Ɔsu 🍍");
  await page.getByRole("searchbox", { name: "Search transactions" }).press("Enter");
  await expect(page).toHaveURL(/q=/);
  const params = new URL(page.url()).searchParams;
  expect([params.get("range"), params.get("from"), params.get("to"), params.get("q")]).toEqual(["custom", from, to, "Ɔsu 🍍"]);
  await expect(page.locator(".page__lead")).toHaveText(lead ?? "");

  await page.getByRole("textbox", { name: "From" }).fill(day(10));
  await page.getByRole("button", { name: "Show period" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${day(10)}`));
  expect(new URL(page.url()).searchParams.get("q")).toBe("Ɔsu 🍍");
});

test("a filter on a later page starts the narrowed list at its first page", async ({ page }) => {
  await page.goto("/transactions?range=90d");
  await hydrated(page);
  await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await page.getByLabel("Channel").selectOption("card");
  await expect(page).toHaveURL(/channel=card/);
  const params = new URL(page.url()).searchParams;
  expect([params.get("range"), params.get("page"), params.get("trail")]).toEqual(["90d", null, null]);
});

test.describe("without the script", () => {
  test.use({ javaScriptEnabled: false });

  test("Apply keeps the period the tabs chose", async ({ page }) => {
    await page.goto("/transactions?range=30d");
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("search").getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/status=failed/);
    const params = new URL(page.url()).searchParams;
    expect([params.getAll("range"), params.getAll("status")]).toEqual([["30d"], ["failed"]]);
    await expect(page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "true");
  });
});

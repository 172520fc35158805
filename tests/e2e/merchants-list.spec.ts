// /merchants as people use it: search, a filter that applies on change, pages
// by number and back, the CSV, and the cards at 390 px.
import { mintSession } from "../support/sign-in";
import { ACCRA } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";

// Yaw Asante (Viewer) in Accra Mobile Pay, where this file adds 30 merchants of its own.
test.use({ signedInAs: { email: "yaw.asante@example.com", businessId: ACCRA } });

test.beforeAll(async ({ portal }) => {
  const db = await portal.db();
  const already = await db.prepare("SELECT COUNT(*) AS n FROM merchants WHERE id LIKE 'mer_e2e_%'").first<number>("n");
  if (already) return;
  await db.batch(
    Array.from({ length: 30 }, (_, i) => {
      const n = String(i + 1).padStart(2, "0");
      return db
        .prepare(
          `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, status, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'Pharmacy', 'Ho', 'Volta', '2 Market Street', 'E2E Contact', ?, 'e2e@example.com', ?, '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z')`,
        )
        .bind(
          `mer_e2e_${n}`,
          ACCRA,
          `E2E-${n}`,
          `Volta Chemist ${n}`,
          `Volta Chemist ${n}`,
          `Q10000000${n}`,
          `2335000000${n}`,
          i % 10 === 0 ? "inactive" : "active",
        );
    }),
  );
});

test("search, a filter applied on change, and pages by number with the trail", async ({ page }) => {
  await page.goto("/merchants");
  await hydrated(page);
  await expect(page).toHaveTitle("Merchants");
  // A Viewer reads: no Add merchant, no export.
  await expect(page.getByRole("link", { name: "Add merchant" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);

  await page.getByLabel("Region").selectOption("Volta");
  await expect(page).toHaveURL(/region=Volta/);
  await expect(page.getByText("Showing 1–25 of 30 merchants")).toBeVisible();
  const pager = page.getByRole("navigation", { name: "Pages" });
  await pager.getByRole("link", { name: "Next" }).click();
  await expect(page.getByText("Showing 26–30 of 30 merchants")).toBeVisible();
  await expect(page).toHaveURL(/page=2&trail=/);
  await expect(pager.getByText("2", { exact: true })).toHaveAttribute("aria-current", "page");
  await pager.getByRole("link", { name: "Previous" }).click();
  await expect(page.getByText("Showing 1–25 of 30 merchants")).toBeVisible();

  await page.getByLabel("Search merchants").fill("Chemist 07");
  await page.getByLabel("Search merchants").press("Enter");
  await expect(page.getByText("Showing 1–1 of 1 merchant")).toBeVisible();
  await expect(page.getByRole("link", { name: /Volta Chemist 07/ })).toBeVisible();

  await page.getByLabel("Status").selectOption("inactive");
  await expect(page.getByText("No merchant matches")).toBeVisible();
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/merchants\?$|\/merchants$/);
});

// Decision 033: a name pasted whole (longer than D1's 50-byte LIKE pattern) answered 500.
test("a long registered name pasted into the search finds its merchant", async ({ page, portal }) => {
  const name = "Ɔkɔdeɛ Ŋmɛ Pharmacy & Herbal Centre Limited 🌿 (registered under the Companies Act 2019, Act 992) Takoradi Harbour Road Branch, Western Region";
  const db = await portal.db();
  await db
    .prepare(
      `INSERT OR IGNORE INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone,
         contact_email, status, created_at, updated_at)
       VALUES ('mer_e2e_long', ?, 'E2E-LONG', ?, 'Ɔkɔdeɛ Ŋmɛ Pharmacy', 'Q1000000099', 'Pharmacy', 'Takoradi', 'Western', 'Harbour Road', 'E2E Contact',
         '233500000099', 'e2e@example.com', 'active', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z')`,
    )
    .bind(ACCRA, name)
    .run();
  await page.goto("/merchants");
  await hydrated(page);
  const search = page.getByLabel("Search merchants");
  await search.fill(name);
  await search.press("Enter");
  await expect(page.getByText("Showing 1–1 of 1 merchant")).toBeVisible();
  await expect(page.getByRole("link", { name })).toBeVisible();
  await expect(search).toHaveValue(name);
});

test("works before the script: the Apply button submits the filters", async ({ browser, portal }) => {
  const context = await browser.newContext({ baseURL: portal.url, javaScriptEnabled: false });
  const session = await mintSession(await portal.db(), portal.url, "yaw.asante@example.com", ACCRA);
  await context.addCookies(session.browserCookies);
  const page = await context.newPage();
  await page.goto("/merchants");
  await page.getByLabel("Status").selectOption("inactive");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText(/Showing 1–\d+ of \d+ merchants?/)).toBeVisible();
  await expect(page).toHaveURL(/status=inactive/);
  await context.close();
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("each merchant is a card with its labels, and nothing scrolls sideways", async ({ page }) => {
    await page.goto("/merchants?region=Volta");
    await hydrated(page);
    const firstRow = page.getByRole("row").nth(1);
    await expect(firstRow.getByRole("cell").first()).toBeVisible();
    const label = await firstRow
      .getByRole("cell")
      .nth(1)
      .evaluate((cell) => getComputedStyle(cell, "::before").content);
    expect(label).toBe('"Code"');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

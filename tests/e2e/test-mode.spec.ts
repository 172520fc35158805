// Test mode in the browser (decision 045): Kofi Boateng (Administrator of Kumasi Fresh Foods) opens
// the business menu and chooses Test mode; every page says so; he makes a pp_test_ key on the Developers tab, a payment
// sent with it shows on test mode's Transactions and not on the live business's; "Back to live data" returns him. The
// screens pass axe and fit at 1280 and 390 px.
import type { Page } from "@playwright/test";
import { testBusinessOf } from "#server/tenancy/test-mode";
import { starterIds } from "#server/tenancy/test-mode.db";
import { api, eventually, momoPayment } from "../support/partner-api";
import { KUMASI } from "../support/tenants";
import { axeViolations, expect, hydrated, test, lookAt } from "./fixtures";
import { passCheckDialog } from "./fresh-check";

const topbar = (page: Page) => page.getByTestId("topbar-context");

async function openMenu(page: Page, name: RegExp) {
  await topbar(page).getByLabel(name).click();
}

test("Kofi works in test mode: the banner on every page, a pp_test_ key, a payment only test mode sees, and back to live", async ({ page, portal }) => {
  // Eleven pages, six of them checked by axe: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);
  await page.goto("/");
  await hydrated(page);
  await expect(page.getByTestId("test-mode-banner")).toHaveCount(0);
  await openMenu(page, /^Business: Kumasi Fresh Foods, Administrator\. Switch business$/);
  await topbar(page)
    .getByRole("button", { name: /Test mode/ })
    .click();
  await expect(page).toHaveURL(/\/$/);
  const banner = page.getByTestId("test-mode-banner");
  await expect(banner).toContainText("Test mode.");
  await expect(banner).toContainText("nothing here is real money or reaches your live data");
  await expect(topbar(page).getByLabel("Business: Kumasi Fresh Foods, Test mode, Administrator. Switch business")).toBeVisible();

  // The starter set: a merchant to take the first payment.
  await page.goto("/merchants");
  await hydrated(page);
  await expect(banner).toBeVisible();
  await expect(page.getByRole("link", { name: "Test Merchant" })).toBeVisible();

  // A pp_test_ key, as on live data: named, checked, shown once.
  await page.goto("/settings?tab=developers");
  await hydrated(page);
  await expect(page.getByText("Test keys: they start with pp_test_")).toBeVisible();
  const create = page.getByRole("region", { name: "Create key" });
  await create.getByLabel("Name").fill("Sandbox till Ɔ 🧪");
  await create.getByRole("button", { name: "Create key" }).click();
  await passCheckDialog(page, portal);
  await create.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
  expect(secret).toMatch(/^pp_test_[0-9A-Za-z]{32}$/);

  // A payment sent with it, at the starter merchant.
  const ids = await starterIds(testBusinessOf(KUMASI));
  const reference = `E2E-TEST-${Date.now().toString(36)}`;
  const sent = await api(portal, secret, "/api/v1/payments", {
    payments: [
      momoPayment({ merchantId: ids.merchant, merchantCode: "MRC-TEST", pointOfSaleId: ids.pointOfSale, serial: ids.serial }, { reference, amount: 4_321 }),
    ],
  });
  expect(sent.status).toBe(202);
  const db = await portal.db();
  await eventually(async () => (await db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE reference = ?").bind(reference).first<number>("n")) === 1);
  await page.goto(`/transactions?q=${reference}`);
  await hydrated(page);
  await expect(page.getByRole("cell", { name: reference })).toBeVisible();

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    for (const path of ["/", `/transactions?q=${reference}`, "/settings?tab=developers"]) {
      await page.goto(path);
      await hydrated(page);
      await expect(banner).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${path} at ${width} px`).toBe(0);
      expect(await axeViolations(page), `${path} at ${width} px`).toEqual([]);
    }
    await page.goto("/");
    await hydrated(page);
    await lookAt(page, { path: test.info().outputPath(`test-mode-dashboard-${width}.png`), fullPage: width < 500 });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back to live data, from the banner: the payment is not there.
  await page.goto("/");
  await hydrated(page);
  await banner.getByRole("button", { name: "Back to live data" }).click();
  await expect(page.getByTestId("test-mode-banner")).toHaveCount(0);
  await expect(topbar(page).getByLabel("Business: Kumasi Fresh Foods, Administrator. Switch business")).toBeVisible();
  await page.goto(`/transactions?q=${reference}`);
  await hydrated(page);
  await expect(page.getByText("No payments match")).toBeVisible();
  await expect(page.getByRole("cell", { name: reference })).toHaveCount(0);
});

test("the business menu closes once the switch is made, and on Escape, a click elsewhere and a link followed", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const menu = topbar(page).locator("details.business-switcher");
  await openMenu(page, /^Business: Kumasi Fresh Foods, Administrator\. Switch business$/);
  await topbar(page)
    .getByRole("button", { name: /Test mode/ })
    .click();
  await expect(page.getByTestId("test-mode-banner")).toBeVisible();
  // Back on the same page ("/"), the switch made: the menu is closed and the banner is not under it.
  await expect(menu).not.toHaveAttribute("open", "");
  await expect(topbar(page).getByRole("button", { name: /Back to live data/ })).toBeHidden();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await lookAt(page, { path: `tmp/business-menu-after-switch-${width}.png`, animations: "disabled" });
  }
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  const summary = topbar(page).getByLabel(/^Business: Kumasi Fresh Foods, Test mode, Administrator\. Switch business$/);
  await summary.click();
  await expect(menu).toHaveAttribute("open", "");
  await page.keyboard.press("Escape");
  await expect(menu).not.toHaveAttribute("open", "");
  await expect(summary).toBeFocused();
  await summary.click();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(menu).not.toHaveAttribute("open", "");
  await summary.click();
  await page.getByRole("navigation").getByRole("link", { name: "Merchants" }).first().click();
  await expect(page).toHaveURL(/\/merchants$/);
  await expect(menu).not.toHaveAttribute("open", "");

  await summary.click();
  await topbar(page)
    .getByRole("button", { name: /Back to live data/ })
    .click();
  await expect(page.getByTestId("test-mode-banner")).toHaveCount(0);
  await expect(menu).not.toHaveAttribute("open", "");
});

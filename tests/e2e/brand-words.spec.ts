// SPEC 9's brand word and SPEC 5's a/b rule, one rule wherever text is shown: a merchant whose name was typed before
// the rebrand ("Vodafone Corner Ɔsu", sector "Retail/Vodafone agents") reads "Telecel Corner Ɔsu" and "Telecel agents
// Retail" in the lists' and the top bar's search, in an alert, on a request page, in the terminal form and in the
// CSVs, and a search for either word finds it. As Kofi Boateng (Administrator), at 1280 and 390 px.
import type { Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { KUMASI } from "../support/tenants";
import { expect, hydrated, lookAt, test } from "./fixtures";

const STORED = { name: "Vodafone Corner Ɔsu", trading: "VODAFONE CORNER", sector: "Retail/Vodafone agents" };
const SHOWN = { name: "Telecel Corner Ɔsu", trading: "TELECEL CORNER", sector: "Telecel agents Retail" };

interface Merchant {
  id: string;
  code: string;
  name: string;
  trading: string;
  sector: string;
}

/**
 * Runs `check` with an active merchant (no request pending on it, with payments and a terminal, as the CSVs need: a
 * merchant another spec added has neither) renamed the old way, and its names back after.
 */
async function withOldNames(portal: Portal, check: (merchant: Merchant) => Promise<void>): Promise<void> {
  const db = portal.businessDb(KUMASI);
  const merchant = (await db
    .prepare(
      `SELECT id, code, name, trading_name AS trading, sector FROM merchants m WHERE business_id = ?1 AND status = 'active'
         AND NOT EXISTS (SELECT 1 FROM approval_requests r WHERE r.business_id = ?1 AND r.kind = 'merchant' AND r.target_id = m.id AND r.status = 'pending')
         AND EXISTS (SELECT 1 FROM transactions t WHERE t.business_id = ?1 AND t.merchant_id = m.id)
         AND EXISTS (SELECT 1 FROM terminals d WHERE d.business_id = ?1 AND d.merchant_id = m.id)
       ORDER BY id DESC LIMIT 1`,
    )
    .bind(KUMASI)
    .first<Merchant>())!;
  const rename = (to: Omit<Merchant, "id" | "code">) =>
    db.prepare("UPDATE merchants SET name = ?, trading_name = ?, sector = ? WHERE id = ?").bind(to.name, to.trading, to.sector, merchant.id).run();
  await rename(STORED);
  try {
    await check(merchant);
  } finally {
    await rename(merchant);
  }
}

/** Asks to deactivate the merchant from its page (the alert names it) and gives the request's id. */
async function requestDeactivation(page: Page, portal: Portal, merchant: Merchant): Promise<string> {
  await page.goto(`/merchants/${merchant.id}?deactivate=merchant`);
  await hydrated(page);
  await page.getByRole("button", { name: "Yes, request deactivation" }).click();
  await expect(page.getByTestId("alert")).toBeVisible();
  return (await portal
    .businessDb(KUMASI)
    .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND target_id = ? AND status = 'pending'")
    .bind(KUMASI, merchant.id)
    .first<string>("id"))!;
}

const forget = (portal: Portal, requestId: string) => portal.businessDb(KUMASI).prepare("DELETE FROM approval_requests WHERE id = ?").bind(requestId).run();

test("either word finds the merchant, in its list's search and in the top bar's, shown with the new word", async ({ page, portal }) => {
  await withOldNames(portal, async (merchant) => {
    for (const typed of ["Telecel Corner", "vodafone corner"]) {
      await page.goto(`/merchants?q=${encodeURIComponent(typed)}`);
      await expect(page.getByRole("table").getByRole("row").filter({ hasText: merchant.code })).toContainText(SHOWN.name);
    }
    await hydrated(page);
    await page.keyboard.press("/");
    const dialog = page.getByRole("dialog", { name: "Search" });
    for (const typed of ["Telecel Corner", "VODAFONE CORNER"]) {
      await dialog.getByRole("combobox", { name: "Search" }).fill(typed);
      await expect(dialog.getByRole("group", { name: "Merchants" }).getByRole("option", { name: SHOWN.name })).toBeVisible();
      await expect(dialog).not.toContainText("Vodafone");
    }
  });
});

test("an alert that names the merchant says the new word", async ({ page, portal }) => {
  await withOldNames(portal, async (merchant) => {
    await page.goto(`/merchants/${merchant.id}?deactivate=merchant`);
    await hydrated(page);
    // Soft: the alert is checked whatever the form said.
    await expect.soft(page.locator("main")).toContainText(`Deactivate ${SHOWN.name}?`);
    const requestId = await requestDeactivation(page, portal, merchant);
    try {
      const alert = page.getByTestId("alert");
      await expect(alert).toContainText(`Deactivating ${SHOWN.name}: Sent for approval`);
      await expect(alert).not.toContainText("Vodafone");
    } finally {
      await forget(portal, requestId);
    }
  });
});

test("the checker's request page shows the name, the trading name and the sector as the list does", async ({ page, portal }, testInfo) => {
  await withOldNames(portal, async (merchant) => {
    const requestId = await requestDeactivation(page, portal, merchant);
    try {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.goto(`/approvals/merchant/${requestId}`);
        await hydrated(page);
        const main = page.locator("main");
        await expect(main.locator(".page__lead")).toContainText(SHOWN.name);
        const rowOf = (label: string) =>
          page
            .getByRole("table")
            .getByRole("row")
            .filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
        await expect(rowOf("Name")).toContainText(SHOWN.name);
        await expect(rowOf("Trading name")).toContainText(SHOWN.trading);
        await expect(rowOf("Sector")).toContainText(SHOWN.sector);
        await expect(main).not.toContainText(/vodafone|Retail\//i);
        await lookAt(page, { path: testInfo.outputPath(`brand-request-${width}.png`), fullPage: true });
      }
    } finally {
      await forget(portal, requestId);
    }
  });
});

test("the terminal form lists the merchant, and its points of sale, with the new word", async ({ page, portal }, testInfo) => {
  const terminal = (await portal
    .businessDb(KUMASI)
    .prepare("SELECT id FROM terminals WHERE business_id = ? AND status = 'in_stock' ORDER BY id LIMIT 1")
    .bind(KUMASI)
    .first<{ id: string }>())!;
  await withOldNames(portal, async (merchant) => {
    await page.goto(`/pos-terminals/device-details/${terminal.id}`);
    await hydrated(page);
    const choice = page.getByLabel("Merchant", { exact: true });
    await expect(choice.locator("option", { hasText: SHOWN.name })).toHaveCount(1);
    await expect(choice).not.toContainText("Vodafone");
    await choice.selectOption(merchant.id);
    await expect(page.getByRole("heading", { name: `Points of sale of ${SHOWN.name}` })).toBeVisible();
    await lookAt(page, { path: testInfo.outputPath("brand-terminal-1280.png"), fullPage: true });
  });
});

test("the merchants', transactions' and terminals' CSVs say the new word, and the sector by the a/b rule", async ({ page, portal }) => {
  await withOldNames(portal, async (merchant) => {
    const payment = (await portal
      .businessDb(KUMASI)
      .prepare("SELECT reference, created_at AS createdAt FROM transactions WHERE business_id = ? AND merchant_id = ? ORDER BY created_at DESC LIMIT 1")
      .bind(KUMASI, merchant.id)
      .first<{ reference: string; createdAt: number }>())!;
    const csv = async (path: string) => {
      const response = await page.request.get(path);
      expect(response.status()).toBe(200);
      return response.text();
    };
    const merchants = await csv(`/merchants/export?q=${encodeURIComponent(merchant.code)}`);
    expect(merchants).toContain(`${merchant.code},${SHOWN.name},${SHOWN.trading}`);
    expect(merchants).toContain(`,${SHOWN.sector},`);
    const day = new Date(payment.createdAt).toISOString().slice(0, 10);
    const transactions = await csv(`/transactions/export?range=custom&from=${day}&to=${day}&q=${encodeURIComponent(payment.reference)}`);
    expect(transactions.split("\r\n").find((line) => line.startsWith(payment.reference))).toContain(`,${SHOWN.name},`);
    const terminals = await csv(`/pos-terminals/export?merchant=${merchant.id}`);
    expect(terminals).toContain(`,${SHOWN.name},`);
    for (const file of [merchants, transactions, terminals]) expect(file).not.toMatch(/vodafone|Retail\//i);
  });
});

// SPEC 9's brand word and SPEC 5's a/b rule, one rule wherever text is shown: a merchant whose name was typed before
// the rebrand ("Vodafone Corner Ɔsu", sector "Retail/Vodafone agents") reads "Telecel Corner Ɔsu" and "Telecel agents
// Retail" on the list, in the top bar's search and the list's, in an alert, on a request page, in the terminal form
// and in the CSVs, and a search for either word finds it. As Kofi Boateng (Administrator), at 1280 and 390 px.
import { KUMASI } from "../support/tenants";
import { expect, hydrated, lookAt, test } from "./fixtures";

const STORED = { name: "Vodafone Corner Ɔsu", trading: "VODAFONE CORNER", sector: "Retail/Vodafone agents" };
const SHOWN = { name: "Telecel Corner Ɔsu", trading: "TELECEL CORNER", sector: "Telecel agents Retail" };

test("a merchant typed with the old brand word reads with the new one everywhere, and either word finds it", async ({ page, portal }, testInfo) => {
  test.setTimeout(60_000);
  const db = portal.businessDb(KUMASI);
  const merchant = (await db
    .prepare(
      `SELECT id, code, name, trading_name AS trading, sector FROM merchants m WHERE business_id = ?1 AND status = 'active'
         AND NOT EXISTS (SELECT 1 FROM approval_requests r WHERE r.business_id = ?1 AND r.kind = 'merchant' AND r.target_id = m.id AND r.status = 'pending')
       ORDER BY id DESC LIMIT 1`,
    )
    .bind(KUMASI)
    .first<{ id: string; code: string; name: string; trading: string; sector: string }>())!;
  const payment = (await db
    .prepare("SELECT reference, created_at AS createdAt FROM transactions WHERE business_id = ? AND merchant_id = ? ORDER BY created_at DESC LIMIT 1")
    .bind(KUMASI, merchant.id)
    .first<{ reference: string; createdAt: number }>())!;
  const terminal = (await db
    .prepare("SELECT id FROM terminals WHERE business_id = ? AND status = 'in_stock' ORDER BY id LIMIT 1")
    .bind(KUMASI)
    .first<{ id: string }>())!;
  const rename = (to: { name: string; trading: string; sector: string }) =>
    db.prepare("UPDATE merchants SET name = ?, trading_name = ?, sector = ? WHERE id = ?").bind(to.name, to.trading, to.sector, merchant.id).run();
  await rename(STORED);
  try {
    // The list's own search, by the word shown and by the word stored.
    for (const typed of ["Telecel Corner", "vodafone corner"]) {
      await page.goto(`/merchants?q=${encodeURIComponent(typed)}`);
      await expect(page.getByRole("table").getByRole("row").filter({ hasText: merchant.code })).toContainText(SHOWN.name);
    }
    // The top bar's.
    await hydrated(page);
    await page.keyboard.press("/");
    const dialog = page.getByRole("dialog", { name: "Search" });
    await dialog.getByRole("combobox", { name: "Search" }).fill("Telecel Corner");
    await expect(dialog.getByRole("group", { name: "Merchants" }).getByRole("option", { name: SHOWN.name })).toBeVisible();
    await expect(dialog).not.toContainText("Vodafone");
    await page.keyboard.press("Escape");

    // An alert that names it: the request to deactivate it.
    await page.goto(`/merchants/${merchant.id}?deactivate=merchant`);
    await hydrated(page);
    await expect(page.locator("#merchant-form-title").locator("..")).toContainText(`Deactivate ${SHOWN.name}?`);
    await page.getByRole("button", { name: "Yes, request deactivation" }).click();
    const alert = page.getByTestId("alert");
    await expect(alert).toContainText(`Deactivating ${SHOWN.name}: Sent for approval`);
    await expect(alert).not.toContainText("Vodafone");

    // The checker's request page: the name, the trading name and the sector as the list shows them.
    const requestId = (await db
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND target_id = ? AND status = 'pending'")
      .bind(KUMASI, merchant.id)
      .first<string>("id"))!;
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
      await page.setViewportSize({ width: 1280, height: 800 });
    } finally {
      await db.prepare("DELETE FROM approval_requests WHERE id = ?").bind(requestId).run();
    }

    // The terminal form: the merchants to assign to, and the points of sale of the one chosen.
    await page.goto(`/pos-terminals/device-details/${terminal.id}`);
    await hydrated(page);
    const choice = page.getByLabel("Merchant", { exact: true });
    await expect(choice.locator("option", { hasText: SHOWN.name })).toHaveCount(1);
    await expect(choice).not.toContainText("Vodafone");
    await choice.selectOption(merchant.id);
    await expect(page.getByRole("heading", { name: `Points of sale of ${SHOWN.name}` })).toBeVisible();
    await lookAt(page, { path: testInfo.outputPath("brand-terminal-1280.png"), fullPage: true });

    // The CSVs.
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
  } finally {
    await rename(merchant);
  }
});

// A person opens a payment and follows where it leads: the terminal it was taken on, its settlement, its merchant, and
// from the merchant's page its transactions, funds and settlements. Screenshots at 1280 and 390 px go to tmp/.
import type { Page } from "@playwright/test";
import type { Portal } from "../support/portal";
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";

interface Settled {
  id: number;
  reference: string;
  merchantId: string;
  merchant: string;
  serial: string;
  settlementReference: string;
}

async function settledPayment(portal: Portal): Promise<Settled> {
  const row = await (
    await portal.db()
  )
    .prepare(
      `SELECT t.id, t.reference, t.merchant_id AS merchantId, m.name AS merchant, tm.serial, s.reference AS settlementReference
       FROM transactions t JOIN merchants m ON m.id = t.merchant_id JOIN terminals tm ON tm.id = t.terminal_id
       JOIN settlement_items si ON si.transaction_id = t.id JOIN settlements s ON s.id = si.settlement_id
       WHERE t.business_id = ? AND t.status = 'successful' ORDER BY t.created_at DESC LIMIT 1`,
    )
    .bind(KUMASI)
    .first<Settled>();
  return row!;
}

async function openPayment(page: Page, payment: Settled) {
  await page.goto(`/transactions?tx=${payment.id}`);
  await hydrated(page);
  const detail = page.getByTestId("payment-detail");
  await expect(detail.getByRole("heading", { name: payment.reference })).toBeVisible();
  return detail;
}

test("a payment leads to its terminal, its settlement and its merchant, and the merchant to its money", async ({ page, portal }) => {
  const payment = await settledPayment(portal);
  let detail = await openPayment(page, payment);
  await lookAt(page, { path: "tmp/payment-detail-1280.png", fullPage: false });

  await detail.getByRole("link", { name: payment.serial }).click();
  await expect(page).toHaveURL(/\/pos-terminals\/device-details\//);
  await expect(page.getByRole("heading", { level: 1, name: payment.serial })).toBeVisible();

  detail = await openPayment(page, payment);
  await detail.getByRole("link", { name: payment.settlementReference }).click();
  await expect(page).toHaveURL(/\/money\/settlement-history\?s=/);
  await expect(page.getByTestId("settlement-detail").getByRole("heading", { name: payment.settlementReference })).toBeVisible();

  detail = await openPayment(page, payment);
  await detail.getByRole("link", { name: payment.merchant, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/merchants/${payment.merchantId}$`));
  await expect(page.getByRole("heading", { level: 1, name: payment.merchant })).toBeVisible();
  await lookAt(page, { path: "tmp/merchant-1280.png" });

  const money = page.getByRole("navigation", { name: `Money of ${payment.merchant}` });
  await money.getByRole("link", { name: "Transactions" }).click();
  await expect(page).toHaveURL(new RegExp(`/transactions\\?merchant=${payment.merchantId}$`));
  // The URL moves before React paints the new page (navigations render in a transition): wait for the list
  // itself, and name the filter exactly, or a label on the merchant's page still showing can be found instead.
  await expect(page.getByRole("heading", { level: 1, name: "Transactions" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Merchant", exact: true })).toHaveValue(payment.merchantId);

  await page.goBack();
  await money.getByRole("link", { name: "Settlements" }).click();
  await expect(page).toHaveURL(new RegExp(`/money/settlement-history\\?merchant=${payment.merchantId}$`));
  await expect(page.getByRole("link", { name: `Remove the merchant filter: ${payment.merchant}` })).toBeVisible();

  await page.goBack();
  await money.getByRole("link", { name: "Balance in merchant funds" }).click();
  await expect(page).toHaveURL(new RegExp(`/money/merchant-funds\\?merchant=${payment.merchantId}$`));
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);
});

test("at 390 px the detail and the merchant's page fit and keep their links", async ({ page, portal }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const payment = await settledPayment(portal);
  const detail = await openPayment(page, payment);
  await expect(detail.getByRole("link", { name: payment.serial })).toBeVisible();
  await lookAt(page, { path: "tmp/payment-detail-390.png", fullPage: false });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.goto(`/merchants/${payment.merchantId}`);
  await hydrated(page);
  await expect(page.getByRole("navigation", { name: `Money of ${payment.merchant}` }).getByRole("link", { name: "Settlements" })).toBeVisible();
  await page.getByRole("heading", { level: 2, name: "Money" }).scrollIntoViewIfNeeded();
  await lookAt(page, { path: "tmp/merchant-390.png" });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

// References and codes are read and typed back character by character: at a phone's width each stays on one line
// where it is shown (a table cell, a detail card, the payment panel) and the page still does not scroll sideways.
import type { Page } from "@playwright/test";
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test, lookAt } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 } });

/** Each visible element showing exactly `text`: how many lines its text takes (its height over one character's). */
async function linesOf(page: Page, text: string): Promise<number[]> {
  return page.getByText(text, { exact: true }).evaluateAll((elements) =>
    elements
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const whole = range.getBoundingClientRect().height;
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const first = walker.nextNode()!;
        range.setStart(first, 0);
        range.setEnd(first, 1);
        return Math.round(whole / range.getBoundingClientRect().height);
      }),
  );
}

async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test("a payment's and its settlement's references stay on one line at 390 px, with no sideways scroll", async ({ page, portal }) => {
  const payment = (await (
    await portal.db()
  )
    .prepare(
      `SELECT t.id, t.reference, s.id AS settlementId, s.reference AS settlement FROM transactions t
       JOIN settlement_items si ON si.transaction_id = t.id JOIN settlements s ON s.id = si.settlement_id
       WHERE t.business_id = ? AND t.status = 'successful' ORDER BY length(s.reference) DESC, t.created_at DESC LIMIT 1`,
    )
    .bind(KUMASI)
    .first<{ id: number; reference: string; settlementId: string; settlement: string }>())!;

  for (const path of [`/transactions?tx=${payment.id}`, `/transactions/${payment.id}/refund`, `/transactions?q=${encodeURIComponent(payment.reference)}`]) {
    await page.goto(path);
    await hydrated(page);
    const shown = await linesOf(page, payment.reference);
    expect(shown.length, path).toBeGreaterThan(0);
    expect(shown, `${payment.reference} on ${path}`).toEqual(shown.map(() => 1));
    expect(await sidewaysScroll(page), path).toBe(0);
  }
  for (const path of [`/transactions?tx=${payment.id}`, `/money/settlement-history?s=${payment.settlementId}`]) {
    await page.goto(path);
    await hydrated(page);
    const shown = await linesOf(page, payment.settlement);
    expect(shown.length, path).toBeGreaterThan(0);
    expect(shown, `${payment.settlement} on ${path}`).toEqual(shown.map(() => 1));
    expect(await sidewaysScroll(page), path).toBe(0);
    await lookAt(page, { path: `tmp/codes-${path.startsWith("/money") ? "settlement" : "payment"}-390.png` });
  }
});

test("codes inside running text stay on one line too: a posting's note, an account number, a refund's request", async ({ page, portal }) => {
  const db = await portal.db();
  const account = (await db
    .prepare("SELECT merchant_id AS merchantId, account_number AS number FROM settlement_accounts WHERE business_id = ? AND account_number LIKE '%-%' LIMIT 1")
    .bind(KUMASI)
    .first<{ merchantId: string; number: string }>())!;
  await page.goto(`/merchants/${account.merchantId}`);
  await hydrated(page);
  const numbers = await linesOf(page, account.number);
  expect(numbers.length).toBeGreaterThan(0);
  expect(numbers, account.number).toEqual(numbers.map(() => 1));
  expect(await sidewaysScroll(page)).toBe(0);

  const payment = (await db
    .prepare("SELECT id, reference FROM transactions WHERE business_id = ? AND status = 'successful' ORDER BY length(reference) DESC, id LIMIT 1")
    .bind(KUMASI)
    .first<{ id: number; reference: string }>())!;
  await page.goto(`/transactions?tx=${payment.id}`);
  await hydrated(page);
  const postings = page.getByTestId("payment-detail").locator(".postings");
  await expect(postings).toBeVisible();
  const inNotes = await postings
    .locator(".code", { hasText: payment.reference })
    .evaluateAll((elements) =>
      elements.map((element) => Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight || "20"))),
    );
  expect(inNotes.length).toBeGreaterThan(0);
  expect(inNotes).toEqual(inNotes.map(() => 1));
  expect(await sidewaysScroll(page)).toBe(0);
});

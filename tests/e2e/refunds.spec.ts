// A refund as people make it (decision 022): Esi Owusu (Operations) asks for a partial refund of a payment with a
// reason; Kofi Boateng (Administrator) approves it; the payment reads "Partially refunded" and the merchant's
// available balance drops by exactly the amount. The form, the request and the payment fit 390 px.
import type { Page } from "@playwright/test";
import { clearingPosting, paymentPosting } from "#server/ledger/ledger";
import { postingStatements } from "#server/ledger/ledger.db";
import { mintSession } from "../support/sign-in";
import { KOFI_KUMASI, KUMASI } from "../support/tenants";
import type { Portal } from "../support/portal";
import { expect, hydrated, test, lookAt } from "./fixtures";
import { clickChecked } from "./fresh-check";

const MERCHANT = "mer_kff_0001";

test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: KUMASI } });

// Other files in this worker may have settled or moved every available cedi: a cleared payment of GHS 100, posted by
// the portal's own ledger functions, makes sure the merchant has money to refund from.
test.beforeEach(async ({ portal }) => {
  const db = await portal.db();
  const payment = { merchantId: MERCHANT, amount: 10_000, fee: 0 };
  const postedAt = Date.now();
  const postingId = `e2e_refund_topup_${postedAt}`;
  await db.batch([
    ...postingStatements(KOFI_KUMASI, paymentPosting(payment), { postingId, memo: "E2E top-up", postedAt }),
    ...postingStatements(KOFI_KUMASI, clearingPosting(payment), { postingId: `${postingId}_clearing`, memo: "E2E top-up cleared", postedAt }),
  ]);
});

/** A successful payment of the merchant with no refund yet. */
async function payment(portal: Portal): Promise<{ id: number; reference: string; amount: number }> {
  const row = await (
    await portal.db()
  )
    .prepare(
      `SELECT t.id, t.reference, t.amount FROM transactions t WHERE t.business_id = ? AND t.merchant_id = ? AND t.status = 'successful' AND t.amount >= 500
         AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.transaction_id = t.id) ORDER BY t.created_at DESC LIMIT 1`,
    )
    .bind(KUMASI, MERCHANT)
    .first<{ id: number; reference: string; amount: number }>();
  return row!;
}

async function available(page: Page, merchant: string): Promise<number> {
  await page.goto("/money/merchant-accounts");
  const row = page.getByRole("row").filter({ hasText: merchant });
  return Math.round(Number(((await row.getByRole("cell").nth(2).textContent()) ?? "").replace(/,/g, "")) * 100);
}

test("Esi asks for a partial refund, Kofi approves it, and the payment is partially refunded by exactly that amount", async ({ page, browser, portal }) => {
  const paid = await payment(portal);
  const merchant = (await (await portal.db()).prepare("SELECT name FROM merchants WHERE id = ?").bind(MERCHANT).first<string>("name"))!;
  const before = await available(page, merchant);

  await page.goto(`/transactions?tx=${paid.id}`);
  await hydrated(page);
  const detail = page.getByTestId("payment-detail");
  await expect(detail).toContainText("Successful");
  await detail.getByRole("link", { name: "Refund" }).click();
  await expect(page).toHaveTitle("Refund Payment");
  const form = page.getByTestId("refund-form");
  // More than the payment is refused by the amount, before anything is sent.
  await form.getByLabel("Amount to refund (GHS)").fill("99,999.00");
  await expect(form.getByText(/This amount exceeds the amount left to refund of GHS/)).toBeVisible();
  await form.getByLabel("Amount to refund (GHS)").fill("1.25");
  await form.getByLabel("Reason").fill("One crate of tomatoes returned");
  await clickChecked(page, portal, form.getByRole("button", { name: "Send for approval" }));
  await expect(page.getByTestId("alert")).toContainText("Refund of GHS 1.25 sent for approval");
  // Nothing moved yet.
  expect(await available(page, merchant)).toBe(before);

  const request = await (
    await portal.db()
  )
    .prepare("SELECT r.id FROM approval_requests r JOIN refunds f ON f.id = r.target_id WHERE r.kind = 'refund' AND f.transaction_id = ?")
    .bind(paid.id)
    .first<{ id: string }>();
  // Esi cannot decide her own request.
  await page.goto(`/approvals/refund/${request!.id}`);
  await expect(page.getByText("You asked for this refund: another person must decide it.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve and refund" })).toHaveCount(0);

  const kofi = await browser.newContext({ baseURL: portal.url });
  const session = await mintSession(await portal.db(), portal.url, "kofi.boateng@example.com", KUMASI);
  await kofi.addCookies(session.browserCookies);
  const kofiPage = await kofi.newPage();
  await kofiPage.goto(`/approvals/refund/${request!.id}`);
  await hydrated(kofiPage);
  await expect(kofiPage).toHaveTitle("Refund Request");
  await expect(kofiPage.getByText("One crate of tomatoes returned")).toBeVisible();
  // Approve and Reject weigh the same at both widths: Reject is not a full-width red bar beside a small Approve.
  for (const width of [1280, 390]) {
    await kofiPage.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const approve = (await kofiPage.getByRole("button", { name: "Approve and refund" }).boundingBox())!;
    const reject = (await kofiPage.getByRole("button", { name: "Reject" }).boundingBox())!;
    expect(reject.height, `at ${width} px`).toBe(approve.height);
    expect(reject.width, `at ${width} px`).toBeLessThanOrEqual(approve.width);
    if (width === 1280) expect(reject.x, "side by side at 1280 px").toBeGreaterThan(approve.x + approve.width);
    await lookAt(kofiPage, { path: `tmp/refund-decision-${width}.png`, fullPage: true });
  }
  await kofiPage.setViewportSize({ width: 1280, height: 800 });
  await clickChecked(kofiPage, portal, kofiPage.getByRole("button", { name: "Approve and refund" }));
  await expect(kofiPage.getByTestId("alert")).toContainText("Refund of GHS 1.25 approved");
  await kofi.close();

  await page.goto(`/transactions?tx=${paid.id}`);
  await expect(detail).toContainText("Partially refunded");
  await expect(detail.getByRole("list", { name: "Refunds" })).toContainText("GHS 1.25");
  expect(await available(page, merchant)).toBe(before - 125);
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the refund form fits without sideways scrolling", async ({ page, portal }) => {
    const paid = await payment(portal);
    await page.goto(`/transactions/${paid.id}/refund`);
    await hydrated(page);
    await expect(page.getByTestId("refund-form")).toBeVisible();
    await lookAt(page, { path: "tmp/refund-form-390.png", fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

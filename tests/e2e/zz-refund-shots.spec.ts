import { mintSession } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { expect, hydrated, test } from "./fixtures";

test.use({ signedInAs: { email: "esi.owusu@example.com", businessId: KUMASI } });

for (const width of [1280, 390]) {
  test(`shots ${width}`, async ({ page, browser, portal }) => {
    await page.setViewportSize({ width, height: 900 });
    const db = await portal.db();
    const paid = (await db
      .prepare("SELECT t.id FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.amount >= 5000 AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.transaction_id = t.id) ORDER BY t.created_at DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: number }>())!;
    await page.goto(`/transactions/${paid.id}/refund`);
    await hydrated(page);
    await page.getByLabel("Amount to refund (GHS)").fill("99,999.00");
    await page.screenshot({ path: `tmp/refund-form-${width}.png`, fullPage: true });
    await page.getByLabel("Amount to refund (GHS)").fill("10.00");
    await page.getByLabel("Reason").fill("Ɔkɔtɔ: two crates returned 😊 مرحبا");
    await page.getByRole("button", { name: "Send for approval" }).click();
    await expect(page.getByTestId("alert")).toContainText("sent for approval");
    const request = (await db.prepare("SELECT r.id FROM approval_requests r JOIN refunds f ON f.id = r.target_id WHERE f.transaction_id = ?").bind(paid.id).first<{ id: string }>())!;
    const kofi = await browser.newContext({ baseURL: portal.url, viewport: { width, height: 900 } });
    await kofi.addCookies((await mintSession(db, portal.url, "kofi.boateng@example.com", KUMASI)).browserCookies);
    const kp = await kofi.newPage();
    await kp.goto(`/approvals/refund/${request.id}`);
    await hydrated(kp);
    await kp.screenshot({ path: `tmp/refund-request-${width}.png`, fullPage: true });
    await kp.getByRole("button", { name: "Approve and refund" }).click();
    await expect(kp.getByTestId("alert")).toContainText("approved");
    await kp.waitForTimeout(1000);
    await kp.goto(`/transactions?tx=${paid.id}`);
    await hydrated(kp);
    await kp.screenshot({ path: `tmp/payment-detail-${width}.png` });
    await kp.getByTestId("payment-detail").screenshot({ path: `tmp/payment-panel-${width}.png` });
    await kp.goto(`/approvals?status=all`);
    await kp.screenshot({ path: `tmp/approvals-${width}.png`, fullPage: true });
    await kofi.close();
  });
}

// The rail's own reference and status, as a person looks for them (decision 041): Kofi Boateng (Administrator) opens a
// settlement the acquirer's switch has not answered yet and reads the switch's reference, its status and since when
// it waits, and copies the reference; then a refund sent through the switch, on its payment and on its request page.
// The answers are applied the way the rails apply them (applyPayoutAnswer, applyRefundAnswer) on this worker's D1.
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { clearingPosting, paymentPosting } from "#server/ledger/ledger";
import { postingStatements } from "#server/ledger/ledger.db";
import type { RailAnswer } from "#server/rails/answer";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { refundTargetById } from "#server/refunds/refund-sending.db";
import { applyRefundAnswer, processRefunds } from "#server/refunds/send";
import { applyPayoutAnswer } from "#server/settlement/payouts";
import { payoutTargetByReference } from "#server/settlement/payouts.db";
import { businessOf, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import type { Portal } from "../support/portal";
import { axeViolations, expect, hydrated, test } from "./fixtures";

// 09:41 UTC is 9:41 AM in Accra (UTC+0 all year).
const SINCE = "2026-11-24T09:41:00.000Z";
const WAITING = "Waiting for the rail's answer since 24 Nov 2026, 9:41 AM";

const processing = (reference: string, status = "processing"): RailAnswer => ({
  ok: false,
  pending: true,
  error: "Switch: processing",
  rail: { rail: "switch", reference, status },
});

/** The newest settlement sent and not answered yet (the seed's last run is in flight), the switch's "processing" applied since SINCE. */
async function waitingSettlement(portal: Portal): Promise<{ id: string; reference: string; railReference: string }> {
  const db = await portal.db();
  const settlement = (await db
    .prepare(
      `SELECT s.id, s.reference FROM settlements s WHERE s.business_id = ? AND s.status <> 'paid' AND s.attempts > 0
         AND NOT EXISTS (SELECT 1 FROM payout_attempts a WHERE a.settlement_id = s.id AND a.attempt = s.attempts) ORDER BY s.period_start DESC, s.id DESC LIMIT 1`,
    )
    .bind(KUMASI)
    .first<{ id: string; reference: string }>())!;
  const railReference = `sw_${settlement.id.slice(-6)}_e2e`;
  expect(await applyPayoutAnswer(businessOf(KUMASI), (await payoutTargetByReference(db, settlement.reference))!, processing(railReference), SINCE)).toBe(
    "waiting",
  );
  return { ...settlement, railReference };
}

test("a settlement waiting on the switch shows the switch's reference, its status and since when", async ({ page, portal, context }) => {
  const { reference, railReference } = await waitingSettlement(portal);
  const settlement = { reference };

  await page.goto("/money/settlement-history");
  await hydrated(page);
  const row = page.getByRole("row").filter({ hasText: settlement.reference });
  await expect(row).toContainText("Acquirer switch · processing");
  await row.getByRole("link", { name: new RegExp(settlement.reference) }).click();
  const detail = page.getByTestId("settlement-detail");
  const rail = detail.getByTestId("rail");
  await expect(rail.getByRole("heading", { name: "Payout rail" })).toBeVisible();
  await expect(rail).toContainText("Acquirer switch");
  await expect(rail.getByTestId("rail-reference")).toHaveText(railReference);
  await expect(rail.getByTestId("rail-status")).toHaveText("processing");
  await expect(rail.getByTestId("rail-waiting")).toHaveText(WAITING);
  // The reference is in a monospace face, and Copy puts exactly it on the clipboard.
  expect(await rail.getByTestId("rail-reference").evaluate((code) => getComputedStyle(code).fontFamily)).toMatch(/mono/i);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await rail.getByRole("button", { name: `Copy the rail's reference ${railReference}` }).click();
  await expect(rail.getByRole("status")).toHaveText("Copied.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(railReference);
});

/** A refund of a payment of Kumasi, approved, sent to the switch, which took it ("accepted"), waiting since SINCE. */
async function waitingRefund(portal: Portal): Promise<{ id: string; payment: { id: number; reference: string }; railReference: string }> {
  const db = await portal.db();
  const payment = (await db
    .prepare(
      `SELECT t.id, t.merchant_id AS merchantId, t.reference FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.amount >= 1000
         AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.transaction_id = t.id) ORDER BY t.created_at DESC LIMIT 1 OFFSET 3`,
    )
    .bind(KUMASI)
    .first<{ id: number; merchantId: string; reference: string }>())!;
  // Money to refund from, posted by the portal's own ledger functions (other tests may have moved it all).
  const topUp = { merchantId: payment.merchantId, amount: 10_000, fee: 0 };
  const postingId = `e2e_rail_topup_${Date.now()}`;
  await db.batch([
    ...postingStatements(KOFI_KUMASI, paymentPosting(topUp), { postingId, memo: "E2E top-up", postedAt: Date.now() }),
    ...postingStatements(KOFI_KUMASI, clearingPosting(topUp), { postingId: `${postingId}_clearing`, memo: "E2E top-up cleared", postedAt: Date.now() }),
  ]);
  const { id } = await requestRefund(ESI_KUMASI, META, {
    transactionId: payment.id,
    amount: 500,
    reason: "Ɛkɔm returned 📦",
    idempotencyKey: `e2e-rail-${Date.now()}`,
  });
  await approveMoneyRequest(KOFI_KUMASI, META, "refund", id);
  const railReference = `sw_rfd_${id.slice(-6)}`;
  // Sent to the switch, which takes it ("accepted": an answer follows); its callback says so again, at a known time.
  await processRefunds(businessOf(KUMASI), { kind: "switch", refund: async () => processing(railReference, "accepted") }, { onlyId: id });
  const target = (await refundTargetById(db, id))!;
  expect(target.attempts).toBe(1);
  expect(await applyRefundAnswer(businessOf(KUMASI), target, processing(railReference, "accepted"), { at: SINCE, now: Date.parse(SINCE) })).toBe("waiting");
  return { id, payment, railReference };
}

test("a refund sent through the switch shows its reference and status on its payment and on its request", async ({ page, portal }) => {
  const db = await portal.db();
  const { id, payment, railReference } = await waitingRefund(portal);

  await page.goto(`/transactions?tx=${payment.id}`);
  await hydrated(page);
  const refunds = page.getByTestId("payment-detail").getByRole("list", { name: "Refunds" });
  await expect(refunds).toContainText("Ɛkɔm returned 📦");
  await expect(refunds.getByTestId("rail")).toContainText("Acquirer switch");
  await expect(refunds.getByTestId("rail-reference")).toHaveText(railReference);
  await expect(refunds.getByTestId("rail-status")).toHaveText("accepted");
  await expect(refunds.getByTestId("rail-waiting")).toHaveText(WAITING);

  // The request page of the refund, linked from the refund's amount.
  await refunds.getByRole("link", { name: "GHS 5.00" }).click();
  await expect(page).toHaveTitle("Refund Request");
  await expect(page.getByRole("term").filter({ hasText: "Sent through" })).toBeVisible();
  await expect(page.getByTestId("rail-reference")).toHaveText(railReference);
  await expect(page.getByTestId("rail-status")).toHaveText("accepted");
  await expect(page.getByTestId("rail-waiting")).toHaveText(WAITING);

  // Answered: the status is the switch's last word and nothing waits any more.
  const at = "2026-11-24T10:02:00.000Z";
  await applyRefundAnswer(
    businessOf(KUMASI),
    (await refundTargetById(db, id))!,
    { ok: true, rail: { rail: "switch", reference: railReference, status: "succeeded" } },
    {
      at,
      now: Date.parse(at),
    },
  );
  await page.reload();
  await expect(page.getByTestId("rail-status")).toHaveText("succeeded");
  await expect(page.getByTestId("rail-waiting")).toHaveCount(0);
  await expect(page.locator("main")).not.toContainText("null");
});

test("the screens with a rail's reference have no axe violation at 1280 and 390 px", async ({ page, portal }) => {
  const settlement = await waitingSettlement(portal);
  const refund = await waitingRefund(portal);
  const requestId = (await (
    await portal.db()
  )
    .prepare("SELECT id FROM approval_requests WHERE kind = 'refund' AND target_id = ?")
    .bind(refund.id)
    .first<string>("id"))!;
  const found: string[] = [];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
    for (const path of [`/money/settlement-history?s=${settlement.id}`, `/transactions?tx=${refund.payment.id}`, `/approvals/refund/${requestId}`]) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.getByTestId("rail-reference").first()).toBeVisible();
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${path} at ${width} px`).toBe(0);
      const violations = await axeViolations(page);
      found.push(...violations.map((v) => `${path} at ${width} px: ${v}`));
    }
  }
  expect(found).toEqual([]);
});

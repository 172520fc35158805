// The rail's own reference and status on the screens (docs/decisions/041-payout-and-refund-rails.md), from
// the built Worker: a settlement's detail on Settlement History (and its row's status), a refund on its payment's
// detail and on its approval request page. The answers are applied the way the rails apply them (applyPayoutAnswer,
// applyRefundAnswer), so the columns are written by the real statements: while waiting the page says since when (in
// Africa/Accra, SPEC section 9's default format); once answered it does not; an order no rail answered shows nothing.
import { describe, expect, it } from "vitest";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import type { RailAnswer } from "#server/rails/answer";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { refundTargetById } from "#server/refunds/refund-sending.db";
import { applyRefundAnswer, processRefunds } from "#server/refunds/send";
import { applyPayoutAnswer } from "#server/settlement/payouts";
import { payoutTargetByReference } from "#server/settlement/payouts.db";
import { loaderDataOf, textOf } from "../support/html";
import { topUp } from "../support/ledger";
import { signedInCookie } from "../support/sign-in";
import { businessOf, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

// 16:05 UTC is 4:05 PM in Accra (UTC+0 all year).
const WAITING_SINCE = "2026-11-21T16:05:00.000Z";
const WAITING_TEXT = "Waiting for the rail's answer since 21 Nov 2026, 4:05 PM";
// The rail's reference is shown exactly as the rail gave it: the old brand word is not replaced inside it.
const REFERENCE = "sw_Vodafone-7Q2Z";

const pending = (reference: string | null, status = "processing"): RailAnswer => ({
  ok: false,
  pending: true,
  error: "Switch: processing",
  rail: { rail: "switch", reference, status },
});
const done = (reference: string | null): RailAnswer => ({ ok: true, rail: { rail: "switch", reference, status: "succeeded" } });

async function page(path: string): Promise<{ status: number; html: string; text: string }> {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal()) });
  const html = await response.text();
  return { status: response.status, html, text: textOf(html) };
}

describe("a settlement paid through a rail", () => {
  it("shows the rail's name, its own reference and status, and since when it waits; once paid, no waiting line", async () => {
    const db = await portal().db();
    const row = (await db
      .prepare("SELECT id, reference FROM settlements WHERE business_id = ? AND status = 'pending' ORDER BY period_start DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; reference: string }>())!;
    const target = (await payoutTargetByReference(db, row.reference))!;
    expect(await applyPayoutAnswer(businessOf(KUMASI), target, pending(REFERENCE), WAITING_SINCE)).toBe("waiting");

    const waiting = await page(`/money/settlement-history?s=${row.id}`);
    expect(waiting.status).toBe(200);
    const detail = loaderDataOf(waiting.html)["routes/money.settlement-history"] as { detail: { railView: unknown } };
    expect(detail.detail.railView).toEqual({ name: "Acquirer switch", reference: REFERENCE, status: "processing", waitingSince: "21 Nov 2026, 4:05 PM" });
    expect(waiting.text).toContain("Payout rail");
    expect(waiting.text).toContain("Sent through Acquirer switch");
    expect(waiting.text).toContain(`Rail's reference ${REFERENCE}`);
    expect(waiting.text).toContain("Rail's status processing");
    expect(waiting.text).toContain(WAITING_TEXT);
    expect(waiting.html).toContain(`data-testid="rail-reference">${REFERENCE}</code>`);
    // The row's status says the rail and its word too.
    expect(waiting.text).toContain("Acquirer switch · processing");

    expect(await applyPayoutAnswer(businessOf(KUMASI), (await payoutTargetByReference(db, row.reference))!, done(null), "2026-11-21T16:20:00.000Z")).toBe(
      "applied",
    );
    const paid = await page(`/money/settlement-history?s=${row.id}`);
    // The reference the rail gave before stays; its status is the last answer's.
    expect(paid.text).toContain(`Rail's reference ${REFERENCE}`);
    expect(paid.text).toContain("Rail's status succeeded");
    expect(paid.text).not.toContain("Waiting for the rail's answer");
    expect(paid.text).not.toMatch(/\bnull\b/);
  });

  it("a settlement no rail answered shows no rail, and never the word null", async () => {
    const db = await portal().db();
    const row = (await db
      .prepare("SELECT id FROM settlements WHERE business_id = ? AND rail IS NULL AND rail_status IS NULL ORDER BY period_start DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string }>())!;
    const shown = await page(`/money/settlement-history?s=${row.id}`);
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain("Payout rail");
    expect(shown.text).not.toContain("Rail's reference");
    expect(shown.text).not.toMatch(/\bnull\b/);
    expect((loaderDataOf(shown.html)["routes/money.settlement-history"] as { detail: { railView: unknown } }).detail.railView).toBeNull();
  });
});

describe("a refund sent through a rail", () => {
  it("shows the rail on its payment's detail and on its approval request page, waiting and then answered", async () => {
    const db = await portal().db();
    const payment = (await db
      .prepare(
        `SELECT t.id, t.merchant_id AS merchantId, t.reference FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.amount >= 2000
           AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.transaction_id = t.id) ORDER BY t.id DESC LIMIT 1`,
      )
      .bind(KUMASI)
      .first<{ id: number; merchantId: string; reference: string }>())!;
    await topUp(KOFI_KUMASI, payment.merchantId, 10_000);
    const { id } = await requestRefund(ESI_KUMASI, META, {
      transactionId: payment.id,
      amount: 1_500,
      reason: "Ɔkɔtɔ returned 😊",
      idempotencyKey: "rail-screens-1",
    });
    await approveMoneyRequest(KOFI_KUMASI, META, "refund", id);
    const requestId = (await db.prepare("SELECT id FROM approval_requests WHERE kind = 'refund' AND target_id = ?").bind(id).first<string>("id"))!;
    // Sent to the switch, which takes it; its callback says so again, at a known time.
    await processRefunds(businessOf(KUMASI), { kind: "switch", refund: async () => pending(REFERENCE, "accepted") }, { onlyId: id });
    const target = (await refundTargetById(db, id))!;
    expect(target.attempts).toBe(1);
    expect(await applyRefundAnswer(businessOf(KUMASI), target, pending(null, "accepted"), { at: WAITING_SINCE, now: Date.parse(WAITING_SINCE) })).toBe(
      "waiting",
    );

    const detail = await page(`/transactions?tx=${payment.id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain("Ɔkɔtɔ returned 😊");
    expect(detail.text).toContain(`Acquirer switch ${REFERENCE} Copy accepted`);
    expect(detail.text).toContain(WAITING_TEXT);
    const request = await page(`/approvals/refund/${requestId}`);
    expect(request.status).toBe(200);
    expect(request.text).toContain("Sent through Acquirer switch");
    expect(request.text).toContain(`Rail's reference ${REFERENCE}`);
    expect(request.text).toContain("Rail's status accepted");
    expect(request.text).toContain(WAITING_TEXT);
    const shown = loaderDataOf(request.html)["routes/approvals.refund"] as { refund: { rail: unknown } };
    expect(shown.refund.rail).toEqual({ name: "Acquirer switch", reference: REFERENCE, status: "accepted", waitingSince: "21 Nov 2026, 4:05 PM" });

    const at = "2026-11-21T16:30:00.000Z";
    expect(await applyRefundAnswer(businessOf(KUMASI), (await refundTargetById(db, id))!, done(null), { at, now: Date.parse(at) })).toBe("succeeded");
    for (const path of [`/transactions?tx=${payment.id}`, `/approvals/refund/${requestId}`]) {
      const answered = await page(path);
      expect(answered.text, path).toContain(REFERENCE);
      expect(answered.text, path).toContain("succeeded");
      expect(answered.text, path).not.toContain("Waiting for the rail's answer");
      expect(answered.text, path).not.toMatch(/\bnull\b/);
    }
  });
});

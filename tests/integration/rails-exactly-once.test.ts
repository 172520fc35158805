// Exactly once across the rails (issue 28, docs/decisions/041-payout-and-refund-rails.md): fast-check generates
// interleavings of the three ways a rail's answer arrives for one refund (the reply to a send, the signed callback,
// the status poll), with duplicates, answers out of order, stale attempts, and a success followed by a late failure
// (or the reverse), and runs them against real D1 with the real ledger statements. Afterwards the refund has at most
// one outcome posting, exactly one when it is finished, of the kind its status says; its webhook event likewise; and
// the ledger's running sums still match its entries.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { pollRails } from "#server/rails/apply";
import type { RailAnswer } from "#server/rails/answer";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { refundTargetById } from "#server/refunds/refunds.db";
import { applyRefundAnswer, processRefunds, type RefundPort } from "#server/refunds/send";
import { expectAccountSumsMatchEntries, topUp } from "../support/ledger";
import { businessOf, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const HOUR = 3_600_000;
let sequence = 0;

type Word = "succeeded" | "failed" | "pending";
type Step = { via: "reply" | "callback" | "poll"; word: Word; attempt: number };

const answerOf = (word: Word, attempt: number): RailAnswer => {
  const rail = { rail: "switch", reference: `sw_${attempt}`, status: word === "pending" ? "processing" : word };
  if (word === "succeeded") return { ok: true, rail };
  if (word === "failed") return { ok: false, error: `Switch: refused on attempt ${attempt}`, rail };
  return { ok: false, pending: true, error: "Switch: processing", rail };
};

const portAnswering = (word: Word, attempt: number): RefundPort => ({
  kind: "switch",
  refund: async () => answerOf(word, attempt),
  status: async () => answerOf(word, attempt),
});

const step = fc.record({
  via: fc.constantFrom<Step["via"]>("reply", "callback", "poll"),
  word: fc.constantFrom<Word>("succeeded", "failed", "pending"),
  attempt: fc.integer({ min: 1, max: 4 }),
});

async function approvedRefund(amount: number): Promise<string> {
  const db = await portal().db();
  const payment = await db
    .prepare(
      `SELECT t.id, t.merchant_id AS merchantId FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.amount >= ?
         AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.transaction_id = t.id) ORDER BY t.id LIMIT 1 OFFSET ?`,
    )
    .bind(KUMASI, amount, sequence)
    .first<{ id: number; merchantId: string }>();
  await topUp(KOFI_KUMASI, payment!.merchantId, amount * 3);
  const { id } = await requestRefund(ESI_KUMASI, META, {
    transactionId: payment!.id,
    amount,
    reason: "Returned",
    idempotencyKey: `rails-eo-${(sequence += 1)}`,
  });
  await approveMoneyRequest(KOFI_KUMASI, META, "refund", id);
  return id;
}

describe("a refund's outcome lands once whatever order the reply, callback and poll arrive in", () => {
  it("holds for generated interleavings (real D1, real ledger statements)", async () => {
    const business = businessOf(KUMASI);
    const db = await portal().db();
    let clock = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const id = await approvedRefund(1_000);
        for (const s of steps) {
          clock += 2 * HOUR; // every retry is due, every wait is old enough to poll
          if (s.via === "reply") await processRefunds(business, portAnswering(s.word, s.attempt), { now: clock, onlyId: id });
          else if (s.via === "poll") await pollRails([business], { payout: null, refund: portAnswering(s.word, s.attempt) }, { now: clock, afterMs: HOUR });
          else {
            const target = (await refundTargetById(db, id))!;
            await applyRefundAnswer(business, target, answerOf(s.word, s.attempt), { at: new Date(clock).toISOString(), now: clock, attempt: s.attempt });
          }
        }
        const refund = (await db.prepare("SELECT status, attempts FROM refunds WHERE id = ?").bind(id).first<{ status: string; attempts: number }>())!;
        const postings = (
          await db
            .prepare("SELECT DISTINCT posting_id AS id FROM ledger_entries WHERE posting_id IN (?, ?)")
            .bind(`pst_${id}_succeeded`, `pst_${id}_failed`)
            .all<{ id: string }>()
        ).results.map((r) => r.id);
        const entries = (await db.prepare("SELECT COUNT(*) AS n FROM ledger_entries WHERE posting_id LIKE ?").bind(`pst_${id}_%`).first<{ n: number }>())!.n;
        const events = (
          await db.prepare("SELECT id FROM webhook_events WHERE id IN (?, ?)").bind(`evt_${id}_succeeded`, `evt_${id}_failed`).all<{ id: string }>()
        ).results;
        if (refund.status === "sending") expect(postings).toEqual([]);
        else {
          expect(["succeeded", "failed"]).toContain(refund.status);
          expect(postings).toEqual([`pst_${id}_${refund.status}`]);
          // One posting of two lines (refund_payable and the other side), never twice.
          expect(entries).toBe(2);
          expect(events.length).toBeLessThanOrEqual(1);
          if (events.length === 1) expect(events[0]!.id).toBe(`evt_${id}_${refund.status}`);
        }
        expect(refund.attempts).toBeLessThanOrEqual(4);
      }),
      { numRuns: 40, seed: 28 },
    );
    await expectAccountSumsMatchEntries(portal().shards());
  }, 240_000);
});

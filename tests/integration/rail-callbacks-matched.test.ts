// Rail callbacks only for what was sent (decision 041, amended 2026-12-01): fast-check generates
// settlements in any payout state (never sent, sent to the switch, to Paystack or the simulator, waiting, failed, paid,
// after up to three attempts) and correctly signed callbacks from either rail (the right or a wrong rail, the
// settlement's reference or another, any attempt, any status), and sends them to the built Worker. Every callback is
// answered 200; only the exact match (the rail the latest attempt went to, that attempt's key) moves anything; every
// other leaves the settlement, its attempt records and its events as they were, and is kept in rail_callbacks_unmatched.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { railKey } from "#server/rails/answer";
import { paystackReference } from "#server/rails/paystack";
import { standardHeaders } from "#server/rails/signatures";
import { insertSettlementStatement } from "#server/settlement/settlement-runs.db";
import { FAKE_PAYSTACK_SECRET_KEY, paystackSignatureOf } from "../support/fake-paystack";
import { FAKE_SWITCH_SECRET } from "../support/fake-switch";
import { businessOf, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { expectAccountSumsMatchEntries, topUp } from "../support/ledger";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { processRefunds } from "#server/refunds/send";
import { usePortal } from "../support/use-portal";

const portal = usePortal({ vars: { SWITCH_RAIL_SECRET: FAKE_SWITCH_SECRET, PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET_KEY } });

type Rail = "switch" | "paystack";
interface PayoutState {
  status: "pending" | "failed" | "paid";
  attempts: number;
  /** The rail the latest attempt went to. */
  rail: Rail | "simulator" | null;
  waiting: boolean;
}
interface Callback {
  rail: Rail;
  /** The settlement's own reference, a reference of no settlement, or (Paystack) a transfer not made by this portal. */
  reference: "own" | "unknown" | "foreign";
  attempt: number;
  word: "succeeded" | "failed" | "pending";
}

const state: fc.Arbitrary<PayoutState> = fc
  .record({
    status: fc.constantFrom<PayoutState["status"]>("pending", "failed", "paid"),
    attempts: fc.integer({ min: 0, max: 3 }),
    rail: fc.constantFrom<PayoutState["rail"]>("switch", "paystack", "simulator", null),
    waiting: fc.boolean(),
  })
  // Never sent: pending, no rail, not waiting (as the run leaves it).
  .map((s) => (s.attempts === 0 ? { status: "pending" as const, attempts: 0, rail: null, waiting: false } : s));
const callback: fc.Arbitrary<Callback> = fc.record({
  rail: fc.constantFrom<Rail>("switch", "paystack"),
  reference: fc.oneof({ arbitrary: fc.constant("own" as const), weight: 4 }, fc.constantFrom("unknown" as const, "foreign" as const)),
  attempt: fc.integer({ min: 1, max: 4 }),
  word: fc.constantFrom<Callback["word"]>("succeeded", "failed", "pending"),
});

let sequence = 0;

/** A settlement of Kumasi in `s`, under a reference of its own (Paystack-shaped: upper-case letters, digits and hyphens). */
async function settlementIn(s: PayoutState): Promise<{ id: string; reference: string }> {
  const db = portal().businessDb(KUMASI);
  const n = (sequence += 1);
  const account = (await db
    .prepare("SELECT merchant_id AS merchantId, settlement_account_id AS accountId FROM settlements WHERE business_id = ? ORDER BY id LIMIT 1")
    .bind(KUMASI)
    .first<{ merchantId: string; accountId: string }>())!;
  const id = `stl_callback_${n}`;
  const reference = `STL-CALLBACK-${String(n).padStart(4, "0")}`;
  const periodStart = Date.UTC(1998, 0, 1) + n * 86_400_000;
  await db.batch([
    insertSettlementStatement(businessOf(KUMASI), {
      id,
      merchantId: account.merchantId,
      settlementAccountId: account.accountId,
      periodStart,
      periodEnd: periodStart + 86_400_000,
      gross: 1200,
      fees: 0,
      net: 1200,
      reference,
      createdAt: new Date(periodStart).toISOString(),
    }),
    db
      .prepare("UPDATE settlements SET status = ?, attempts = ?, rail = ?, rail_waiting_since = ?, paid_at = ? WHERE id = ?")
      .bind(
        s.status,
        s.attempts,
        s.rail,
        s.waiting && s.status !== "paid" ? new Date().toISOString() : null,
        s.status === "paid" ? new Date().toISOString() : null,
        id,
      ),
  ]);
  return { id, reference };
}

/** Everything a callback could move: the settlement's row, its attempt records and its events. */
async function tracesOf(id: string): Promise<unknown> {
  const db = portal().businessDb(KUMASI);
  const row = await db.prepare("SELECT * FROM settlements WHERE id = ?").bind(id).first();
  const attempts = (await db.prepare("SELECT attempt, outcome FROM payout_attempts WHERE settlement_id = ? ORDER BY attempt").bind(id).all()).results;
  const events = (await db.prepare("SELECT id FROM webhook_events WHERE id LIKE ? ORDER BY id").bind(`evt_${id}_%`).all()).results;
  return { row, attempts, events };
}

/** The callback, signed as its rail signs it; its id as the portal remembers it. */
async function send(c: Callback, reference: string): Promise<{ response: Response; id: string }> {
  const n = (sequence += 1);
  const key = c.reference === "own" ? railKey(reference, c.attempt) : railKey(`STL-NO-SUCH-${String(n).padStart(6, "0")}`, c.attempt);
  if (c.rail === "switch") {
    const status = { succeeded: "succeeded", failed: "failed", pending: "processing" }[c.word];
    const body = JSON.stringify({ type: "payout.updated", data: { reference: key, id: `sw_${n}`, status } });
    const id = `msg_callback_${n}`;
    const headers = await standardHeaders(FAKE_SWITCH_SECRET, id, Math.floor(Date.now() / 1000), body);
    const response = await portal().fetch("/api/v1/callbacks/switch", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
    return { response, id };
  }
  const [event, status] = (
    { succeeded: ["transfer.success", "success"], failed: ["transfer.failed", "failed"], pending: ["transfer.success", "pending"] } as const
  )[c.word];
  const transferReference = c.reference === "foreign" ? `someone-else-${n}` : paystackReference(key)!;
  const body = JSON.stringify({ event, data: { reference: transferReference, status, transfer_code: `TRF_${n}`, id: 900_000 + n } });
  const response = await portal().fetch("/api/v1/callbacks/paystack", {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-paystack-signature": paystackSignatureOf(FAKE_PAYSTACK_SECRET_KEY, body) },
    body,
  });
  return { response, id: `${event}:${900_000 + n}:${status}` };
}

describe("a rail's callback moves only what this portal sent to that rail", () => {
  it("holds for generated payout states and callbacks (right or wrong rail, reference, attempt and status)", async () => {
    await fc.assert(
      fc.asyncProperty(state, callback, async (s, c) => {
        const { id, reference } = await settlementIn(s);
        const before = await tracesOf(id);
        const { response, id: callbackId } = await send(c, reference);
        expect(response.status, await response.clone().text()).toBe(200);
        const exact = c.reference === "own" && s.attempts >= 1 && s.rail === c.rail && c.attempt === s.attempts;
        const kept = await portal()
          .core()
          .prepare("SELECT why FROM rail_callbacks_unmatched WHERE rail = ? AND id = ?")
          .bind(c.rail, callbackId)
          .first<{ why: string }>();
        if (!exact) {
          expect(await tracesOf(id)).toEqual(before);
          expect(kept?.why).toMatch(/\w/);
          return;
        }
        expect(kept).toBeNull();
        // The exact match is applied by the rules of decision 041: a success pays what is not paid yet.
        const status = (await portal().businessDb(KUMASI).prepare("SELECT status FROM settlements WHERE id = ?").bind(id).first<{ status: string }>())!.status;
        if (c.word === "succeeded") expect(status).toBe("paid");
        if (s.status === "paid") expect(status).toBe("paid");
      }),
      {
        numRuns: 60,
        seed: 38,
        examples: [
          // The example: a settlement never sent anywhere (or sent to the other rail), told paid by a signed callback.
          [
            { status: "pending", attempts: 0, rail: null, waiting: false },
            { rail: "switch", reference: "own", attempt: 1, word: "succeeded" },
          ],
          [
            { status: "pending", attempts: 1, rail: "switch", waiting: true },
            { rail: "paystack", reference: "own", attempt: 1, word: "succeeded" },
          ],
          [
            { status: "failed", attempts: 2, rail: "switch", waiting: false },
            { rail: "switch", reference: "own", attempt: 1, word: "succeeded" },
          ],
          [
            { status: "pending", attempts: 1, rail: "simulator", waiting: false },
            { rail: "switch", reference: "own", attempt: 1, word: "failed" },
          ],
        ],
      },
    );
  }, 300_000);
});

describe("a refund's callback", () => {
  it("moves a refund only when it was sent to the switch and names its latest attempt", async () => {
    const db = portal().businessDb(KUMASI);
    const payment = (
      await db
        .prepare(
          `SELECT t.id, t.merchant_id AS merchantId FROM transactions t WHERE t.business_id = ? AND t.status = 'successful' AND t.amount >= 5000
           AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.transaction_id = t.id) AND NOT EXISTS (SELECT 1 FROM disputes d WHERE d.transaction_id = t.id)
         ORDER BY t.id LIMIT 2`,
        )
        .bind(KUMASI)
        .all<{ id: number; merchantId: string }>()
    ).results;
    const approved = async (p: { id: number; merchantId: string }) => {
      await topUp(KOFI_KUMASI, p.merchantId, 5000);
      const { id } = await requestRefund(ESI_KUMASI, META, { transactionId: p.id, amount: 1000, reason: "Returned", idempotencyKey: `callback-${p.id}` });
      await approveMoneyRequest(KOFI_KUMASI, META, "refund", id);
      return id;
    };
    const refundCallback = async (refundId: string, attempt: number) => {
      const n = (sequence += 1);
      const body = JSON.stringify({ type: "refund.updated", data: { reference: railKey(refundId, attempt), id: `sw_refund_${n}`, status: "succeeded" } });
      const headers = await standardHeaders(FAKE_SWITCH_SECRET, `msg_refund_${n}`, Math.floor(Date.now() / 1000), body);
      const response = await portal().fetch("/api/v1/callbacks/switch", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body });
      return { status: response.status, answer: await response.json<{ applied: string }>() };
    };
    const statusOf = async (id: string) => (await db.prepare("SELECT status FROM refunds WHERE id = ?").bind(id).first<{ status: string }>())!.status;

    // Sent through the simulator only: a switch callback about it is kept, and moves nothing.
    const simulated = await approved(payment[0]!);
    await processRefunds(
      businessOf(KUMASI),
      { kind: "simulated", refund: async () => ({ ok: false, pending: true, error: "later", rail: { rail: "simulator", reference: null, status: "queued" } }) },
      { onlyId: simulated },
    );
    expect(await refundCallback(simulated, 1)).toEqual({ status: 200, answer: { received: true, applied: "not sent to this rail" } });
    expect(await statusOf(simulated)).toBe("sending");

    // Sent to the switch, waiting: an older or later attempt's callback moves nothing, the latest attempt's succeeds it.
    const switched = await approved(payment[1]!);
    await processRefunds(
      businessOf(KUMASI),
      {
        kind: "switch",
        refund: async () => ({ ok: false, pending: true, error: "Switch: accepted", rail: { rail: "switch", reference: "sw_r", status: "accepted" } }),
      },
      { onlyId: switched },
    );
    expect((await refundCallback(switched, 2)).answer.applied).toBe("not the latest attempt");
    expect(await statusOf(switched)).toBe("sending");
    expect((await refundCallback(switched, 1)).answer.applied).toBe("applied");
    expect(await statusOf(switched)).toBe("succeeded");
    await expectAccountSumsMatchEntries(portal().shards());
  });
});

// Exactly once across the rails (docs/decisions/041-payout-and-refund-rails.md): fast-check generates
// interleavings of the three ways a rail's answer arrives (the reply to a send, the signed callback, the status poll),
// with duplicates, answers out of order, stale attempts, and a success followed by a late failure (or the reverse),
// and runs them against real D1 with the real ledger statements, for one refund and for one settlement's payout.
// Afterwards the refund has at most one outcome posting, exactly one when it is finished, of the kind its status says;
// its webhook event likewise. The settlement is paid once if any attempt succeeded (and never otherwise), with one
// settlement.paid event, attempt records that agree with its attempts, its one posting from the settlement run and
// none from the payout, and the rail columns of the last answer applied. The ledger's running sums match its entries.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { settlementPosting } from "#server/ledger/ledger";
import { postingStatements } from "#server/ledger/ledger.db";
import { applyAnswerByKey, pollRails } from "#server/rails/apply";
import { parseRailKey, railKey, type RailAnswer } from "#server/rails/answer";
import { requestRefund } from "#server/refunds/refund-requests.db";
import { refundTargetById } from "#server/refunds/refund-sending.db";
import { applyRefundAnswer, processRefunds, type RefundPort } from "#server/refunds/send";
import { MAX_PAYOUT_ATTEMPTS, processPayouts, type PayoutPort } from "#server/settlement/payouts";
import { insertSettlementStatement } from "#server/settlement/settlement-runs.db";
import { createWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { newWebhookSecret } from "#server/webhooks/signing";
import { expectAccountSumsMatchEntries, topUp } from "../support/ledger";
import { businessOf, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

beforeAll(async () => {
  // Only a business that subscribed gets webhook events written (functions/webhooks/outbox.db.ts): without an
  // endpoint, "one event" would hold for want of any.
  await createWebhookEndpoint(
    KOFI_KUMASI,
    META,
    { url: "https://hooks.example.com/rails", eventTypes: ["refund.succeeded", "refund.failed", "settlement.paid", "settlement.failed"] },
    newWebhookSecret(),
    "development",
  );
});
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
          // Its one event (the business subscribed: beforeAll), of the kind its status says.
          expect(events.map((e) => e.id)).toEqual([`evt_${id}_${refund.status}`]);
        }
        expect(refund.attempts).toBeLessThanOrEqual(4);
        // Waiting only for an answer that can still come: still sending, and its latest attempt not answered (a late
        // "processing" after that attempt's failure must not hold it waiting for ever, neither retried nor finished).
        const waiting = await db
          .prepare(
            `SELECT r.status, EXISTS (SELECT 1 FROM refund_attempts a WHERE a.refund_id = r.id AND a.attempt = r.attempts) AS answered
             FROM refunds r WHERE r.id = ? AND r.rail_waiting_since IS NOT NULL`,
          )
          .bind(id)
          .first<{ status: string; answered: number }>();
        if (waiting) expect(waiting).toEqual({ status: "sending", answered: 0 });
      }),
      {
        numRuns: 40,
        seed: 28,
        // A "processing" callback arriving after that attempt's failure (it must not hold the refund waiting for ever).
        examples: [
          [
            [
              { via: "reply", word: "failed", attempt: 1 },
              { via: "callback", word: "pending", attempt: 1 },
            ],
          ],
        ],
      },
    );
    await expectAccountSumsMatchEntries(portal().shards());
  }, 240_000);
});

// ---------------------------------------------------------------- settlement payouts

type PayoutStep =
  /** processPayouts: sends the settlement if it is due (a new attempt), and applies the rail's reply. */
  | { via: "reply"; word: Word; withReference: boolean }
  /** pollRails: asks about the settlement's latest attempt if it waits, and applies the answer. */
  | { via: "poll"; word: Word; withReference: boolean }
  /** A signed callback through applyAnswerByKey, about the latest attempt less `back` (a stale one, which moves nothing), the first at least. */
  | { via: "callback"; word: Word; withReference: boolean; back: number }
  /** The last answer delivered, delivered again (a callback the rail sent twice). */
  | { via: "repeat" };

// Failures weigh most, so sequences reach the last attempt and what comes after the final failure.
const payoutWord: fc.Arbitrary<Word> = fc.oneof(
  { arbitrary: fc.constant<Word>("failed"), weight: 4 },
  { arbitrary: fc.constant<Word>("pending"), weight: 2 },
  { arbitrary: fc.constant<Word>("succeeded"), weight: 1 },
);

const payoutStep: fc.Arbitrary<PayoutStep> = fc.oneof(
  { arbitrary: fc.record({ via: fc.constant("reply" as const), word: payoutWord, withReference: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ via: fc.constant("poll" as const), word: payoutWord, withReference: fc.boolean() }), weight: 2 },
  {
    arbitrary: fc.record({ via: fc.constant("callback" as const), word: payoutWord, withReference: fc.boolean(), back: fc.integer({ min: 0, max: 2 }) }),
    weight: 2,
  },
  { arbitrary: fc.constant({ via: "repeat" as const }), weight: 1 },
);

/**
 * A run of failed sends first (none to all five), then the generated steps: so the last attempt, the final failure
 * and what comes after it (a late success, callbacks about old attempts) are reached, not left to chance.
 */
const sequences: fc.Arbitrary<PayoutStep[]> = fc
  .tuple(fc.integer({ min: 0, max: MAX_PAYOUT_ATTEMPTS }), fc.array(payoutStep, { minLength: 1, maxLength: 16 }))
  .map(([failures, steps]) => [...Array.from({ length: failures }, (): PayoutStep => ({ via: "reply", word: "failed", withReference: true })), ...steps]);

const send = (word: Word): PayoutStep => ({ via: "reply", word, withReference: true });
const callback = (word: Word, back: number, withReference = true): PayoutStep => ({ via: "callback", word, withReference, back });

/** Orders too unlikely to be left to chance, run first every time. */
const PAYOUT_EXAMPLES: PayoutStep[][] = [
  // The latest attempt waits; an older attempt's success arrives late (kept, nothing moves), then the latest attempt's failure.
  [send("failed"), send("pending"), callback("succeeded", 1), callback("failed", 0), { via: "poll", word: "failed", withReference: true }],
  // Everything after the final failure: the same failure again, an old attempt's success (a callback: kept, nothing moves), a late failure.
  [
    ...Array.from({ length: MAX_PAYOUT_ATTEMPTS }, () => send("failed")),
    callback("failed", 0),
    callback("succeeded", 2),
    callback("failed", 0),
    { via: "repeat" },
  ],
  // "Processing" arriving after that attempt's failure must not hold the settlement waiting: it is retried, and paid.
  [send("pending"), callback("failed", 0), callback("pending", 0, false), send("pending"), { via: "poll", word: "succeeded", withReference: false }],
  // A success told twice, then another attempt's success and a late failure.
  [send("failed"), send("succeeded"), { via: "repeat" }, callback("succeeded", 1), callback("failed", 0)],
];

/** The switch's answer about one attempt; a reply that does not check carries no reference of the rail's. */
const payoutAnswerOf = (word: Word, attempt: number, withReference: boolean): RailAnswer => {
  const rail = { rail: "switch", reference: withReference ? `sw_pay_${attempt}` : null, status: word === "pending" ? "processing" : word };
  if (word === "succeeded") return { ok: true, rail };
  if (word === "failed") return { ok: false, error: `Switch: refused on attempt ${attempt}`, rail };
  return { ok: false, pending: true, error: "Switch: processing", rail };
};

/**
 * What the settlement should be after the answers delivered so far, by the rules of decision 041: paid once, from any
 * attempt, and never again; a failure once per attempt and only for the latest attempt of a settlement not paid; a
 * pending answer only while the latest attempt has no answer yet (a late "processing" after that attempt's failure, or
 * a stale attempt's, must not hold the settlement waiting for an answer that has come). Each answer applied leaves
 * its rail columns (the reference only when it gave one).
 */
class PayoutModel {
  status: "pending" | "paid" | "failed" = "pending";
  attempts = 0;
  waiting = false;
  readonly records = new Map<number, "paid" | "failed">();
  readonly events = new Set<string>();
  rail: { rail: string | null; reference: string | null; status: string | null } = { rail: null, reference: null, status: null };
  succeededDelivered = false;

  constructor(readonly id: string) {}

  get due(): boolean {
    return (this.status === "pending" || this.status === "failed") && this.attempts < MAX_PAYOUT_ATTEMPTS && !this.waiting;
  }

  /** Applies one delivered answer; whether it changed anything. */
  apply(word: Word, attempt: number, withReference: boolean): boolean {
    const mark = payoutAnswerOf(word, attempt, withReference).rail!;
    if (word === "succeeded") this.succeededDelivered = true;
    if (this.status === "paid") return false;
    if (word === "pending") {
      if (attempt !== this.attempts || this.records.has(attempt)) return false;
      this.waiting = true;
    } else if (word === "succeeded") {
      this.status = "paid";
      this.waiting = false;
      this.records.set(attempt, "paid");
      this.events.add(`evt_${this.id}_paid`);
    } else {
      if (attempt !== this.attempts || this.records.has(attempt)) return false;
      this.status = "failed";
      this.waiting = false;
      this.records.set(attempt, "failed");
      this.events.add(`evt_${this.id}_failed_${attempt}`);
    }
    this.rail = { rail: mark.rail, reference: mark.reference ?? this.rail.reference, status: mark.status };
    return true;
  }
}

interface SettlementRow {
  status: string;
  attempts: number;
  paidAt: string | null;
  rail: string | null;
  railReference: string | null;
  railStatus: string | null;
  railWaitingSince: string | null;
  leaseUntil: string | null;
}

let settlementSequence = 0;

/** A settlement as the run makes it (pending, never sent) with its posting, older than every other due payout. */
async function newSettlement(net: number): Promise<{ id: string; reference: string }> {
  const db = await portal().db();
  const business = businessOf(KUMASI);
  const n = (settlementSequence += 1);
  const account = (await db
    .prepare("SELECT merchant_id AS merchantId, settlement_account_id AS accountId FROM settlements WHERE business_id = ? ORDER BY id LIMIT 1")
    .bind(KUMASI)
    .first<{ merchantId: string; accountId: string }>())!;
  const id = `stl_rails_eo_${n}`;
  const reference = `STL-RAILS-EO-${String(n).padStart(4, "0")}`;
  const periodStart = Date.UTC(2001, 0, 1) + n * 86_400_000;
  await topUp(KOFI_KUMASI, account.merchantId, net);
  await db.batch([
    insertSettlementStatement(business, {
      id,
      merchantId: account.merchantId,
      settlementAccountId: account.accountId,
      periodStart,
      periodEnd: periodStart + 86_400_000,
      gross: net,
      fees: 0,
      net,
      reference,
      // Older than the seed's and than every earlier run's: processPayouts with limit 1 takes this one when it is due.
      createdAt: new Date(Date.UTC(2000, 0, 1) - n * 60_000).toISOString(),
    }),
    ...postingStatements(business, settlementPosting(account.merchantId, net), {
      postingId: `${id}_payout`,
      memo: `Settlement ${reference}`,
      postedAt: Date.now(),
      settlementId: id,
    }),
  ]);
  return { id, reference };
}

describe("a settlement's payout lands once whatever order the reply, callback, poll and retries arrive in", () => {
  it("holds for generated sequences of answers across attempts (real D1, the real apply path)", async () => {
    const business = businessOf(KUMASI);
    const db = await portal().db();
    // applyAnswerByKey looks for the order in every database of the Worker, as a callback does.
    const env = { DB: portal().database("DB"), SHARD_A: portal().database("SHARD_A"), SHARD_B: portal().database("SHARD_B") } as unknown as Env;
    let clock = Date.now();

    await fc.assert(
      fc.asyncProperty(sequences, async (steps) => {
        const { id, reference } = await newSettlement(2_500);
        const model = new PayoutModel(id);
        type Delivered = { word: Word; attempt: number; withReference: boolean };
        let last: Delivered | null = null;
        const sent: number[] = [];
        const asked: number[] = [];
        // Every other order (the seed's, earlier runs') is refused, so it soon has no attempts left and stays out of the way.
        const elsewhere: RailAnswer = { ok: false, error: "Switch: not this test's order", rail: { rail: "switch", reference: null, status: "failed" } };
        const portAnswering = (word: Word, withReference: boolean): PayoutPort => ({
          kind: "switch",
          pay: async (payout) => {
            if (payout.reference !== reference) return elsewhere;
            sent.push(payout.attempt!);
            return payoutAnswerOf(word, payout.attempt!, withReference);
          },
          status: async (key) => {
            const { base, attempt } = parseRailKey(key);
            if (base !== reference) return elsewhere;
            asked.push(attempt);
            return payoutAnswerOf(word, attempt, withReference);
          },
        });

        for (const s of steps) {
          clock += 2 * HOUR; // every wait is old enough to poll
          if (s.via === "reply") {
            const due = model.due;
            const before = sent.length;
            await processPayouts(business, portAnswering(s.word, s.withReference), { limit: 1 });
            // Sent only when due, as the next attempt, under that attempt's key.
            expect(sent.length - before, `sent when due (${due})`).toBe(due ? 1 : 0);
            if (due) {
              model.attempts += 1;
              expect(sent.at(-1)).toBe(model.attempts);
              model.apply(s.word, model.attempts, s.withReference);
              last = { word: s.word, attempt: model.attempts, withReference: s.withReference };
            }
          } else if (s.via === "poll") {
            const waiting = model.waiting;
            const before = asked.length;
            await pollRails([business], { payout: portAnswering(s.word, s.withReference), refund: null }, { now: clock, afterMs: HOUR });
            // Asked only while waiting, and about the latest attempt.
            expect(asked.length - before, `asked while waiting (${waiting})`).toBe(waiting ? 1 : 0);
            if (waiting) {
              expect(asked.at(-1)).toBe(model.attempts);
              model.apply(s.word, model.attempts, s.withReference);
              last = { word: s.word, attempt: model.attempts, withReference: s.withReference };
            }
          } else {
            // A callback is about an attempt that was sent: none before the first.
            const answer: Delivered | null =
              s.via === "repeat"
                ? last
                : model.attempts > 0
                  ? { word: s.word, attempt: Math.max(1, model.attempts - s.back), withReference: s.withReference }
                  : null;
            if (!answer) continue;
            // A callback moves only the attempt sent last (to this rail, the switch): an older one's is kept, and changes nothing.
            const latest = answer.attempt === model.attempts;
            const applied = latest && model.apply(answer.word, answer.attempt, answer.withReference);
            const result = await applyAnswerByKey(
              env,
              "switch",
              "payout",
              railKey(reference, answer.attempt),
              payoutAnswerOf(answer.word, answer.attempt, answer.withReference),
              clock,
            );
            if (!latest) expect(result).toBe("not the latest attempt");
            else if (answer.word !== "pending") expect(result).toBe(applied ? "applied" : "already");
            last = answer;
          }
          await expectSettlementAsModelled(db, model);
        }

        // The ledger: the settlement run's one posting (available -> settlement payable), two lines, and no other.
        const postings = await db
          .prepare("SELECT posting_id AS id, COUNT(*) AS lines FROM ledger_entries WHERE settlement_id = ? OR posting_id LIKE ? GROUP BY posting_id")
          .bind(id, `${id}%`)
          .all<{ id: string; lines: number }>();
        expect(postings.results).toEqual([{ id: `${id}_payout`, lines: 2 }]);
      }),
      { numRuns: 30, seed: 28, examples: PAYOUT_EXAMPLES.map((steps) => [steps]) },
    );
    await expectAccountSumsMatchEntries(portal().shards());
  }, 300_000);
});

/** The settlement, its attempts and its events in D1 are what the model says, and they agree with one another. */
async function expectSettlementAsModelled(db: D1Database, model: PayoutModel): Promise<void> {
  const row = (await db
    .prepare(
      `SELECT status, attempts, paid_at AS paidAt, rail, rail_reference AS railReference, rail_status AS railStatus, rail_waiting_since AS railWaitingSince,
         payout_lease_until AS leaseUntil FROM settlements WHERE id = ?`,
    )
    .bind(model.id)
    .first<SettlementRow>())!;
  const records = (
    await db
      .prepare("SELECT attempt, outcome FROM payout_attempts WHERE settlement_id = ? ORDER BY attempt")
      .bind(model.id)
      .all<{ attempt: number; outcome: "paid" | "failed" }>()
  ).results;
  const events = (await db.prepare("SELECT id FROM webhook_events WHERE id LIKE ? ORDER BY id").bind(`evt_${model.id}_%`).all<{ id: string }>()).results.map(
    (e) => e.id,
  );

  // Paid at most once, and paid if any attempt succeeded.
  expect(row.status === "paid", "paid exactly when an attempt succeeded").toBe(model.succeededDelivered);
  expect(events.filter((e) => e === `evt_${model.id}_paid`)).toHaveLength(row.status === "paid" ? 1 : 0);
  expect(records.filter((r) => r.outcome === "paid")).toHaveLength(row.status === "paid" ? 1 : 0);
  // Attempts and their records agree: at most MAX, each record about an attempt made, every earlier attempt answered
  // (a new one is made only after a definite failure), a failed settlement's latest attempt failed, and one
  // settlement.failed event for each failure recorded (a failure later overridden by a success keeps its event).
  expect(row.attempts).toBeLessThanOrEqual(MAX_PAYOUT_ATTEMPTS);
  for (const r of records) {
    expect(r.attempt).toBeGreaterThanOrEqual(1);
    expect(r.attempt).toBeLessThanOrEqual(row.attempts);
  }
  for (let attempt = 1; attempt < row.attempts; attempt += 1) expect(records.map((r) => r.attempt)).toContain(attempt);
  // (A retry in flight keeps the status failed while it waits for its own answer.)
  if (row.status === "failed" && row.railWaitingSince === null) expect(records.find((r) => r.attempt === row.attempts)?.outcome).toBe("failed");
  for (const r of records.filter((r) => r.outcome === "failed")) expect(events).toContain(`evt_${model.id}_failed_${r.attempt}`);
  for (const e of events.filter((e) => e.includes("_failed_"))) expect(records.map((r) => `evt_${model.id}_failed_${r.attempt}`)).toContain(e);
  // Waiting only for an answer that can still come: not paid, and the latest attempt not answered.
  if (row.railWaitingSince !== null) {
    expect(row.status).not.toBe("paid");
    expect(records.map((r) => r.attempt)).not.toContain(row.attempts);
  }
  // No lease held between runs: every answer released it.
  expect(row.leaseUntil).toBeNull();

  // And exactly what the rules say, the rail columns being those of the last answer applied.
  expect({
    status: row.status,
    attempts: row.attempts,
    waiting: row.railWaitingSince !== null,
    records: Object.fromEntries(records.map((r) => [r.attempt, r.outcome])),
    events,
    rail: { rail: row.rail, reference: row.railReference, status: row.railStatus },
  }).toEqual({
    status: model.status,
    attempts: model.attempts,
    waiting: model.waiting,
    records: Object.fromEntries(model.records),
    events: [...model.events].sort(),
    rail: model.rail,
  });
}

// planIngest without a database: given a part's work and what the portal held for its references, which payments are
// written, which are duplicates or refused, which reversals apply or wait, and what that moves in the ledger and the
// rollups. The writing of a plan runs on real D1 in tests/integration/ingest-exactly-once.test.ts.
import { describe, expect, it } from "vitest";
import { planIngest, type IngestWork, type PaymentItem, type ReversalItem, type StoredRow, type StoredState } from "./ingest-plan";
import { UnbalancedPostingError } from "../ledger/ledger";

const BUSINESS = "bus_plan";
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 3, 20, 12);
const TODAY = NOW - 2 * 3_600_000;

function payment(reference: string, facts: Partial<PaymentItem> = {}): PaymentItem {
  return {
    reference,
    merchantId: "mer_1",
    pointOfSaleId: "pos_1",
    terminalId: "ter_1",
    channel: "card",
    network: "VISA",
    amount: 10_000,
    status: "successful",
    failureReason: null,
    cardBin: "411111",
    cardLast4: "1111",
    msisdn: null,
    occurredAt: TODAY,
    fingerprint: `fp-${reference}`,
    ...facts,
  };
}

/** A payment as the portal would have read it back. */
function stored(item: PaymentItem, facts: Partial<StoredRow> = {}): StoredRow {
  return {
    reference: item.reference,
    fingerprint: item.fingerprint,
    status: item.status,
    channel: item.channel,
    merchantId: item.merchantId,
    merchantCode: "M001",
    pointOfSaleId: item.pointOfSaleId,
    terminalId: item.terminalId,
    terminalSerial: "SER-1",
    network: item.network,
    amount: item.amount,
    fee: item.status === "failed" ? 0 : 175,
    failureReason: item.failureReason,
    cardBin: item.cardBin,
    cardLast4: item.cardLast4,
    msisdn: item.msisdn,
    createdAt: item.occurredAt,
    clearedAt: null,
    cleared: false,
    goneBack: 0,
    reversalReason: null,
    reversedAt: null,
    ...facts,
  };
}

function held(rows: StoredRow[] = [], waiting: ReversalItem[] = []): StoredState {
  return { stored: new Map(rows.map((row) => [row.reference, row])), waiting: new Map(waiting.map((w) => [w.reference, w])) };
}

const work = (parts: Partial<IngestWork>): IngestWork => ({ payments: [], reversals: [], heartbeats: [], ...parts });
const reversal = (reference: string, reversedAt = TODAY + 60_000, reason = "Customer dispute"): ReversalItem => ({ reference, reason, reversedAt });

describe("planIngest: payments", () => {
  it("writes a new payment with its fee, its posting and one rollup cell", async () => {
    const plan = await planIngest(BUSINESS, work({ payments: [payment("P1")] }), held(), NOW);
    // Card: 1.75 % of GHS 100.00.
    expect(plan.newPayments).toEqual([{ ...payment("P1"), fee: 175 }]);
    expect(plan.result.applied.map((p) => p.reference)).toEqual(["P1"]);
    expect(plan.result.changes).toEqual([{ kind: "succeeded", payment: expect.objectContaining({ reference: "P1", fee: 175, status: "successful" }) }]);
    expect(plan.postings).toEqual([
      {
        lines: [
          { account: { kind: "scheme_receivable" }, amount: 10_000 },
          { account: { kind: "merchant_pending", merchantId: "mer_1" }, amount: -9_825 },
          { account: { kind: "fee_revenue" }, amount: -175 },
        ],
        postingId: `txn_${BUSINESS}_P1_payment`,
        memo: "Card payment P1",
        postedAt: TODAY,
        transactionReference: "P1",
      },
    ]);
    expect(plan.rollups).toEqual([
      {
        day: "2026-04-20",
        merchantId: "mer_1",
        pointOfSaleId: "pos_1",
        terminalId: "ter_1",
        channel: "card",
        network: "VISA",
        status: "successful",
        count: 1,
        amount: 10_000,
        fee: 175,
      },
    ]);
    expect(plan.pastDayChanged).toBe(false);
    expect(plan.conflicts).toEqual([]);
  });

  it("charges mobile money 0.75 % capped at GHS 10.00, and a failed payment nothing, with no posting", async () => {
    const plan = await planIngest(
      BUSINESS,
      work({
        payments: [
          payment("MM-SMALL", { channel: "mobile_money", network: "MTN", amount: 20_000, cardBin: null, cardLast4: null }),
          payment("MM-LARGE", { channel: "mobile_money", network: "MTN", amount: 500_000, cardBin: null, cardLast4: null }),
          payment("FAILED", { status: "failed", failureReason: "Declined" }),
        ],
      }),
      held(),
      NOW,
    );
    expect(plan.newPayments.map((p) => [p.reference, p.fee])).toEqual([
      ["MM-SMALL", 150],
      ["MM-LARGE", 1_000],
      ["FAILED", 0],
    ]);
    expect(plan.postings.map((p) => p.postingId)).toEqual([`txn_${BUSINESS}_MM-SMALL_payment`, `txn_${BUSINESS}_MM-LARGE_payment`]);
    expect(plan.postings[0]!.memo).toBe("Mobile money payment MM-SMALL");
    expect(plan.result.changes.map((c) => c.kind)).toEqual(["succeeded", "succeeded", "failed"]);
    // The two mobile money payments share a cell; the failed one has its own, with no fee.
    expect(plan.rollups.map((c) => [c.status, c.channel, c.count, c.amount, c.fee])).toEqual([
      ["successful", "mobile_money", 2, 520_000, 1_150],
      ["failed", "card", 1, 10_000, 0],
    ]);
  });

  it("sums the rollups per merchant, day and status across points of sale and terminals", async () => {
    const plan = await planIngest(
      BUSINESS,
      work({ payments: [payment("A"), payment("B", { pointOfSaleId: "pos_2", terminalId: null }), payment("C", { merchantId: "mer_2" })] }),
      held(),
      NOW,
    );
    expect(plan.rollups).toHaveLength(3);
    expect(plan.rollups[1]!.terminalId).toBe("");
    expect(plan.merchantTotals.map((t) => [t.merchantId, t.day, t.status, t.count, t.amount, t.fee])).toEqual([
      ["mer_1", "2026-04-20", "successful", 2, 20_000, 350],
      ["mer_2", "2026-04-20", "successful", 1, 10_000, 175],
    ]);
  });

  it("says a past day changed for a late payment", async () => {
    const plan = await planIngest(BUSINESS, work({ payments: [payment("LATE", { occurredAt: NOW - 3 * DAY })] }), held(), NOW);
    expect(plan.pastDayChanged).toBe(true);
    expect(plan.rollups[0]!.day).toBe("2026-04-17");
  });

  it("counts a payment held with the same fingerprint as a duplicate and writes nothing for it", async () => {
    const p = payment("DUP");
    const plan = await planIngest(BUSINESS, work({ payments: [p] }), held([stored(p)]), NOW);
    expect(plan.result.duplicates).toBe(1);
    expect(plan.newPayments).toEqual([]);
    expect(plan.postings).toEqual([]);
    expect(plan.rollups).toEqual([]);
    expect(plan.result.changes).toEqual([]);
  });

  it("writes a reference sent twice in one part once: the second is a duplicate of the first", async () => {
    const plan = await planIngest(BUSINESS, work({ payments: [payment("TWICE"), payment("TWICE")] }), held(), NOW);
    expect(plan.newPayments.map((p) => p.reference)).toEqual(["TWICE"]);
    expect(plan.result.duplicates).toBe(1);
  });

  it("refuses a payment whose reference the portal holds with other content, or from outside the API, and plans the rest", async () => {
    const held1 = stored(payment("OTHER"));
    const held2 = stored(payment("SEEDED"), { fingerprint: null });
    const plan = await planIngest(
      BUSINESS,
      work({ payments: [payment("GOOD-1"), payment("OTHER", { amount: 99, fingerprint: "fp-OTHER-2" }), payment("SEEDED"), payment("GOOD-2")] }),
      held([held1, held2]),
      NOW,
    );
    expect(plan.newPayments.map((p) => p.reference)).toEqual(["GOOD-1", "GOOD-2"]);
    expect(plan.conflicts.map((c) => [c.reference, c.kind, c.fingerprint])).toEqual([
      ["OTHER", "payment", "fp-OTHER-2"],
      ["SEEDED", "payment", "fp-SEEDED"],
    ]);
    expect(plan.conflicts[0]!.problem).toContain("other content");
    expect(plan.conflicts[1]!.problem).toContain("did not come through the API");
    expect(plan.conflicts[0]!.received).toEqual(payment("OTHER", { amount: 99, fingerprint: "fp-OTHER-2" }));
    expect(plan.result.conflicts).toBe(2);
  });

  it("throws for an amount that is not whole pesewas, so the consumer can isolate the message that carries it", async () => {
    await expect(planIngest(BUSINESS, work({ payments: [payment("GOOD"), payment("HALF", { amount: 10.5 })] }), held(), NOW)).rejects.toThrow(
      UnbalancedPostingError,
    );
  });
});

describe("planIngest: reversals", () => {
  it("reverses a payment held, from where its net is, and moves its rollup from successful to reversed", async () => {
    const p = payment("R1");
    for (const cleared of [false, true]) {
      const plan = await planIngest(BUSINESS, work({ reversals: [reversal("R1")] }), held([stored(p, { cleared })]), NOW);
      expect(plan.reversals).toEqual([{ reference: "R1", reason: "Customer dispute", reversedAt: TODAY + 60_000, cleared }]);
      expect(plan.postings[0]!.lines).toContainEqual({
        account: { kind: cleared ? "merchant_available" : "merchant_pending", merchantId: "mer_1" },
        amount: 9_825,
      });
      expect(plan.postings[0]!.postingId).toBe(`txn_${BUSINESS}_R1_reversal`);
      expect(plan.rollups.map((c) => [c.status, c.count, c.amount, c.fee])).toEqual([
        ["successful", -1, -10_000, -175],
        ["reversed", 1, 10_000, 175],
      ]);
      expect(plan.result.changes).toEqual([{ kind: "reversed", payment: expect.objectContaining({ reference: "R1", status: "reversed" }) }]);
    }
  });

  it("applies a reversal after its payment in the same part, never before the payment's time", async () => {
    const plan = await planIngest(BUSINESS, work({ payments: [payment("SAME")], reversals: [reversal("SAME", TODAY - 60_000)] }), held(), NOW);
    expect(plan.newPayments.map((p) => p.reference)).toEqual(["SAME"]);
    expect(plan.reversals).toEqual([{ reference: "SAME", reason: "Customer dispute", reversedAt: TODAY, cleared: false }]);
    expect(plan.result.changes.map((c) => c.kind)).toEqual(["succeeded", "reversed"]);
    // The payment's cell gains one and loses it again; only the reversed cell remains.
    expect(plan.rollups.map((c) => [c.status, c.count])).toEqual([["reversed", 1]]);
  });

  it("keeps a reversal that comes before its payment waiting, once", async () => {
    const plan = await planIngest(BUSINESS, work({ reversals: [reversal("EARLY"), reversal("EARLY")] }), held(), NOW);
    expect(plan.reversalsToWait).toEqual([reversal("EARLY")]);
    expect(plan.result.waiting).toBe(2);
    expect(plan.reversals).toEqual([]);
    expect(plan.postings).toEqual([]);
  });

  it("does not wait again for a reversal already waiting", async () => {
    const plan = await planIngest(BUSINESS, work({ reversals: [reversal("EARLY")] }), held([], [reversal("EARLY")]), NOW);
    expect(plan.reversalsToWait).toEqual([]);
    expect(plan.result.waiting).toBe(1);
  });

  it("applies a waiting reversal when its payment comes, and stops it waiting", async () => {
    const plan = await planIngest(BUSINESS, work({ payments: [payment("LATE-PAY")] }), held([], [reversal("LATE-PAY")]), NOW);
    expect(plan.reversals.map((r) => r.reference)).toEqual(["LATE-PAY"]);
    expect(plan.waitingApplied).toEqual(["LATE-PAY"]);
    expect(plan.result.reversed).toEqual([{ reference: "LATE-PAY", reason: "Customer dispute", reversedAt: TODAY + 60_000 }]);
  });

  it("counts the same reversal again as a duplicate and refuses another one", async () => {
    const p = stored(payment("DONE"), { status: "reversed", reversalReason: "Customer dispute", reversedAt: TODAY + 60_000 });
    const same = await planIngest(BUSINESS, work({ reversals: [reversal("DONE")] }), held([p]), NOW);
    expect(same.result.duplicates).toBe(1);
    expect(same.conflicts).toEqual([]);
    const other = await planIngest(BUSINESS, work({ reversals: [reversal("DONE", TODAY + 120_000)] }), held([p]), NOW);
    expect(other.conflicts.map((c) => [c.reference, c.kind])).toEqual([["DONE", "reversal"]]);
    expect(other.conflicts[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(other.reversals).toEqual([]);
  });

  it("refuses to reverse a failed payment, or one refunded or disputed", async () => {
    const failed = stored(payment("FAILED", { status: "failed" }));
    const refunded = stored(payment("REFUNDED"), { goneBack: 2_500 });
    const plan = await planIngest(BUSINESS, work({ reversals: [reversal("FAILED"), reversal("REFUNDED")] }), held([failed, refunded]), NOW);
    expect(plan.conflicts.map((c) => c.problem)).toEqual([
      "A failed payment cannot be reversed: no money moved.",
      expect.stringContaining("refunded or disputed"),
    ]);
    expect(plan.reversals).toEqual([]);
    expect(plan.rollups).toEqual([]);
  });

  it("leaves what was read as it was", async () => {
    const read = held([stored(payment("KEEP"))], [reversal("W")]);
    await planIngest(BUSINESS, work({ payments: [payment("W"), payment("NEW")], reversals: [reversal("KEEP")] }), read, NOW);
    expect([...read.stored.keys()]).toEqual(["KEEP"]);
    expect(read.stored.get("KEEP")!.status).toBe("successful");
    expect([...read.waiting.keys()]).toEqual(["W"]);
  });
});

describe("planIngest: heartbeats", () => {
  it("keeps the latest heartbeat of each terminal", async () => {
    const beat = (terminalId: string, seenAt: number) => ({ terminalId, seenAt, batteryPercent: 50, signalPercent: 50, softwareVersion: "1.0" });
    const plan = await planIngest(BUSINESS, work({ heartbeats: [beat("T1", 2), beat("T2", 1), beat("T1", 3), beat("T1", 1)] }), held(), NOW);
    expect(plan.heartbeats).toEqual([beat("T1", 3), beat("T2", 1)]);
    expect(plan.result.heartbeats).toBe(2);
  });
});

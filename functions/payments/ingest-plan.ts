// What one part of the PAYMENTS queue's work becomes, decided without a database: from the decoded messages' payments,
// reversals and heartbeats and what the portal held for their references when it read them, which payments are new,
// which reversals apply now, wait for their payment or are refused as conflicts, and what that moves in the ledger and
// the daily rollups. functions/payments/ingest.db.ts reads, calls planIngest and writes the plan in one D1 batch, so the
// exactly-once reasoning there holds for whatever is decided here.
import type { StoredPayment } from "./api-payments.db";
import type { BulkPosting } from "../ledger/ledger.db";
import { paymentPosting, reversalPosting, transactionFee, type Channel } from "../ledger/ledger";
import { sha256Hex } from "../plumbing/sha256";
import { utcDay } from "../plumbing/time";

/** One payment as the API resolved it (ids, not codes) for the queue. */
export interface PaymentItem {
  reference: string;
  merchantId: string;
  pointOfSaleId: string;
  terminalId: string | null;
  channel: Channel;
  network: string;
  amount: number;
  status: "successful" | "failed";
  failureReason: string | null;
  cardBin: string | null;
  cardLast4: string | null;
  msisdn: string | null;
  occurredAt: number;
  /** SHA-256 of the fields above: the same reference with another fingerprint is a conflict. */
  fingerprint: string;
  /** As the door found them, for the payment.* webhooks (not part of the fingerprint). */
  merchantCode?: string;
  terminalSerial?: string | null;
}

export interface ReversalItem {
  reference: string;
  reason: string;
  reversedAt: number;
}

export interface HeartbeatItem {
  terminalId: string;
  batteryPercent: number;
  signalPercent: number;
  softwareVersion: string;
  /** When it was sent by the terminal's clock, never later than when it was received. */
  seenAt: number;
}

export interface IngestWork {
  payments: PaymentItem[];
  reversals: ReversalItem[];
  heartbeats: HeartbeatItem[];
}

export interface IngestResult {
  applied: PaymentItem[];
  changes: PaymentChange[];
  duplicates: number;
  conflicts: number;
  reversed: { reference: string; reason: string; reversedAt: number }[];
  waiting: number;
  heartbeats: number;
}

/** A payment as the portal stores it (or is about to): what the consumer decides on, and what payment.* webhooks carry. */
export interface StoredRow extends Omit<StoredPayment, "settlementId" | "settlementReference" | "settlementStatus" | "settlementPaidAt"> {
  fingerprint: string | null;
  terminalId: string | null;
  /** Whether its net has become available (the reversal then takes it from there). */
  cleared: boolean;
  /** Refunds sent or sending and disputes not won: money already on its way back to the payer. */
  goneBack: number;
}

/** What a batch changed, for the webhooks written in the same batch. */
export interface PaymentChange {
  kind: "succeeded" | "failed" | "reversed";
  payment: StoredRow;
}

/** What the portal held for the part's references when it read them: the payments, and the reversals still waiting for theirs. */
export interface StoredState {
  stored: Map<string, StoredRow>;
  waiting: Map<string, ReversalItem>;
}

/** A payment or reversal refused because the portal holds something else under its reference (payment_conflicts). */
export interface Conflict {
  reference: string;
  kind: "payment" | "reversal";
  problem: string;
  received: unknown;
  fingerprint: string;
}

/** A reversal to write, with whether its payment was cleared as read: the write moves it only from that state. */
export interface ReversalToWrite {
  reference: string;
  reason: string;
  reversedAt: number;
  cleared: boolean;
}

/** What a change adds to (or, negative, takes from) one cell of the daily rollups. */
export interface RollupDelta {
  day: string;
  merchantId: string;
  pointOfSaleId: string;
  terminalId: string;
  channel: string;
  network: string;
  status: string;
  count: number;
  amount: number;
  fee: number;
}

export interface IngestPlan {
  result: IngestResult;
  /** New payments, each with the fee it is stored with. */
  newPayments: (PaymentItem & { fee: number })[];
  reversals: ReversalToWrite[];
  postings: BulkPosting[];
  /** The cells of daily_rollups that change. */
  rollups: RollupDelta[];
  /** The same changes summed per day, merchant and status (daily_merchant_totals). */
  merchantTotals: RollupDelta[];
  /** A day before today changed: the figures kept from closed days are void. */
  pastDayChanged: boolean;
  conflicts: Conflict[];
  /** Reversals for payments the portal does not hold yet: they wait for them. */
  reversalsToWait: ReversalItem[];
  /** Waiting reversals whose payment came in this part: applied, so no longer waiting. */
  waitingApplied: string[];
  /** The latest heartbeat of each terminal: an older one changes nothing. */
  heartbeats: HeartbeatItem[];
}

class Rollups {
  readonly cells = new Map<string, RollupDelta>();
  add(
    p: Pick<StoredRow, "merchantId" | "pointOfSaleId" | "terminalId" | "channel" | "network" | "amount" | "fee" | "createdAt">,
    status: string,
    sign: 1 | -1,
  ) {
    const cell: RollupDelta = {
      day: utcDay(p.createdAt),
      merchantId: p.merchantId,
      pointOfSaleId: p.pointOfSaleId,
      terminalId: p.terminalId ?? "",
      channel: p.channel,
      network: p.network,
      status,
      count: 0,
      amount: 0,
      fee: 0,
    };
    const key = [cell.day, cell.merchantId, cell.pointOfSaleId, cell.terminalId, cell.channel, cell.network, status].join("|");
    const found = this.cells.get(key) ?? cell;
    found.count += sign;
    found.amount += sign * p.amount;
    found.fee += sign * p.fee;
    this.cells.set(key, found);
  }
  /** The same deltas summed per day, merchant and status (daily_merchant_totals). */
  merchantTotals(): RollupDelta[] {
    const totals = new Map<string, RollupDelta>();
    for (const c of this.cells.values()) {
      const key = [c.day, c.merchantId, c.status].join("|");
      const t = totals.get(key) ?? { ...c, pointOfSaleId: "", terminalId: "", channel: "", network: "", count: 0, amount: 0, fee: 0 };
      t.count += c.count;
      t.amount += c.amount;
      t.fee += c.fee;
      totals.set(key, t);
    }
    return [...totals.values()];
  }
}

/**
 * Decides what the work changes, given what was read. Throws for a payment that cannot be stored (an amount that is
 * not whole pesewas): the consumer then isolates and parks its message. `read` is left as it was.
 */
export async function planIngest(businessId: string, work: IngestWork, read: StoredState, now: number): Promise<IngestPlan> {
  // Copies: a payment written or reversed here is seen so by what comes later in the same part.
  const stored = new Map([...read.stored].map(([reference, row]) => [reference, { ...row }]));
  const waiting = new Map(read.waiting);

  const result: IngestResult = { applied: [], changes: [], duplicates: 0, conflicts: 0, reversed: [], waiting: 0, heartbeats: 0 };
  const conflicts: Conflict[] = [];
  const newPayments: (PaymentItem & { fee: number })[] = [];
  const postings: BulkPosting[] = [];
  const rollups = new Rollups();
  const reversals: ReversalToWrite[] = [];
  const reversalsToWait: ReversalItem[] = [];
  const waitingApplied: string[] = [];
  const reversalsToApply = [...work.reversals];

  for (const payment of work.payments) {
    const existing = stored.get(payment.reference);
    if (existing) {
      if (existing.fingerprint === payment.fingerprint) result.duplicates++;
      else
        conflicts.push({
          reference: payment.reference,
          kind: "payment",
          problem:
            existing.fingerprint === null
              ? "The portal already holds a payment with this reference that did not come through the API; the one received was not applied."
              : "The portal already holds a payment with this reference and other content; the one received was not applied.",
          received: payment,
          fingerprint: payment.fingerprint,
        });
      continue;
    }
    // A failed payment moved no money: it is stored without a fee, so its rollups add none.
    const fee = payment.status === "failed" ? 0 : transactionFee(payment.channel, payment.amount);
    const row: StoredRow = {
      reference: payment.reference,
      fingerprint: payment.fingerprint,
      status: payment.status,
      channel: payment.channel,
      merchantId: payment.merchantId,
      merchantCode: payment.merchantCode ?? "",
      pointOfSaleId: payment.pointOfSaleId,
      terminalId: payment.terminalId,
      terminalSerial: payment.terminalSerial ?? null,
      network: payment.network,
      amount: payment.amount,
      fee,
      failureReason: payment.failureReason,
      cardBin: payment.cardBin,
      cardLast4: payment.cardLast4,
      msisdn: payment.msisdn,
      createdAt: payment.occurredAt,
      clearedAt: null,
      cleared: false,
      goneBack: 0,
      reversalReason: null,
      reversedAt: null,
    };
    stored.set(payment.reference, row);
    newPayments.push({ ...payment, fee });
    result.applied.push(payment);
    result.changes.push({ kind: payment.status === "successful" ? "succeeded" : "failed", payment: { ...row } });
    rollups.add(row, payment.status, 1);
    if (payment.status === "successful") {
      const what = payment.channel === "card" ? "Card payment" : "Mobile money payment";
      postings.push({
        lines: paymentPosting({ merchantId: payment.merchantId, amount: payment.amount, fee }),
        postingId: `txn_${businessId}_${payment.reference}_payment`,
        memo: `${what} ${payment.reference}`,
        postedAt: payment.occurredAt,
        transactionReference: payment.reference,
      });
    }
    // A reversal that came first was waiting for this payment.
    const early = waiting.get(payment.reference);
    if (early) {
      reversalsToApply.push(early);
      waitingApplied.push(early.reference);
      waiting.delete(early.reference);
    }
  }

  for (const reversal of reversalsToApply) {
    const target = stored.get(reversal.reference);
    // Needed only when the reversal is kept aside as a conflict.
    const reversalFingerprint = () => sha256Hex(JSON.stringify(["reversal", reversal.reference, reversal.reason, reversal.reversedAt]));
    if (!target) {
      if (!waiting.has(reversal.reference) && !reversalsToWait.some((w) => w.reference === reversal.reference)) reversalsToWait.push(reversal);
      result.waiting++;
      continue;
    }
    if (target.status === "reversed") {
      if (target.reversalReason === reversal.reason && target.reversedAt === reversal.reversedAt) result.duplicates++;
      else
        conflicts.push({
          reference: reversal.reference,
          kind: "reversal",
          problem: "This payment was already reversed, with another reason or time; the reversal received was not applied.",
          received: reversal,
          fingerprint: await reversalFingerprint(),
        });
      continue;
    }
    if (target.status === "failed") {
      conflicts.push({
        reference: reversal.reference,
        kind: "reversal",
        problem: "A failed payment cannot be reversed: no money moved.",
        received: reversal,
        fingerprint: await reversalFingerprint(),
      });
      continue;
    }
    if (target.goneBack > 0) {
      conflicts.push({
        reference: reversal.reference,
        kind: "reversal",
        problem: "This payment was refunded or disputed: reversing it too would return its money to the payer twice. The reversal received was not applied.",
        received: reversal,
        fingerprint: await reversalFingerprint(),
      });
      continue;
    }
    const reversedAt = Math.max(reversal.reversedAt, target.createdAt);
    const facts = { merchantId: target.merchantId, amount: target.amount, fee: target.fee };
    postings.push({
      lines: reversalPosting(facts, target.cleared),
      postingId: `txn_${businessId}_${target.reference}_reversal`,
      memo: `Reversal ${target.reference}`,
      postedAt: reversedAt,
      transactionReference: target.reference,
    });
    rollups.add(target, "successful", -1);
    rollups.add(target, "reversed", 1);
    reversals.push({ reference: target.reference, reason: reversal.reason, reversedAt, cleared: target.cleared });
    target.status = "reversed";
    target.reversalReason = reversal.reason;
    target.reversedAt = reversedAt;
    result.reversed.push({ reference: target.reference, reason: reversal.reason, reversedAt });
    result.changes.push({ kind: "reversed", payment: { ...target } });
  }

  const latest = new Map<string, HeartbeatItem>();
  for (const beat of work.heartbeats) if ((latest.get(beat.terminalId)?.seenAt ?? -1) < beat.seenAt) latest.set(beat.terminalId, beat);
  result.heartbeats = latest.size;
  result.conflicts = conflicts.length;

  const cells = [...rollups.cells.values()].filter((c) => c.count !== 0 || c.amount !== 0);
  return {
    result,
    newPayments,
    reversals,
    postings,
    rollups: cells,
    merchantTotals: rollups.merchantTotals(),
    pastDayChanged: cells.some((c) => c.day < utcDay(now)),
    conflicts,
    reversalsToWait,
    waitingApplied,
    heartbeats: [...latest.values()],
  };
}

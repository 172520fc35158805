// What the Partner API's queue consumer writes (functions/payments/consumer.ts):
// payments with their ledger postings, the accounts' running sums, the daily
// rollups and merchant totals; reversals; heartbeats; conflicts. One business's
// share of a queue batch is read once and written in ONE D1 batch, so a payment
// is all there or not there at all.
//
// Exactly once: a reference is one payment (UNIQUE (business_id, reference)).
// The consumer reads what the portal holds for the batch's references, writes
// only what is new, and guards what it changes (a reversal moves a payment only
// from the state it read). A batch that meets a row written meanwhile fails as a
// whole (the UNIQUE or the guard) and the queue delivers it again; the second
// read sees the row and the payment is a duplicate. So duplicates, reorders,
// concurrent deliveries and redeliveries all end as one payment each.
//
// The consumer may apply a share in parts (poison isolation, decision 028): each
// part is read and written as above, so splitting changes nothing of this. A
// reversal waits for its payment REVERSAL_WAIT_MS (waiting-reversals.ts), then
// expires and is never applied.
import type { BusinessDb } from "../tenancy/tenant";
import { PAYMENT_COLUMNS, PAYMENT_FROM, type StoredPayment } from "./api-payments.db";
import { closedDayVersionBumpStatement } from "../reports/closed-days.db";
import { bulkPostingStatements, type BulkPosting } from "../ledger/ledger.db";
import { paymentPosting, reversalPosting, transactionFee, type Channel } from "../ledger/ledger";
import { sha256Hex } from "../platform/sha256";
import { REVERSAL_WAIT_MS } from "./waiting-reversals.db";
import { utcDay } from "../platform/time";
import { clearBatchGuardsStatement } from "../platform/batch-guards.db";

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

interface Conflict {
  reference: string;
  kind: "payment" | "reversal";
  problem: string;
  received: unknown;
  fingerprint: string;
}

const dayOf = utcDay;

/** What of the payment `row` names has gone back to its payer already: refunds that moved money, disputes not won. */
const goneBackSql = (row: string) =>
  `((SELECT coalesce(SUM(f.amount), 0) FROM refunds f WHERE f.business_id = ${row}.business_id AND f.transaction_id = ${row}.id AND f.status IN ('sending', 'succeeded'))
  + (SELECT coalesce(SUM(d.amount), 0) FROM disputes d WHERE d.business_id = ${row}.business_id AND d.transaction_id = ${row}.id AND d.status <> 'won'))`;

async function readStored({ businessId, db }: BusinessDb, references: string[], now: number) {
  const json = JSON.stringify(references);
  const [stored, waiting] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ${PAYMENT_COLUMNS}, t.fingerprint, t.terminal_id AS terminalId, t.cleared_at IS NOT NULL AS cleared, ${goneBackSql("t")} AS goneBack
         FROM ${PAYMENT_FROM}
         WHERE t.business_id = ?1 AND t.reference IN (SELECT value FROM json_each(?2))`,
      )
      .bind(businessId, json),
    db
      .prepare(
        "SELECT reference, reason, reversed_at AS reversedAt FROM pending_reversals WHERE business_id = ?1 AND reference IN (SELECT value FROM json_each(?2)) AND received_at > ?3",
      )
      // An expired reversal is never applied: a payment arriving after the window is another payment (waiting-reversals.ts).
      .bind(businessId, json, now - REVERSAL_WAIT_MS),
  ]);
  const storedRows = (stored?.results ?? []) as unknown as (Omit<StoredRow, "cleared"> & { cleared: number })[];
  return {
    stored: new Map(storedRows.map((row) => [row.reference, { ...row, cleared: row.cleared === 1 }])),
    waiting: new Map(((waiting?.results ?? []) as unknown as ReversalItem[]).map((row) => [row.reference, row])),
  };
}

type RollupKey = string;
interface RollupDelta {
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

class Rollups {
  readonly cells = new Map<RollupKey, RollupDelta>();
  add(
    p: Pick<StoredRow, "merchantId" | "pointOfSaleId" | "terminalId" | "channel" | "network" | "amount" | "fee" | "createdAt">,
    status: string,
    sign: 1 | -1,
  ) {
    const cell: RollupDelta = {
      day: dayOf(p.createdAt),
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

// The key columns of each table, as they are named in the JSON cells.
const KEYS = {
  daily_rollups: [
    ["day", "day"],
    ["merchant_id", "merchantId"],
    ["point_of_sale_id", "pointOfSaleId"],
    ["terminal_id", "terminalId"],
    ["channel", "channel"],
    ["network", "network"],
    ["status", "status"],
  ],
  daily_merchant_totals: [
    ["day", "day"],
    ["merchant_id", "merchantId"],
    ["status", "status"],
  ],
} as const;

/** Adds cells that gain payments (insert or add) and updates the others (a row whose count reaches zero is removed: count > 0 is a CHECK). */
function deltaStatements({ businessId, db }: BusinessDb, table: keyof typeof KEYS, cells: RollupDelta[]): D1PreparedStatement[] {
  const columns = KEYS[table].map(([column]) => column);
  const key = ["business_id", ...columns].join(", ");
  const values = ["?1", ...KEYS[table].map(([column, field]) => `j.value->>'${field}' AS ${column}`)].join(", ");
  // Only a cell that gains in every column may insert: SQLite checks an upsert's CHECKs on the row it would insert
  // before it finds the conflict. A cell that loses anywhere took a stored payment away, so its row exists: an update.
  const gains = (c: RollupDelta) => c.count > 0 && c.amount >= 0 && c.fee >= 0;
  const up = cells.filter(gains);
  const down = cells.filter((c) => !gains(c) && (c.count !== 0 || c.amount !== 0 || c.fee !== 0));
  const statements: D1PreparedStatement[] = [];
  if (up.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT INTO ${table} (${key}, count, amount, fee)
           SELECT ${values}, j.value->>'count', j.value->>'amount', j.value->>'fee' FROM json_each(?2) j WHERE true
           ON CONFLICT (${key}) DO UPDATE SET count = count + excluded.count, amount = amount + excluded.amount, fee = fee + excluded.fee`,
        )
        .bind(businessId, JSON.stringify(up)),
    );
  }
  if (down.length > 0) {
    const json = JSON.stringify(down);
    statements.push(
      db.prepare(`DELETE FROM ${table} WHERE (${key}, count) IN (SELECT ${values}, 0 - (j.value->>'count') FROM json_each(?2) j)`).bind(businessId, json),
      db
        .prepare(
          `UPDATE ${table} SET count = ${table}.count + d.count, amount = ${table}.amount + d.amount, fee = ${table}.fee + d.fee
           FROM (SELECT ${values}, j.value->>'count' AS count, j.value->>'amount' AS amount, j.value->>'fee' AS fee FROM json_each(?2) j) AS d
           WHERE ${table}.business_id = ?1 AND ${columns.map((c) => `${table}.${c} = d.${c}`).join(" AND ")}`,
        )
        .bind(businessId, json),
    );
  }
  return statements;
}

/** Reads what is stored for the work's references, decides what is new, and writes it in one batch. Throws (the batch rolls back) on a race. */
export async function applyIngest(
  { businessId, db }: BusinessDb,
  work: IngestWork,
  now: number,
  /** Statements written in the same batch for what changed (the payment.* webhooks' outbox). */
  events: (changes: PaymentChange[]) => Promise<D1PreparedStatement[]> = () => Promise.resolve([]),
): Promise<IngestResult> {
  const references = [...new Set([...work.payments.map((p) => p.reference), ...work.reversals.map((r) => r.reference)])];
  const { stored, waiting } =
    references.length > 0
      ? await readStored({ businessId, db }, references, now)
      : { stored: new Map<string, StoredRow>(), waiting: new Map<string, ReversalItem>() };

  const result: IngestResult = { applied: [], changes: [], duplicates: 0, conflicts: 0, reversed: [], waiting: 0, heartbeats: 0 };
  const conflicts: Conflict[] = [];
  const inserts: (PaymentItem & { fee: number })[] = [];
  const postings: BulkPosting[] = [];
  const rollups = new Rollups();
  // References this batch reverses: cleared state as read, for the guard.
  const reversals: { reference: string; reason: string; reversedAt: number; cleared: boolean }[] = [];
  const newWaiting: ReversalItem[] = [];
  const appliedWaiting: string[] = [];
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
    inserts.push({ ...payment, fee });
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
      appliedWaiting.push(early.reference);
      waiting.delete(early.reference);
    }
  }

  for (const reversal of reversalsToApply) {
    const target = stored.get(reversal.reference);
    // Needed only when the reversal is kept aside as a conflict.
    const reversalFingerprint = () => sha256Hex(JSON.stringify(["reversal", reversal.reference, reversal.reason, reversal.reversedAt]));
    if (!target) {
      if (!waiting.has(reversal.reference) && !newWaiting.some((w) => w.reference === reversal.reference)) newWaiting.push(reversal);
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

  const statements: D1PreparedStatement[] = [];
  if (inserts.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT INTO transactions (business_id, reference, merchant_id, point_of_sale_id, terminal_id, channel, network, amount, fee, status,
             card_bin, card_last4, customer_msisdn, created_at, failure_reason, fingerprint)
           SELECT ?1, j.value->>'reference', j.value->>'merchantId', j.value->>'pointOfSaleId', j.value->>'terminalId', j.value->>'channel', j.value->>'network',
             j.value->>'amount', j.value->>'fee', j.value->>'status', j.value->>'cardBin', j.value->>'cardLast4', j.value->>'msisdn', j.value->>'occurredAt',
             j.value->>'failureReason', j.value->>'fingerprint'
           FROM json_each(?2) j`,
        )
        .bind(businessId, JSON.stringify(inserts)),
    );
  }
  if (reversals.length > 0) {
    const json = JSON.stringify(reversals);
    statements.push(
      db
        .prepare(
          `UPDATE transactions SET status = 'reversed', reversal_reason = r.reason, reversed_at = r.reversedAt
           FROM (SELECT j.value->>'reference' AS reference, j.value->>'reason' AS reason, j.value->>'reversedAt' AS reversedAt, j.value->>'cleared' AS cleared
                 FROM json_each(?2) j) AS r
           WHERE transactions.business_id = ?1 AND transactions.reference = r.reference AND transactions.status = 'successful'
             AND (transactions.cleared_at IS NOT NULL) = (r.cleared = 1)
             AND ${goneBackSql("transactions")} = 0`,
        )
        .bind(businessId, json),
      // Every reversal found its payment as it was read (not reversed or cleared meanwhile), or the batch rolls back.
      db.prepare("INSERT INTO batch_guards (ok, reason) VALUES (changes() = ?, 'a reversed payment changed meanwhile')").bind(reversals.length),
    );
  }
  statements.push(...bulkPostingStatements({ businessId, db }, postings));
  const cells = [...rollups.cells.values()].filter((c) => c.count !== 0 || c.amount !== 0);
  statements.push(
    ...deltaStatements({ businessId, db }, "daily_rollups", cells),
    ...deltaStatements({ businessId, db }, "daily_merchant_totals", rollups.merchantTotals()),
  );
  // A past day changed (a late payment, a reversal): the figures kept from closed days are void (closed-days.ts).
  if (cells.some((c) => c.day < dayOf(now))) statements.push(closedDayVersionBumpStatement({ businessId, db }));
  if (conflicts.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO payment_conflicts (business_id, reference, kind, problem, received, fingerprint, received_at)
           SELECT ?1, j.value->>'reference', j.value->>'kind', j.value->>'problem', j.value->>'received', j.value->>'fingerprint', ?3 FROM json_each(?2) j`,
        )
        .bind(businessId, JSON.stringify(conflicts.map((c) => ({ ...c, received: JSON.stringify(c.received) }))), now),
    );
    result.conflicts = conflicts.length;
  }
  if (newWaiting.length > 0) {
    statements.push(
      db
        .prepare(
          // A reversal that expired for this reference is replaced: the new one waits its own window.
          `INSERT INTO pending_reversals (business_id, reference, reason, reversed_at, received_at)
           SELECT ?1, j.value->>'reference', j.value->>'reason', j.value->>'reversedAt', ?3 FROM json_each(?2) j WHERE true
           ON CONFLICT (business_id, reference) DO UPDATE SET reason = excluded.reason, reversed_at = excluded.reversed_at, received_at = excluded.received_at
           WHERE pending_reversals.received_at <= ?4`,
        )
        .bind(businessId, JSON.stringify(newWaiting), now, now - REVERSAL_WAIT_MS),
    );
  }
  if (appliedWaiting.length > 0) {
    statements.push(
      db
        .prepare("DELETE FROM pending_reversals WHERE business_id = ?1 AND reference IN (SELECT value FROM json_each(?2))")
        .bind(businessId, JSON.stringify(appliedWaiting)),
    );
  }
  if (work.heartbeats.length > 0) {
    // The latest heartbeat of each terminal; an older one than what is stored changes nothing.
    const latest = new Map<string, HeartbeatItem>();
    for (const beat of work.heartbeats) if ((latest.get(beat.terminalId)?.seenAt ?? -1) < beat.seenAt) latest.set(beat.terminalId, beat);
    statements.push(
      db
        .prepare(
          `UPDATE terminals SET last_seen_at = h.seenAt, battery_percent = h.battery, signal_percent = h.signal, software_version = h.software
           FROM (SELECT j.value->>'terminalId' AS id, j.value->>'seenAt' AS seenAt, j.value->>'batteryPercent' AS battery, j.value->>'signalPercent' AS signal,
                   j.value->>'softwareVersion' AS software FROM json_each(?2) j) AS h
           WHERE terminals.business_id = ?1 AND terminals.id = h.id AND (terminals.last_seen_at IS NULL OR terminals.last_seen_at <= h.seenAt)`,
        )
        .bind(businessId, JSON.stringify([...latest.values()])),
    );
    result.heartbeats = latest.size;
  }
  statements.push(...(await events(result.changes)));
  if (statements.length === 0) return result;
  statements.push(clearBatchGuardsStatement(db));
  await db.batch(statements);
  return result;
}

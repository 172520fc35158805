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
// What to write is decided by planIngest (ingest-plan.ts) from what was read; this module reads, and writes the plan.
//
// The consumer may apply a share in parts (poison isolation, decision 028): each
// part is read and written as above, so splitting changes nothing of this. A
// reversal waits for its payment REVERSAL_WAIT_MS (waiting-reversals.ts), then
// expires and is never applied.
import type { BusinessDb } from "../tenancy/tenant";
import { PAYMENT_COLUMNS, PAYMENT_FROM } from "./api-payments.db";
import { closedDayVersionBumpStatement } from "../reports/closed-days.db";
import { bulkPostingStatements } from "../ledger/ledger.db";
import { REVERSAL_WAIT_MS } from "./waiting-reversals.db";
import { clearBatchGuardsStatement } from "../plumbing/batch-guards.db";
import { rollupStatements } from "./ingest-rollups.db";
import { planIngest, type IngestResult, type IngestWork, type PaymentChange, type ReversalItem, type StoredRow, type StoredState } from "./ingest-plan";

/** What of the payment `row` names has gone back to its payer already: refunds that moved money, disputes not won. */
const goneBackSql = (row: string) =>
  `((SELECT coalesce(SUM(f.amount), 0) FROM refunds f WHERE f.business_id = ${row}.business_id AND f.transaction_id = ${row}.id AND f.status IN ('sending', 'succeeded'))
  + (SELECT coalesce(SUM(d.amount), 0) FROM disputes d WHERE d.business_id = ${row}.business_id AND d.transaction_id = ${row}.id AND d.status <> 'won'))`;

async function readStored({ businessId, db }: BusinessDb, references: string[], now: number): Promise<StoredState> {
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

/** Reads what is stored for the work's references, decides what is new, and writes it in one batch. Throws (the batch rolls back) on a race. */
export async function applyIngest(
  { businessId, db }: BusinessDb,
  work: IngestWork,
  now: number,
  /** Statements written in the same batch for what changed (the payment.* webhooks' outbox). */
  events: (changes: PaymentChange[]) => Promise<D1PreparedStatement[]> = () => Promise.resolve([]),
): Promise<IngestResult> {
  const references = [...new Set([...work.payments.map((p) => p.reference), ...work.reversals.map((r) => r.reference)])];
  const read =
    references.length > 0
      ? await readStored({ businessId, db }, references, now)
      : { stored: new Map<string, StoredRow>(), waiting: new Map<string, ReversalItem>() };
  const plan = await planIngest(businessId, work, read, now);
  const { result } = plan;

  const statements: D1PreparedStatement[] = [];
  if (plan.newPayments.length > 0) {
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
        .bind(businessId, JSON.stringify(plan.newPayments)),
    );
  }
  if (plan.reversals.length > 0) {
    const json = JSON.stringify(plan.reversals);
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
      db.prepare("INSERT INTO batch_guards (ok, reason) VALUES (changes() = ?, 'a reversed payment changed meanwhile')").bind(plan.reversals.length),
    );
  }
  statements.push(...bulkPostingStatements({ businessId, db }, plan.postings), ...rollupStatements({ businessId, db }, plan));
  // A past day changed (a late payment, a reversal): the figures kept from closed days are void (closed-days.ts).
  if (plan.pastDayChanged) statements.push(closedDayVersionBumpStatement({ businessId, db }));
  if (plan.conflicts.length > 0) {
    statements.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO payment_conflicts (business_id, reference, kind, problem, received, fingerprint, received_at)
           SELECT ?1, j.value->>'reference', j.value->>'kind', j.value->>'problem', j.value->>'received', j.value->>'fingerprint', ?3 FROM json_each(?2) j`,
        )
        .bind(businessId, JSON.stringify(plan.conflicts.map((c) => ({ ...c, received: JSON.stringify(c.received) }))), now),
    );
  }
  if (plan.reversalsToWait.length > 0) {
    statements.push(
      db
        .prepare(
          // A reversal that expired for this reference is replaced: the new one waits its own window.
          `INSERT INTO pending_reversals (business_id, reference, reason, reversed_at, received_at)
           SELECT ?1, j.value->>'reference', j.value->>'reason', j.value->>'reversedAt', ?3 FROM json_each(?2) j WHERE true
           ON CONFLICT (business_id, reference) DO UPDATE SET reason = excluded.reason, reversed_at = excluded.reversed_at, received_at = excluded.received_at
           WHERE pending_reversals.received_at <= ?4`,
        )
        .bind(businessId, JSON.stringify(plan.reversalsToWait), now, now - REVERSAL_WAIT_MS),
    );
  }
  if (plan.waitingApplied.length > 0) {
    statements.push(
      db
        .prepare("DELETE FROM pending_reversals WHERE business_id = ?1 AND reference IN (SELECT value FROM json_each(?2))")
        .bind(businessId, JSON.stringify(plan.waitingApplied)),
    );
  }
  if (plan.heartbeats.length > 0) {
    // An older heartbeat than what is stored changes nothing.
    statements.push(
      db
        .prepare(
          `UPDATE terminals SET last_seen_at = h.seenAt, battery_percent = h.battery, signal_percent = h.signal, software_version = h.software
           FROM (SELECT j.value->>'terminalId' AS id, j.value->>'seenAt' AS seenAt, j.value->>'batteryPercent' AS battery, j.value->>'signalPercent' AS signal,
                   j.value->>'softwareVersion' AS software FROM json_each(?2) j) AS h
           WHERE terminals.business_id = ?1 AND terminals.id = h.id AND (terminals.last_seen_at IS NULL OR terminals.last_seen_at <= h.seenAt)`,
        )
        .bind(businessId, JSON.stringify(plan.heartbeats)),
    );
  }
  statements.push(...(await events(result.changes)));
  if (statements.length === 0) return result;
  statements.push(clearBatchGuardsStatement(db));
  await db.batch(statements);
  return result;
}

// Events about money that did not go where it was sent, and about the business's webhook endpoints (decision 053):
// a transfer's payout or a refund the rail failed, a settlement run that finished with failed payouts (one notice a
// run's day), an endpoint that keeps failing (once a day) or was disabled. Each is for every member whose role the
// kind is for (Finance for money, those who manage the API for endpoints). Read back over the last day each run.
import type { BusinessDb } from "../tenancy/tenant";
import type { BusinessEvent } from "./people-events.db";
import { payoutFailedWords, refundFailedWords, settlementRunWords, webhookWords } from "./event-words";

/** An endpoint is told of as failing once its oldest undelivered event has waited this long with no 2xx since. */
export const WEBHOOK_FAILING_AFTER_MS = 3_600_000;

interface FailedPayoutRow {
  id: string;
  transfer_id: string | null;
  net: number;
  reference: string;
  attempts: number;
  created_at: string;
  merchant: string;
  error: string | null;
}

/** Payouts whose latest attempt failed since `since`: a transfer's each, a run's grouped by the run's day. */
export async function payoutEvents(business: BusinessDb, since: string, limit: number): Promise<BusinessEvent[]> {
  const { results } = await business.db
    .prepare(
      `SELECT s.id, s.transfer_id, s.net, s.reference, s.attempts, s.created_at, m.name AS merchant, a.error
       FROM settlements s
       JOIN merchants m ON m.id = s.merchant_id AND m.business_id = s.business_id
       JOIN payout_attempts a ON a.business_id = s.business_id AND a.settlement_id = s.id AND a.attempt = s.attempts AND a.outcome = 'failed'
       WHERE s.business_id = ? AND s.status = 'failed' AND a.at >= ?
       ORDER BY a.at, s.id
       LIMIT ?`,
    )
    .bind(business.businessId, since, limit)
    .all<FailedPayoutRow>();
  const events: BusinessEvent[] = [];
  const runs = new Map<string, { failed: number; amount: number }>();
  for (const row of results) {
    if (row.transfer_id) {
      events.push({
        kind: "payout.failed",
        key: `payout.failed:${row.id}:${row.attempts}`,
        subject: row.id,
        subjectKind: "settlement",
        ...payoutFailedWords({ merchant: row.merchant, amount: row.net, reference: row.reference, reason: row.error }),
      });
      continue;
    }
    const day = row.created_at.slice(0, 10);
    const run = runs.get(day) ?? { failed: 0, amount: 0 };
    run.failed += 1;
    run.amount += row.net;
    runs.set(day, run);
  }
  if (runs.size === 0) return events;
  const { results: totals } = await business.db
    .prepare(
      `SELECT substr(created_at, 1, 10) AS day, count(*) AS total FROM settlements
       WHERE business_id = ? AND transfer_id IS NULL AND created_at >= ? GROUP BY substr(created_at, 1, 10)`,
    )
    .bind(business.businessId, `${[...runs.keys()].sort()[0]}T00:00:00.000Z`)
    .all<{ day: string; total: number }>();
  for (const [day, run] of runs) {
    const total = totals.find((t) => t.day === day)?.total ?? run.failed;
    events.push({
      kind: "settlement.failed",
      key: `settlement.failed:${day}`,
      subject: day,
      subjectKind: "settlement_run",
      ...settlementRunWords({ day: Date.parse(`${day}T00:00:00Z`), failed: run.failed, total, amount: run.amount }),
    });
  }
  return events;
}

interface FailedRefundRow {
  id: string;
  transaction_id: number;
  amount: number;
  failure_reason: string;
  merchant: string;
  reference: string;
}

/** Refunds the rail failed since `since` (their money is back in the merchant's balance). */
export async function refundEvents(business: BusinessDb, since: string, limit: number): Promise<BusinessEvent[]> {
  const { results } = await business.db
    .prepare(
      `SELECT f.id, f.transaction_id, f.amount, f.failure_reason, m.name AS merchant, t.reference
       FROM refunds f
       JOIN merchants m ON m.id = f.merchant_id AND m.business_id = f.business_id
       JOIN transactions t ON t.id = f.transaction_id AND t.business_id = f.business_id
       WHERE f.business_id = ? AND f.status = 'failed' AND f.completed_at >= ?
       ORDER BY f.completed_at, f.id
       LIMIT ?`,
    )
    .bind(business.businessId, since, limit)
    .all<FailedRefundRow>();
  return results.map((row) => ({
    kind: "refund.failed",
    key: `refund.failed:${row.id}`,
    subject: String(row.transaction_id),
    subjectKind: "transaction",
    ...refundFailedWords({ merchant: row.merchant, amount: row.amount, reference: row.reference, reason: row.failure_reason }),
  }));
}

interface EndpointRow {
  id: string;
  url: string;
  status: "enabled" | "disabled";
  disabled_reason: string | null;
  disabled_at: number | null;
}

/** Endpoints disabled since `since`, and enabled ones with an event undelivered for an hour, made since they were last enabled, and no 2xx since. */
export async function webhookEvents(business: BusinessDb, now: number, since: number): Promise<BusinessEvent[]> {
  const failingSince = now - WEBHOOK_FAILING_AFTER_MS;
  const { results } = await business.db
    .prepare(
      `SELECT e.id, e.url, e.status, e.disabled_reason, e.disabled_at FROM webhook_endpoints e
       WHERE e.business_id = ?1 AND (
         (e.status = 'disabled' AND e.disabled_at >= ?2)
         OR (e.status = 'enabled' AND EXISTS (
           SELECT 1 FROM webhook_deliveries d
           WHERE d.business_id = e.business_id AND d.endpoint_id = e.id AND d.status IN ('pending', 'failed') AND d.attempts > 0
             AND d.created_at <= ?3 AND coalesce(e.last_success_at, 0) < d.created_at AND coalesce(e.enabled_at, 0) <= d.created_at)))`,
    )
    .bind(business.businessId, since, failingSince)
    .all<EndpointRow>();
  const day = new Date(now).toISOString().slice(0, 10);
  return results.map((row) => ({
    kind: row.status === "disabled" ? "webhook.disabled" : "webhook.failing",
    key: row.status === "disabled" ? `webhook.disabled:${row.id}:${row.disabled_at}` : `webhook.failing:${row.id}:${day}`,
    subject: row.id,
    subjectKind: "webhook_endpoint",
    ...webhookWords({ disabled: row.status === "disabled", url: row.url, reason: row.disabled_reason }),
  }));
}

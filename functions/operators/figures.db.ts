// The platform's figures of its businesses, read on each business's own database (decision 021): counts and sums only,
// never a payer's number, card or name. The list's figures are read per database for the businesses of one page of
// the list: one statement per figure, each grouped by business over the ids bound as one JSON array (decision 033),
// so a page of 25 businesses costs one batch per database, whatever the number of businesses.
import { DAY_MS, utcDay } from "../plumbing/time";
import { databaseNamed } from "../tenancy/shards";
import type { BusinessDb, Db } from "../tenancy/tenant";
import { disputesNeedingResponseOf, disputesNeedingResponseStatement } from "../disputes/disputes.db";

/** The businesses of one database, as the directory places them: their ids are what every statement here binds. */
export interface ShardBusinesses {
  db: Db;
  businessIds: readonly string[];
}

/** The window of the webhook failure rate. */
export const WEBHOOK_WINDOW_MS = DAY_MS;

export interface ListFigures {
  /** Successful payments since midnight in Africa/Accra (UTC+0): count and integer pesewas. */
  paymentsToday: { count: number; amount: number };
  /** Partner API messages parked unapplied (decision 028). */
  parked: number;
  /** When the oldest of them reached the API (or was parked, when that is unknown): the ingest lag's start. */
  oldestParkedAt: number | null;
  /** Webhook deliveries made in the last 24 hours that were tried, and of those the ones whose last try failed. */
  webhooks: { tried: number; failing: number };
  /** Disputes needing a response, counted as the business's dashboard counts them (disputesNeedingResponseStatement). */
  disputesDue: number;
}

export const NO_FIGURES: ListFigures = {
  paymentsToday: { count: 0, amount: 0 },
  parked: 0,
  oldestParkedAt: null,
  webhooks: { tried: 0, failing: 0 },
  disputesDue: 0,
};

const midnightOf = (now: number) => Date.parse(`${utcDay(now)}T00:00:00Z`);
const IDS = "SELECT value FROM json_each(?1)";

/** The list's figures of the given businesses of one database, by business id (a business with none is left out). */
export async function listFigures(shard: ShardBusinesses, now: number): Promise<Map<string, ListFigures>> {
  const { db } = shard;
  const ids = JSON.stringify(shard.businessIds);
  const figures = new Map<string, ListFigures>();
  if (shard.businessIds.length === 0) return figures;
  const [payments, parked, webhooks, disputes] = await db.batch([
    // transactions_by_status (business, status, created_at): today's successful payments of each business, no more.
    db
      .prepare(
        `SELECT business_id AS businessId, COUNT(*) AS count, coalesce(SUM(amount), 0) AS amount FROM transactions
         WHERE business_id IN (${IDS}) AND status = 'successful' AND created_at >= ?2 GROUP BY business_id`,
      )
      .bind(ids, midnightOf(now)),
    db
      .prepare(
        `SELECT business_id AS businessId, COUNT(*) AS parked, MIN(coalesce(received_at, parked_at)) AS oldestParkedAt FROM ingest_parked
         WHERE business_id IN (${IDS}) GROUP BY business_id`,
      )
      .bind(ids),
    // Through the endpoints: deliveries are indexed by (business, endpoint, created_at), so each endpoint's last day is
    // one range. A pending delivery that was tried is retrying after a failed try; a failed one was given up.
    db
      .prepare(
        `SELECT d.business_id AS businessId, coalesce(SUM(d.attempts > 0), 0) AS tried,
           coalesce(SUM(d.status = 'failed' OR (d.status = 'pending' AND d.attempts > 0)), 0) AS failing
         FROM webhook_endpoints e JOIN webhook_deliveries d ON d.business_id = e.business_id AND d.endpoint_id = e.id AND d.created_at >= ?2
         WHERE e.business_id IN (${IDS}) GROUP BY d.business_id`,
      )
      .bind(ids, now - WEBHOOK_WINDOW_MS),
    disputesNeedingResponseStatement(db, shard.businessIds, now),
  ]);
  const of = (businessId: string): ListFigures => {
    let found = figures.get(businessId);
    if (!found) {
      found = { ...NO_FIGURES, paymentsToday: { ...NO_FIGURES.paymentsToday }, webhooks: { ...NO_FIGURES.webhooks } };
      figures.set(businessId, found);
    }
    return found;
  };
  for (const row of rows<{ businessId: string; count: number; amount: number }>(payments))
    of(row.businessId).paymentsToday = { count: row.count, amount: row.amount };
  for (const row of rows<{ businessId: string; parked: number; oldestParkedAt: number }>(parked)) {
    Object.assign(of(row.businessId), { parked: row.parked, oldestParkedAt: row.oldestParkedAt });
  }
  for (const row of rows<{ businessId: string; tried: number; failing: number }>(webhooks))
    of(row.businessId).webhooks = { tried: row.tried, failing: row.failing };
  for (const [businessId, due] of disputesNeedingResponseOf(disputes)) of(businessId).disputesDue = due.count;
  return figures;
}

/**
 * The list's figures for a page of businesses: grouped by the database the directory places each on (a business being
 * moved is read where it still is until the switch), one batch per database, the databases side by side.
 */
export async function figuresOf(env: Env, businesses: readonly { id: string; shard: string }[], now: number): Promise<Map<string, ListFigures>> {
  const byShard = new Map<string, string[]>();
  for (const business of businesses) byShard.set(business.shard, [...(byShard.get(business.shard) ?? []), business.id]);
  const found = await Promise.all([...byShard].map(([shard, businessIds]) => listFigures({ db: databaseNamed(env, shard), businessIds }, now)));
  return new Map(found.flatMap((figures) => [...figures]));
}

/** Failed over tried, 0 to 100 with one decimal; null when nothing was tried (no rate to speak of). */
export function failureRate(webhooks: { tried: number; failing: number }): number | null {
  return webhooks.tried === 0 ? null : Math.round((webhooks.failing / webhooks.tried) * 1000) / 10;
}

function rows<T>(result: D1Result | undefined): T[] {
  return (result?.results ?? []) as T[];
}

// ---------------------------------------------------------------- one business's summary

export interface CountAndSum {
  count: number;
  amount: number;
}

export interface BusinessSummary {
  merchants: Record<string, number>;
  pointsOfSale: Record<string, number>;
  terminals: Record<string, number>;
  employees: Record<string, number>;
  payments: { today: CountAndSum; last7: CountAndSum; last30: CountAndSum; failedToday: number; lastAt: number | null };
  /** The merchants' money, as the ledger holds it (integer pesewas, positive: owed to the merchants). */
  balances: { pending: number; available: number; held: number; fees: number };
  /** Open disputes, and of them the ones needing a response (disputesNeedingResponseStatement, as the dashboard counts). */
  disputes: { open: number; openAmount: number; due: number };
  parked: { count: number; oldestAt: number | null };
  webhooks: { enabled: number; disabled: number; tried: number; failing: number };
}

/**
 * A business's counts and sums on its database. No statement reads a payer's number, card or name: payments are
 * counted and summed, never listed. The 7 and 30 days are today's payments plus the closed days' merchant totals
 * before today (daily_merchant_totals), so no range of payments is read past midnight.
 */
export async function businessSummary(business: BusinessDb, now: number): Promise<BusinessSummary> {
  const { db, businessId } = business;
  const midnight = midnightOf(now);
  const yesterday = utcDay(midnight - DAY_MS);
  const byStatus = (table: string) => db.prepare(`SELECT status, COUNT(*) AS count FROM ${table} WHERE business_id = ? GROUP BY status`).bind(businessId);
  const [merchants, pointsOfSale, terminals, employees, today, closedDays, lastPayment, balances, disputes, needingResponse, parked, endpoints, deliveries] =
    await db.batch([
      byStatus("merchants"),
      byStatus("points_of_sale"),
      byStatus("terminals"),
      byStatus("memberships"),
      db
        .prepare(
          `SELECT coalesce(SUM(status = 'successful'), 0) AS count, coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS amount,
           coalesce(SUM(status = 'failed'), 0) AS failed
         FROM transactions WHERE business_id = ? AND created_at >= ?`,
        )
        .bind(businessId, midnight),
      db
        .prepare(
          `SELECT coalesce(SUM(CASE WHEN day >= ?2 THEN count END), 0) AS count7, coalesce(SUM(CASE WHEN day >= ?2 THEN amount END), 0) AS amount7,
           coalesce(SUM(count), 0) AS count30, coalesce(SUM(amount), 0) AS amount30
         FROM daily_merchant_totals WHERE business_id = ?1 AND day BETWEEN ?3 AND ?4 AND status = 'successful'`,
        )
        .bind(businessId, utcDay(midnight - 6 * DAY_MS), utcDay(midnight - 29 * DAY_MS), yesterday),
      db.prepare("SELECT MAX(created_at) AS lastAt FROM transactions WHERE business_id = ?").bind(businessId),
      // Credit balances are negative in the ledger (functions/ledger): what is owed reads positive here.
      db
        .prepare(
          `SELECT coalesce(SUM(CASE WHEN kind = 'merchant_pending' THEN 0 - entry_sum END), 0) AS pending,
           coalesce(SUM(CASE WHEN kind = 'merchant_available' THEN 0 - entry_sum END), 0) AS available,
           coalesce(SUM(CASE WHEN kind = 'merchant_held' THEN 0 - entry_sum END), 0) AS held,
           coalesce(SUM(CASE WHEN kind = 'fee_revenue' THEN 0 - entry_sum END), 0) AS fees
         FROM ledger_accounts WHERE business_id = ?`,
        )
        .bind(businessId),
      db.prepare(`SELECT COUNT(*) AS open, coalesce(SUM(amount), 0) AS openAmount FROM disputes WHERE business_id = ?1 AND status = 'open'`).bind(businessId),
      disputesNeedingResponseStatement(db, [businessId], now),
      db.prepare("SELECT COUNT(*) AS count, MIN(coalesce(received_at, parked_at)) AS oldestAt FROM ingest_parked WHERE business_id = ?").bind(businessId),
      db
        .prepare(
          "SELECT coalesce(SUM(status = 'enabled'), 0) AS enabled, coalesce(SUM(status = 'disabled'), 0) AS disabled FROM webhook_endpoints WHERE business_id = ?",
        )
        .bind(businessId),
      db
        .prepare(
          `SELECT coalesce(SUM(d.attempts > 0), 0) AS tried, coalesce(SUM(d.status = 'failed' OR (d.status = 'pending' AND d.attempts > 0)), 0) AS failing
         FROM webhook_endpoints e JOIN webhook_deliveries d ON d.business_id = e.business_id AND d.endpoint_id = e.id AND d.created_at >= ?2
         WHERE e.business_id = ?1`,
        )
        .bind(businessId, now - WEBHOOK_WINDOW_MS),
    ]);
  const counts = (result: D1Result | undefined) => Object.fromEntries(rows<{ status: string; count: number }>(result).map((row) => [row.status, row.count]));
  const first = <T>(result: D1Result | undefined) => rows<T>(result)[0]!;
  const now0 = first<{ count: number; amount: number; failed: number }>(today);
  const closed = first<{ count7: number; amount7: number; count30: number; amount30: number }>(closedDays);
  return {
    merchants: counts(merchants),
    pointsOfSale: counts(pointsOfSale),
    terminals: counts(terminals),
    employees: counts(employees),
    payments: {
      today: { count: now0.count, amount: now0.amount },
      last7: { count: now0.count + closed.count7, amount: now0.amount + closed.amount7 },
      last30: { count: now0.count + closed.count30, amount: now0.amount + closed.amount30 },
      failedToday: now0.failed,
      lastAt: first<{ lastAt: number | null }>(lastPayment).lastAt,
    },
    balances: first(balances),
    disputes: { ...first<{ open: number; openAmount: number }>(disputes), due: disputesNeedingResponseOf(needingResponse).get(businessId)?.count ?? 0 },
    parked: first(parked),
    webhooks: { ...first<{ enabled: number; disabled: number }>(endpoints), ...first<{ tried: number; failing: number }>(deliveries) },
  };
}

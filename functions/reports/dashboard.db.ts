// The dashboard's figures. The daily rollups answer the last 30 days vs the 30
// before, the success rate and the chart in one query; today so far against
// yesterday by the same time reads two short time ranges of the transactions index;
// what awaits clearing and settlement is the ledger accounts' running sums.
import type { Tenant, Db } from "../tenancy/tenant";
import { DAY_MS, utcDay } from "../plumbing/time";

export interface PeriodFigures {
  /** Successful payments. */
  count: number;
  /** Their value, pesewas. */
  amount: number;
  /** Every attempt (successful, failed, reversed), for the success rate. */
  attempts: number;
}

export interface DayFigures {
  day: string;
  count: number;
  amount: number;
}

export interface DashboardFigures {
  /** From midnight (Africa/Accra) to now. */
  today: PeriodFigures;
  /** Yesterday from midnight to the same time of day. */
  yesterday: PeriodFigures;
  last30: PeriodFigures;
  previous30: PeriodFigures;
  /** The last 30 days, oldest first, days without payments included. */
  days: DayFigures[];
  /**
   * What the merchants are owed and not paid (pesewas), from the ledger's running sums: their pending money (not
   * cleared yet) and their available money, which the next settlement run pays (a merchant that owes, after a
   * dispute's hold or a refund, counts as nothing, as the run skips it).
   */
  awaiting: { pendingClearance: number; clearedUnsettled: number };
}

/** YYYY-MM-DD of an instant in Africa/Accra (UTC+0 all year, no daylight saving). */
export function accraDay(ms: number): string {
  return utcDay(ms);
}

const empty = (): PeriodFigures => ({ count: 0, amount: 0, attempts: 0 });

function between(db: Db, tenant: Tenant, from: number, to: number): D1PreparedStatement {
  return db
    .prepare(
      `SELECT coalesce(SUM(status = 'successful'), 0) AS count, coalesce(SUM(CASE WHEN status = 'successful' THEN amount END), 0) AS amount, COUNT(*) AS attempts
       FROM transactions WHERE business_id = ? AND created_at >= ? AND created_at < ?`,
    )
    .bind(tenant.businessId, from, to);
}

export async function dashboardFigures(tenant: Tenant, now: number): Promise<DashboardFigures> {
  const { db } = tenant;
  const today = accraDay(now);
  const dayAt = (back: number) => accraDay(now - back * DAY_MS);
  const midnight = Date.parse(`${today}T00:00:00Z`);
  const [rollups, sinceMidnight, yesterdayByNow, awaiting] = await db.batch([
    db
      .prepare(
        `SELECT day, status, SUM(count) AS count, SUM(amount) AS amount FROM daily_merchant_totals
         WHERE business_id = ? AND day BETWEEN ? AND ? GROUP BY day, status`,
      )
      .bind(tenant.businessId, dayAt(59), today),
    between(db, tenant, midnight, now + 1),
    between(db, tenant, midnight - DAY_MS, now - DAY_MS + 1),
    // One row per merchant and kind (the accounts' key), not ten days of payments each probing its settlement.
    db
      .prepare(
        `SELECT coalesce(SUM(CASE WHEN kind = 'merchant_pending' THEN 0 - entry_sum END), 0) AS pendingClearance,
           coalesce(SUM(CASE WHEN kind = 'merchant_available' AND entry_sum < 0 THEN 0 - entry_sum END), 0) AS clearedUnsettled
         FROM ledger_accounts WHERE business_id = ? AND kind IN ('merchant_pending', 'merchant_available')`,
      )
      .bind(tenant.businessId),
  ]);
  const results = (rollups?.results ?? []) as { day: string; status: string; count: number; amount: number }[];
  const figures: DashboardFigures = {
    today: (sinceMidnight?.results[0] as PeriodFigures | undefined) ?? empty(),
    yesterday: (yesterdayByNow?.results[0] as PeriodFigures | undefined) ?? empty(),
    last30: empty(),
    previous30: empty(),
    days: [],
    awaiting: (awaiting?.results[0] as DashboardFigures["awaiting"] | undefined) ?? { pendingClearance: 0, clearedUnsettled: 0 },
  };
  const byDay = new Map<string, DayFigures>();
  for (let back = 29; back >= 0; back -= 1) {
    const day = { day: dayAt(back), count: 0, amount: 0 };
    byDay.set(day.day, day);
    figures.days.push(day);
  }
  const firstOfLast30 = dayAt(29);
  for (const row of results) {
    for (const period of [row.day >= firstOfLast30 ? figures.last30 : figures.previous30]) {
      period.attempts += row.count;
      if (row.status === "successful") {
        period.count += row.count;
        period.amount += row.amount;
      }
    }
    const day = byDay.get(row.day);
    if (day && row.status === "successful") {
      day.count += row.count;
      day.amount += row.amount;
    }
  }
  return figures;
}

// Reports read the daily rollups, never the transactions table, so a year of a
// million payments answers from a few thousand rows.
import type { Tenant } from "../tenancy/tenant";

export type ReportDimension = "day" | "merchant" | "point_of_sale" | "terminal" | "channel" | "network";

export interface ReportRow {
  key: string;
  count: number;
  amount: number;
  fee: number;
}

const COLUMN: Record<ReportDimension, string> = {
  day: "day",
  merchant: "merchant_id",
  point_of_sale: "point_of_sale_id",
  terminal: "terminal_id",
  channel: "channel",
  network: "network",
};

export interface ReportQuery {
  dimension: ReportDimension;
  fromDay: string;
  toDay: string;
  merchantId?: string;
}

/** Successful volume (count) and value (amount, fee) per dimension over [fromDay, toDay], days as YYYY-MM-DD. */
export async function reportBy(tenant: Tenant, query: ReportQuery): Promise<ReportRow[]> {
  const { results } = await reportStatement(tenant, query).all<ReportRow>();
  return results;
}

/** reportBy's statement, for a caller's batch (functions/reports/closed-days.db.ts). */
export function reportStatement(tenant: Tenant, query: ReportQuery): D1PreparedStatement {
  const { db } = tenant;
  const column = COLUMN[query.dimension];
  const merchant = query.merchantId ? " AND merchant_id = ?" : "";
  // By day or by merchant, the per-merchant totals answer with a tenth of the rows.
  const table = query.dimension === "day" || query.dimension === "merchant" ? "daily_merchant_totals" : "daily_rollups";
  return db
    .prepare(
      `SELECT ${column} AS key, SUM(count) AS count, SUM(amount) AS amount, SUM(fee) AS fee FROM ${table}
       WHERE business_id = ? AND day BETWEEN ? AND ? AND status = 'successful'${merchant}
       GROUP BY ${column} ORDER BY ${query.dimension === "day" ? "key" : "amount DESC"}`,
    )
    .bind(tenant.businessId, query.fromDay, query.toDay, ...(query.merchantId ? [query.merchantId] : []));
}

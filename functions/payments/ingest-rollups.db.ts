// The daily rollups (daily_rollups, daily_merchant_totals) a part of the PAYMENTS queue's work moves, written in its
// D1 batch (ingest.db.ts): the deltas planIngest summed, each cell added or taken away in one statement.
import type { BusinessDb } from "../tenancy/tenant";
import type { IngestPlan, RollupDelta } from "./ingest-plan";

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

/** The batch's statements for the rollups: daily_rollups by cell, then daily_merchant_totals. */
export function rollupStatements(business: BusinessDb, { rollups, merchantTotals }: Pick<IngestPlan, "rollups" | "merchantTotals">): D1PreparedStatement[] {
  return [...deltaStatements(business, "daily_rollups", rollups), ...deltaStatements(business, "daily_merchant_totals", merchantTotals)];
}

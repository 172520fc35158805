// Merchant funds for a period, per merchant: collected and fees (daily
// rollups), settled (paid settlements of periods that started in it), and
// pending and available now (the ledger). One query each for a page of merchants.
import { listMerchantBalances } from "./ledger.db";
import { idChunks } from "../lists/names.db";
import type { Tenant } from "../tenancy/tenant";

export interface MerchantFunds {
  collected: number;
  fees: number;
  pending: number;
  available: number;
  /** Held by open disputes now. */
  held: number;
  settled: number;
}

const slots = (n: number) => Array.from({ length: n }, () => "?").join(", ");

export async function listMerchantFunds(
  tenant: Tenant,
  merchantIds: readonly string[],
  period: { fromDay: string; toDay: string; from: number; to: number },
): Promise<Record<string, MerchantFunds>> {
  const { db } = tenant;
  const ids = [...new Set(merchantIds)];
  const funds: Record<string, MerchantFunds> = Object.fromEntries(
    ids.map((id) => [id, { collected: 0, fees: 0, pending: 0, available: 0, held: 0, settled: 0 }]),
  );
  if (ids.length === 0) return funds;
  // Ids in runs D1 can bind beside the business and the period's two bounds.
  const chunks = idChunks(ids, 3);
  const collectedOf = chunks.map((chunk) =>
    db
      .prepare(
        `SELECT merchant_id AS id, SUM(amount) AS amount, SUM(fee) AS fee FROM daily_merchant_totals
         WHERE business_id = ? AND status = 'successful' AND merchant_id IN (${slots(chunk.length)}) AND day BETWEEN ? AND ? GROUP BY merchant_id`,
      )
      .bind(tenant.businessId, ...chunk, period.fromDay, period.toDay),
  );
  const settledOf = chunks.map((chunk) =>
    db
      .prepare(
        `SELECT merchant_id AS id, SUM(net) AS net FROM settlements
         WHERE business_id = ? AND status = 'paid' AND merchant_id IN (${slots(chunk.length)}) AND period_start >= ? AND period_start < ? GROUP BY merchant_id`,
      )
      .bind(tenant.businessId, ...chunk, period.from, period.to),
  );
  const [runs, balances] = await Promise.all([
    db.batch<{ id: string; amount: number; fee: number; net: number }>([...collectedOf, ...settledOf]),
    listMerchantBalances(tenant, ids),
  ]);
  const collected = { results: runs.slice(0, chunks.length).flatMap((run) => run.results) };
  const settled = { results: runs.slice(chunks.length).flatMap((run) => run.results) };
  for (const row of collected.results) Object.assign(funds[row.id]!, { collected: row.amount, fees: row.fee });
  for (const row of settled.results) funds[row.id]!.settled = row.net;
  for (const [id, balance] of Object.entries(balances))
    Object.assign(funds[id]!, { pending: balance.pending, available: balance.available, held: balance.held });
  return funds;
}

// The names a page of CSV payments carries beside its ids: merchant, point of sale and terminal serial, read for that
// page only (a business's every merchant never sits in memory), each look-up bound to the business.
import { namesOf } from "#server/lists/names.db";
import type { Transaction } from "#server/payments/transactions.db";
import type { Tenant } from "#server/tenancy/tenant";
import type { CsvTransaction } from "./transactions-csv";

export async function namedCsvRows(tenant: Tenant, rows: readonly Transaction[]): Promise<Omit<CsvTransaction, "refunded">[]> {
  const [merchants, pointsOfSale, terminals] = await Promise.all([
    namesOf(
      tenant,
      "merchant",
      rows.map((t) => t.merchantId),
    ),
    namesOf(
      tenant,
      "point_of_sale",
      rows.map((t) => t.pointOfSaleId),
    ),
    namesOf(
      tenant,
      "terminal_serial",
      rows.map((t) => t.terminalId),
    ),
  ]);
  return rows.map((t) => ({
    ...t,
    merchant: merchants.get(t.merchantId) ?? null,
    pointOfSale: pointsOfSale.get(t.pointOfSaleId) ?? null,
    terminalSerial: t.terminalId ? (terminals.get(t.terminalId) ?? null) : null,
  }));
}

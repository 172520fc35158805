// The columns of every transactions CSV: the filtered list's (routes/transactions/export.route.ts) and an archived
// month's (routes/transactions/archive-month.route.ts) are the same file to a spreadsheet. Cards as BIN and last four,
// phones masked, as on screen.
import type { CsvColumn } from "#server/plumbing/csv";
import type { Transaction } from "#server/payments/transactions.db";
import { networkLabel } from "#app/lib/format";
import { asShown } from "#app/lib/lists/shown-columns";
import { CHANNEL_LABEL, feeOf, netOf, payerOf } from "#app/lib/transactions-view";
import { plainCedis } from "#server/ledger/money";

/**
 * `merchant`, `pointOfSale` and `terminalSerial`: the names beside the ids, null when the business has no such record
 * (the cell is then empty, the id still there). `refunded`: refunds approved and not failed; an archived month's
 * payments have none.
 */
export type CsvTransaction = Transaction & { merchant: string | null; pointOfSale: string | null; terminalSerial: string | null; refunded?: number };

const cedis = plainCedis;
/** A failed payment's fee and net are empty cells: it has none (not 0.00 of something). */
const cedisOrEmpty = (pesewas: number | null) => (pesewas === null ? null : cedis(pesewas));

// Names as the list shows them (SPEC 9's brand word replaced), as every list's CSV does.
export const TRANSACTION_CSV_COLUMNS: readonly CsvColumn<CsvTransaction>[] = asShown<CsvTransaction>([
  { header: "Reference", value: (t) => t.reference },
  { header: "Paid (UTC)", value: (t) => new Date(t.createdAt).toISOString() },
  // Each id with its name beside it: the id for joining to other files, the name for reading.
  { header: "Merchant id", value: (t) => t.merchantId },
  { header: "Merchant", value: (t) => t.merchant },
  { header: "Point of sale id", value: (t) => t.pointOfSaleId },
  { header: "Point of sale", value: (t) => t.pointOfSale },
  { header: "Terminal id", value: (t) => t.terminalId },
  { header: "Terminal serial", value: (t) => t.terminalSerial },
  { header: "Channel", value: (t) => CHANNEL_LABEL[t.channel] },
  { header: "Network", value: (t) => networkLabel(t.network) },
  { header: "Payer", value: (t) => payerOf(t) },
  { header: "Amount (GHS)", value: (t) => cedis(t.amount) },
  { header: "Fee (GHS)", value: (t) => cedisOrEmpty(feeOf(t)) },
  { header: "Net (GHS)", value: (t) => cedisOrEmpty(netOf(t)) },
  { header: "Status", value: (t) => t.status },
  { header: "Available (UTC)", value: (t) => (t.clearedAt ? new Date(t.clearedAt).toISOString() : null) },
  // Last, so a spreadsheet that reads the columns before it by place is not moved by it.
  { header: "Refunded (GHS)", value: (t) => (t.refunded === undefined ? null : cedis(t.refunded)) },
]);

// The columns of every transactions CSV: the filtered list's (routes/transactions/export.route.ts) and an archived
// month's (routes/transactions/archive-month.route.ts) are the same file to a spreadsheet. Cards as BIN and last four,
// phones masked, as on screen.
import type { CsvColumn } from "#server/platform/csv";
import type { Transaction } from "#server/payments/transactions.db";
import { networkLabel } from "./format";
import { CHANNEL_LABEL, feeOf, netOf, payerOf } from "./transactions-view";
import { plainCedis } from "#server/ledger/money";

/** `refunded`: refunds approved and not failed; an archived month's payments have none. */
export type CsvTransaction = Transaction & { merchant: string; refunded?: number };

const cedis = plainCedis;
/** A failed payment's fee and net are empty cells: it has none (not 0.00 of something). */
const cedisOrEmpty = (pesewas: number | null) => (pesewas === null ? null : cedis(pesewas));

export const TRANSACTION_CSV_COLUMNS: readonly CsvColumn<CsvTransaction>[] = [
  { header: "Reference", value: (t) => t.reference },
  { header: "Paid (UTC)", value: (t) => new Date(t.createdAt).toISOString() },
  { header: "Merchant", value: (t) => t.merchant },
  { header: "Point of sale id", value: (t) => t.pointOfSaleId },
  { header: "Terminal id", value: (t) => t.terminalId },
  { header: "Channel", value: (t) => CHANNEL_LABEL[t.channel] },
  { header: "Network", value: (t) => networkLabel(t.network) },
  { header: "Payer", value: (t) => payerOf(t) },
  { header: "Amount (GHS)", value: (t) => cedis(t.amount) },
  { header: "Fee (GHS)", value: (t) => cedisOrEmpty(feeOf(t)) },
  { header: "Net (GHS)", value: (t) => cedisOrEmpty(netOf(t)) },
  { header: "Status", value: (t) => t.status },
  { header: "Available (UTC)", value: (t) => (t.clearedAt ? new Date(t.clearedAt).toISOString() : null) },
  // Last, so the columns before keep their places in a spreadsheet made before refunds.
  { header: "Refunded (GHS)", value: (t) => (t.refunded === undefined ? null : cedis(t.refunded)) },
];

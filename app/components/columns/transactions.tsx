// The payment's columns, for the transactions list and the recent payments of
// a merchant, point of sale or terminal (each picks its own). Rows arrive from
// the loader already reduced to what may be shown: the payer as BIN and last
// four or a masked phone.
import type { Transaction } from "#server/payments/transactions.db";
import { formatAmount, tableDate } from "../../lib/format";
import { paymentStatus } from "../../lib/statuses";
import { feeOf, NO_MONEY, paymentMethod } from "../../lib/transactions-view";
import { StatusPill } from "../status-pill";
import { pickColumns } from "./pick";

type T<K extends keyof Transaction> = Pick<Transaction, K>;

const TRANSACTION_COLUMNS = {
  when: { header: "When", cell: (t: T<"createdAt">) => tableDate(t.createdAt) },
  reference: { header: "Reference", cell: (t: T<"reference">) => <span className="mono">{t.reference}</span> },
  merchant: { header: "Merchant", cell: (t: { merchant: string }) => t.merchant },
  channel: { header: "Channel", cell: (t: T<"channel" | "network">) => paymentMethod(t) },
  payer: { header: "Payer", cell: (t: { payer: string }) => <span className="mono">{t.payer}</span> },
  amount: { header: "Amount (GHS)", numeric: true, cell: (t: T<"amount">) => formatAmount(t.amount) },
  fee: {
    header: "Fee (GHS)",
    numeric: true,
    cell: (t: T<"fee" | "status">) => {
      const fee = feeOf(t);
      return fee === null ? <span aria-label="No fee: the payment failed">{NO_MONEY}</span> : formatAmount(fee);
    },
  },
  status: { header: "Status", cell: (t: T<"status" | "amount"> & { refunded?: number }) => <StatusPill entity="transaction" status={paymentStatus(t)} /> },
};

export type TransactionColumn = keyof typeof TRANSACTION_COLUMNS;

export const transactionColumns = <Id extends TransactionColumn>(ids: readonly Id[]) => pickColumns(TRANSACTION_COLUMNS, ids);

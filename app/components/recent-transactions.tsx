// Recent payments at a merchant, point of sale or terminal. Rows arrive from the loader
// already reduced to what may be shown: a card as BIN and last four, a phone masked.
import { Link } from "@remix-run/react";
import type { Transaction } from "#server/payments/transactions.db";
import { paths } from "../lib/paths";
import { transactionColumns } from "./columns/transactions";
import { DataTable, type Column } from "#app/components/lists/data-table";

export interface ShownTransaction {
  id: number;
  reference: string;
  channel: Transaction["channel"];
  network: string;
  amount: number;
  status: Transaction["status"];
  payer: string;
  createdAt: number;
}

// The reference opens the payment's detail on the transactions screen, where it can be refunded.
const COLUMNS: Column<ShownTransaction>[] = [
  ...transactionColumns(["when"]),
  {
    id: "reference",
    header: "Reference",
    cell: (t) => (
      <Link to={paths.payment(t.id)} className="mono code">
        {t.reference}
      </Link>
    ),
  },
  ...transactionColumns(["channel", "payer", "amount", "status"]),
];

export function RecentTransactions({ rows, caption, empty }: { rows: readonly ShownTransaction[]; caption: string; empty: string }) {
  return <DataTable caption={caption} columns={COLUMNS} rows={rows} rowKey={(t) => String(t.id)} empty={<p>{empty}</p>} />;
}

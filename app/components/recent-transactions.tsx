// Recent payments at a merchant, point of sale or terminal. Rows arrive from the loader
// already reduced to what may be shown: a card as BIN and last four, a phone masked.
import type { Transaction } from "../../functions/data/transactions";
import { transactionColumns } from "./columns/transactions";
import { DataTable } from "./data-table";

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

const COLUMNS = transactionColumns(["when", "reference", "channel", "payer", "amount", "status"]);

export function RecentTransactions({ rows, caption, empty }: { rows: readonly ShownTransaction[]; caption: string; empty: string }) {
  return <DataTable caption={caption} columns={COLUMNS} rows={rows} rowKey={(t) => String(t.id)} empty={<p>{empty}</p>} />;
}

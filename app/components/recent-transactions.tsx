// Recent payments at a point of sale or terminal. Rows arrive from the loader
// already reduced to what may be shown: a card as BIN and last four, a phone masked.
import type { Transaction } from "../../functions/data/transactions";
import { formatAmount, formatDate } from "../lib/format";
import { DataTable, type Column } from "./data-table";

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

const STATUS_CLASS = { successful: "status status--good", failed: "status status--bad", reversed: "status status--wait" } as const;
const STATUS_LABEL = { successful: "Successful", failed: "Failed", reversed: "Reversed" } as const;

const COLUMNS: Column<ShownTransaction>[] = [
  { id: "when", header: "When", cell: (t) => formatDate(t.createdAt) },
  { id: "reference", header: "Reference", cell: (t) => <span className="mono">{t.reference}</span> },
  { id: "channel", header: "Channel", cell: (t) => `${t.channel === "card" ? "Card" : "Mobile money"} · ${t.network}` },
  { id: "payer", header: "Paid by", cell: (t) => <span className="mono">{t.payer}</span> },
  { id: "amount", header: "Amount (GHS)", numeric: true, cell: (t) => formatAmount(t.amount) },
  { id: "status", header: "Status", cell: (t) => <span className={STATUS_CLASS[t.status]}>{STATUS_LABEL[t.status]}</span> },
];

export function RecentTransactions({ rows, caption, empty }: { rows: readonly ShownTransaction[]; caption: string; empty: string }) {
  return <DataTable caption={caption} columns={COLUMNS} rows={rows} rowKey={(t) => String(t.id)} empty={<p>{empty}</p>} />;
}

// The merchant page's change history: who changed what and when, in the words
// of the merchant's form (addresses and browsers stay in the audit log).
import type { ChangeValues } from "#server/approvals/change-kinds";
import { formatDate } from "#app/lib/format";
import type { MerchantColumn } from "#server/merchants/merchant-columns";

export interface HistoryEntry {
  id: number;
  action: string;
  actorName: string | null;
  before: ChangeValues | null;
  after: ChangeValues | null;
  createdAt: string;
}

const MERCHANT_LABELS: Record<string, string> = {
  code: "Code",
  name: "Registered name",
  trading_name: "Trading name",
  tin: "TIN",
  sector: "Sector",
  town: "Town",
  region: "Region",
  address: "Address",
  contact_name: "Contact name",
  contact_phone: "Contact phone",
  contact_email: "Contact email",
  status: "Status",
} satisfies Record<MerchantColumn | "status", string>;

const ACTION_WORDS: Record<string, string> = {
  create: "Added",
  update: "Changed",
  deactivate: "Deactivated",
};

function historyChanges(entry: HistoryEntry): string[] {
  const after = entry.after ?? {};
  if (entry.action.endsWith(".create")) return ["Approved as a new merchant"];
  return Object.keys(after).map((key) => {
    const before = entry.before?.[key];
    return `${MERCHANT_LABELS[key] ?? key}: ${before ?? "none"} → ${after[key] ?? "none"}`;
  });
}

export function ChangeHistory({ entries }: { entries: readonly HistoryEntry[] }) {
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">Change history</h2>
      {entries.length === 0 ? (
        <p>No approved changes yet.</p>
      ) : (
        <ol className="history">
          {entries.map((entry) => (
            <li key={entry.id} className="history__entry">
              <strong>{ACTION_WORDS[entry.action.split(".")[1] ?? ""] ?? entry.action}</strong>
              <span className="cell-sub">
                {formatDate(entry.createdAt)} · approved by {entry.actorName ?? "the system"}
              </span>
              <ul>
                {historyChanges(entry).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

// The merchant page's change history: who changed what and when, in the words
// of the merchant's form (addresses and browsers stay in the audit log). The loader words each entry (shownHistory),
// so the labels stay out of the browser's code.
import type { ChangeValues } from "#server/approvals/change-kinds";
import { proseDate } from "#app/lib/format";
import type { MerchantColumn } from "#server/merchants/merchant-columns";

export interface HistoryEntry {
  id: number;
  action: string;
  actorName: string | null;
  before: ChangeValues | null;
  after: ChangeValues | null;
  createdAt: string;
}

/** An entry as the page shows it: what was done, by whom and when, and each change in the form's words. */
export interface ShownHistoryEntry {
  id: number;
  done: string;
  actorName: string | null;
  createdAt: string;
  changes: string[];
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

export function shownHistory(entry: HistoryEntry): ShownHistoryEntry {
  return {
    id: entry.id,
    done: ACTION_WORDS[entry.action.split(".")[1] ?? ""] ?? entry.action,
    actorName: entry.actorName,
    createdAt: entry.createdAt,
    changes: historyChanges(entry),
  };
}

function historyChanges(entry: HistoryEntry): string[] {
  const after = entry.after ?? {};
  if (entry.action.endsWith(".create")) return ["Approved as a new merchant"];
  return Object.keys(after).map((key) => {
    const before = entry.before?.[key];
    return `${MERCHANT_LABELS[key] ?? key}: ${before ?? "none"} → ${after[key] ?? "none"}`;
  });
}

export function ChangeHistory({ entries }: { entries: readonly ShownHistoryEntry[] }) {
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">Change history</h2>
      {entries.length === 0 ? (
        <p>No approved changes yet.</p>
      ) : (
        <ol className="history">
          {entries.map((entry) => (
            <li key={entry.id} className="history__entry">
              <strong>{entry.done}</strong>
              <span className="cell-sub">
                {proseDate(entry.createdAt)} · approved by {entry.actorName ?? "the system"}
              </span>
              <ul>
                {entry.changes.map((line) => (
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

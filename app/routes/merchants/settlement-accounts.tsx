// The merchant page's settlement accounts: the list, the requests waiting on them, and where the Add, Edit and
// Deactivate forms (the *-account intents) open; the forms themselves are code on demand (./merchant-form).
import { Link } from "@remix-run/react";
import type { PendingRequestRef } from "#server/merchants/merchants.db";
import type { SettlementAccount } from "#server/settlement/settlement-accounts.db";
import { DataTable, type Column } from "#app/components/lists/data-table";
import { SettlementAccountForm } from "./form-code";
import { networkLabel } from "#app/lib/format";
import type { FieldErrors } from "./merchant-form-values";
import { paths } from "#app/lib/paths";
import { StatusPill } from "#app/components/status-pill";
import type { OpenForm } from "./ui";

function accountColumns(pendingOf: (id: string) => PendingRequestRef | undefined, mayChange: boolean): Column<SettlementAccount>[] {
  const columns: Column<SettlementAccount>[] = [
    {
      id: "provider",
      header: "Account",
      cell: (a) => (
        <span className="cell-title">
          <strong>{networkLabel(a.provider)}</strong>
          <span className="cell-sub">{a.kind === "bank" ? "Bank account" : "Mobile money"}</span>
        </span>
      ),
    },
    { id: "number", header: "Number", cell: (a) => <span className="account-number">{a.accountNumber}</span> },
    { id: "name", header: "Name on the account", cell: (a) => a.accountName },
    { id: "primary", header: "Primary", cell: (a) => (a.isPrimary ? "Primary" : "No") },
    {
      id: "status",
      header: "Status",
      cell: (a) => {
        const request = pendingOf(a.id);
        return request ? (
          <Link to={paths.approval("settlement_account", request.id)} className="status status--wait status--wrap">
            {request.action === "deactivate" ? "Deactivation" : "Change"} waiting for approval
          </Link>
        ) : (
          <StatusPill entity="settlement_account" status={a.status} />
        );
      },
    },
  ];
  if (!mayChange) return columns;
  return [
    ...columns,
    {
      id: "actions",
      header: "Actions",
      cell: (a) =>
        a.status === "active" && !pendingOf(a.id) ? (
          <span className="button-row">
            <Link to={`?account=${a.id}#account-form-title`} className="button">
              Edit
            </Link>
            <Link to={`?deactivate-account=${a.id}#account-form-title`} className="button">
              Deactivate
            </Link>
          </span>
        ) : (
          <span className="cell-sub">None</span>
        ),
    },
  ];
}

/** The account an Edit or Deactivate form is open for: an active one with no request waiting. */
export function editableAccount(accounts: readonly SettlementAccount[], pending: readonly PendingRequestRef[], open: OpenForm | null) {
  if (!open?.accountId) return undefined;
  return accounts.find((a) => a.id === open.accountId && a.status === "active" && !pending.some((p) => p.kind === "settlement_account" && p.targetId === a.id));
}

export function SettlementAccounts({
  accounts,
  pending,
  mayChange,
  open,
  formShown,
  errors,
  values,
  busy,
  here,
}: {
  accounts: readonly SettlementAccount[];
  /** The merchant's pending requests (the accounts' among them). */
  pending: readonly PendingRequestRef[];
  mayChange: boolean;
  open: OpenForm | null;
  formShown: boolean;
  errors: FieldErrors;
  values: Record<string, string> | null;
  busy: boolean;
  here: string;
}) {
  const pendingOf = (id: string) => pending.find((p) => p.kind === "settlement_account" && p.targetId === id);
  const pendingNew = pending.filter((p) => p.kind === "settlement_account" && p.action === "create");
  const edited = editableAccount(accounts, pending, open);
  return (
    <section className="card" aria-labelledby="accounts-title">
      <div className="card__header">
        <h2 id="accounts-title">Settlement accounts</h2>
        {mayChange ? (
          <Link to="?account=new#account-form-title" className="button">
            Add settlement account
          </Link>
        ) : null}
      </div>
      {pendingNew.length > 0 ? (
        <ul className="pending-list">
          {pendingNew.map((p) => (
            <li key={p.id}>
              <span className="status status--wait">Waiting for approval</span> A new settlement account.{" "}
              <Link to={paths.approval("settlement_account", p.id)}>See the request</Link>
            </li>
          ))}
        </ul>
      ) : null}
      <DataTable
        caption="Settlement accounts"
        rows={accounts}
        rowKey={(a) => a.id}
        columns={accountColumns(pendingOf, mayChange)}
        empty={<p>No settlement accounts yet.</p>}
      />
      {open && formShown ? <SettlementAccountForm open={open} edited={edited} errors={errors} values={values} busy={busy} here={here} /> : null}
    </section>
  );
}

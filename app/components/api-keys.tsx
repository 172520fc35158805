// The parts of a key screen that Settings → Developers (a business's API keys) and /platform/keys (the switch's
// platform keys) share: the list's columns, Create key, the Roll and Revoke confirmations (opened from the URL, so
// they work before the script loads), and the panel that shows a new key the one time it is shown. Each screen passes
// where its forms post and where its confirmations open.
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useBeforePaintEffect } from "#app/components/before-paint";
import type { Column } from "#app/components/lists/data-table";
import { Field, SendButtons, describedBy } from "#app/components/forms/form";
import { tableDate } from "#app/lib/format";
import { statusClass, statusLabel } from "#app/lib/statuses";
import { KEY_NAME_MAX, type NewKey } from "#app/lib/api-keys";
import type { ApiKeyStatus } from "#app/lib/statuses";

/** A key as the lists show it (app/lib/api-keys.server.ts keyRow). */
export interface KeyListRow {
  id: string;
  name: string;
  prefix: string;
  createdByName: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  status: ApiKeyStatus;
  canRoll: boolean;
  canRevoke: boolean;
}

export interface KeyConfirm {
  action: "roll" | "revoke";
  keyId: string;
  name: string;
  prefix: string;
}

function KeyStatus({ row }: { row: Pick<KeyListRow, "status" | "expiresAt"> }) {
  const label = row.status === "rolled" ? `Expires ${tableDate(row.expiresAt)}` : statusLabel("api_key", row.status);
  return (
    <span className={statusClass("api_key", row.status)} title={row.status === "rolled" ? "Rolled: this key works until then" : undefined}>
      {label}
    </span>
  );
}

/** The list's columns; `extra` (the platform key's scopes) go before the status. */
export function keyColumns<R extends KeyListRow>(confirmUrl: (confirm: "roll" | "revoke", keyId: string) => string, extra: Column<R>[] = []): Column<R>[] {
  return [
    {
      id: "name",
      header: "Key",
      cell: (k) => (
        <span className="cell-title">
          <strong>{k.name}</strong>
          <code className="cell-sub key-prefix">{`${k.prefix}…`}</code>
        </span>
      ),
    },
    {
      id: "created",
      header: "Created",
      cell: (k) => (
        <span className="cell-title">
          <span>{tableDate(k.createdAt)}</span>
          <span className="cell-sub">by {k.createdByName ?? "a person no longer here"}</span>
        </span>
      ),
    },
    { id: "used", header: "Last used", cell: (k) => (k.lastUsedAt === null ? "Never" : tableDate(k.lastUsedAt)) },
    ...extra,
    { id: "status", header: "Status", cell: (k) => <KeyStatus row={k} /> },
    {
      id: "actions",
      header: "Actions",
      cell: (k) =>
        k.canRoll || k.canRevoke ? (
          <div className="key-actions">
            {k.canRoll ? (
              <Link to={confirmUrl("roll", k.id)} className="button" aria-label={`Roll ${k.name} (${k.prefix}…)`}>
                Roll
              </Link>
            ) : null}
            {k.canRevoke ? (
              <Link to={confirmUrl("revoke", k.id)} className="button button--ghost" aria-label={`Revoke ${k.name} (${k.prefix}…)`}>
                Revoke
              </Link>
            ) : null}
          </div>
        ) : (
          <span className="cell-sub">None</span>
        ),
    },
  ];
}

/** The key's one showing: the secret, Copy, and the warning that it is not shown again. */
export function NewKeyPanel({ newKey, backTo }: { newKey: NewKey; backTo: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  // The panel is what the person must act on: focus goes to it as it shows (before paint: no key pressed in between
  // lands elsewhere), and a screen reader reads it.
  useBeforePaintEffect(() => heading.current?.focus(), [newKey.secret]);
  useEffect(() => setCopied("no"), [newKey.secret]);
  const copy = () => {
    navigator.clipboard.writeText(newKey.secret).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  };
  return (
    <section className="card new-key" aria-labelledby="new-key-title" data-testid="new-key">
      <h3 id="new-key-title" className="card__title" tabIndex={-1} ref={heading}>
        {newKey.rolled ? `The new key for ${newKey.name}` : `Your new key: ${newKey.name}`}
      </h3>
      <p className="notice notice--warning notice__message">
        Copy this key now and keep it somewhere safe, such as your system&apos;s secret store. It will not be shown again: the portal keeps only a fingerprint
        of it.
        {newKey.rolled ? " The old key keeps working for 24 hours, so switch your system to this one before then." : ""}
      </p>
      <div className="new-key__row">
        <code className="new-key__secret" data-testid="new-key-secret">
          {newKey.secret}
        </code>
        <button type="button" className="button button--primary" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="field-hint" role="status">
        {copied === "yes" ? "Copied." : copied === "failed" ? "The browser did not allow copying: select the key and copy it yourself." : ""}
      </p>
      <div className="button-row">
        <Link to={backTo} className="button">
          I have saved it
        </Link>
      </div>
    </section>
  );
}

export function ConfirmKeyCard({ confirm, busy, action }: { confirm: KeyConfirm; busy: boolean; action: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const roll = confirm.action === "roll";
  // Opened from a row below it: the keyboard's next Tab should reach its buttons, not the rest of the row.
  useBeforePaintEffect(() => heading.current?.focus(), [confirm.action, confirm.keyId]);
  return (
    <section className="card confirm-key" aria-labelledby="confirm-key-title">
      <h3 id="confirm-key-title" className="card__title" tabIndex={-1} ref={heading}>
        {roll ? "Roll" : "Revoke"} {confirm.name} (<code>{`${confirm.prefix}…`}</code>)?
      </h3>
      <Form method="post" action={action} className="form">
        <input type="hidden" name="intent" value={roll ? "roll-key" : "revoke-key"} />
        <input type="hidden" name="keyId" value={confirm.keyId} />
        <p>
          {roll
            ? "A new key is made and shown to you once. The old key keeps working for 24 hours, so your system can switch to the new one; after that it stops."
            : "The key stops working at once: every request made with it is refused from now on. This cannot be undone."}
        </p>
        <SendButtons busy={busy} label={roll ? "Yes, roll the key" : "Yes, revoke the key"} danger={!roll} cancelTo={action} />
      </Form>
    </section>
  );
}

/** Create key: a name, and what the screen adds (the platform key's scopes) after it. */
export function CreateKeyForm({
  error,
  typed,
  busy,
  resetKey,
  action,
  hint = "What uses it, so you can tell keys apart, like “Switch production”.",
  children,
}: {
  error: string | undefined;
  typed: string | undefined;
  busy: boolean;
  resetKey: string;
  action: string;
  hint?: string;
  children?: ReactNode;
}) {
  return (
    <section className="card" id="create-key" aria-labelledby="create-key-title">
      <h3 id="create-key-title" className="card__title">
        Create key
      </h3>
      {/* A new key after each new key empties the form. */}
      <Form method="post" action={action} className="form create-key" noValidate key={resetKey}>
        <input type="hidden" name="intent" value="create-key" />
        <Field id="key-name" label="Name" hint={hint} error={error}>
          <input
            id="key-name"
            name="name"
            autoComplete="off"
            maxLength={KEY_NAME_MAX}
            required
            defaultValue={typed}
            {...describedBy("key-name", error, true)}
          />
        </Field>
        {children}
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "Creating…" : "Create key"}
          </button>
        </div>
      </Form>
    </section>
  );
}

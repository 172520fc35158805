import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** A labelled field whose error sits right under it and is announced with it. */
export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string | null; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** aria attributes tying an input to its hint and error. */
export function describedBy(id: string, error?: string | null, hint?: boolean) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": ids || undefined } as const;
}

/** A maker's form ends the same way everywhere: the send button (busy while it goes) and a way back. */
export function SendButtons({
  busy,
  label = "Send for approval",
  danger = false,
  cancelTo,
}: {
  busy: boolean;
  label?: string;
  danger?: boolean;
  cancelTo: string;
}) {
  return (
    <div className="button-row">
      <button type="submit" className={`button ${danger ? "button--danger" : "button--primary"}`} disabled={busy}>
        {busy ? "Sending…" : label}
      </button>
      <Link to={cancelTo} className="button">
        Cancel
      </Link>
    </div>
  );
}

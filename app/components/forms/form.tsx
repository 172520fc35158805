// The pieces every form is built from, and what every form does after a refused send.
import { Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { lastAnswerIsInPage, refusedSendShown, refusedSendWaiting } from "./submission";
import { useBeforePaintEffect } from "#app/components/before-paint";

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

/** What a form shows again after a refused send, by input name. */
export type FieldValues = Record<string, string | number | null | undefined>;

/** A labelled text input: what was typed kept, its hint and its error under the label, tied to it for screen readers. */
export function TextField({
  name,
  label,
  values,
  errors,
  prefix,
  hint,
  required = true,
  ...input
}: {
  name: string;
  label: string;
  values: FieldValues;
  errors: Record<string, string>;
  /** Makes the input's id (`prefix-name`) unique on a page with several forms. */
  prefix: string;
  hint?: string;
  required?: boolean;
  type?: string;
  autoComplete?: string;
  inputMode?: "text" | "tel" | "email" | "numeric";
  maxLength?: number;
}) {
  const id = `${prefix}-${name}`;
  const error = errors[name];
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <input id={id} name={name} defaultValue={String(values[name] ?? "")} required={required} {...input} {...describedBy(id, error, Boolean(hint))} />
    </Field>
  );
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

/** A refusal that speaks to the whole form: where the eye is taken after a refused send (RefusalFocus). */
export function ErrorSummary({ children }: { children: ReactNode }) {
  return (
    <p className="notice notice--danger notice__message" role="alert" tabIndex={-1} data-error-summary="">
      {children}
    </p>
  );
}

/**
 * Where a refused send's messages start: the form's error summary, else a refusal notice of the page, else the first
 * field in error, else the first message under a field. Only the page's main region is searched: the top bar's alert
 * is not about the form.
 */
const REFUSAL_TARGETS = ["[data-error-summary]", '.notice--danger[role="alert"]', '[aria-invalid="true"]', ".field-error"];

/** Moves focus to the first of REFUSAL_TARGETS the page shows and scrolls it to the middle of the screen. */
export function focusRefusal(root: Element | Document): HTMLElement | null {
  let target: HTMLElement | null = null;
  for (const selector of REFUSAL_TARGETS) {
    target = root.querySelector<HTMLElement>(selector);
    if (target) break;
  }
  if (!target) return null;
  // A message is not focusable by nature; tabindex -1 makes it focusable by script only, never a Tab stop.
  if (!target.matches("input, select, textarea, button, a[href], [tabindex]")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
  // The middle, not the top: the sticky top bar would cover a target scrolled to the top edge.
  target.scrollIntoView({ block: "center" });
  return target;
}

/**
 * After a send the server refused (400 with messages), focus moves to what was refused and the page scrolls there,
 * on every page with a form: the root renders this once, and every form's clientAction notes the refusal. A screen
 * reader hears the summary or the field's message; a person on a phone sees it instead of the unchanged top of the page.
 */
export function RefusalFocus(): null {
  const { state } = useNavigation();
  // The messages are in the page as soon as the answer is (the navigation "loading" while the page's data is read
  // again, or "idle"), not when that reading ends: over a weak link it ends seconds later, and focus moved then took a
  // person who had started correcting another field, and the rest of what they typed, back to the first refused one.
  // Before paint, as the answer's render goes in, so no key pressed in between lands elsewhere. A page that shows its
  // messages only with the fresh data (none found yet) is served when the navigation is idle.
  useBeforePaintEffect(() => {
    if (state === "submitting" || !refusedSendWaiting()) return;
    if (focusRefusal(document.getElementById("main") ?? document) || state === "idle") refusedSendShown();
  }, [state]);
  return null;
}

/**
 * Whether a form's send is under way (with `intent`: the send of the form with that intent): its buttons are then
 * disabled and say "Sending…", so one press is one request, up to the page a success leads to (a redirect). Not once
 * the answer is on the page (a refusal, a check to pass, a result) while the page's data is read again after it (the
 * navigation still "loading"): nothing of the person's is being sent then, and over a weak link they would press a
 * dead button, or Enter in a field, for seconds. Nor while a link or a list's filters load: that is no send.
 */
export function useSending(intent?: string): boolean {
  const navigation = useNavigation();
  if (navigation.state === "idle" || navigation.formMethod?.toUpperCase() !== "POST") return false;
  if (navigation.state === "loading" && lastAnswerIsInPage()) return false;
  return intent === undefined || navigation.formData?.get("intent") === intent;
}

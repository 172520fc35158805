// The fresh-check dialog itself, loaded only once an action asks for a check (app/components/forms/fresh-check.tsx, decision
// 043). An action that needs a check answers 428 with what it is for
// (functions/auth/fresh-check.ts); this asks for a passkey or a code sent by SMS, makes the check at /auth/check,
// and sends the form again, as it was, at once. A check is for that one action, used once, within 5 minutes.
// The code's 5 minutes are counted down here too, so a person who waits sees it run out before the server says so.
// The better factor comes first (a passkey: no codes to run out), and the codes a check has left this hour are said
// beside "Text a code"; once none are left it is disabled with the reason beside it, and the focus stays in the dialog.
// A decision the person may not take is said at once, with nothing to send. A bulk decision's check names the
// requests it covers (and says which of them will not be decided, and why) before the person confirms.
import { Link, useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useBeforePaintEffect } from "#app/components/before-paint";
import type { CheckNeeded } from "#server/auth/fresh-check";
import { signWithPasskey } from "#app/lib/passkey-browser";
import { paths } from "#app/lib/paths";
import { describedBy, Field } from "./form";
import { AuthenticatorCodeForm } from "./authenticator-check";
import { CoveredList, type CoveredRequest } from "./check-covers";

const CHECK_URL = "/auth/check";
const CODE_LIFETIME_MS = 5 * 60_000;

interface CodesLeft {
  left: number;
  perHour: number;
}

interface Offer {
  purpose: string;
  /** Why the person may not take the action (their own request, one already decided): then nothing is offered. */
  refusal: string | null;
  passkeyOnly: boolean;
  /** The person has a passkey (and passkeys are on here). */
  passkey: boolean;
  /** The person has an authenticator app set up (decision 049): offered after a passkey, before a text message. */
  authenticator?: boolean;
  phone: string | null;
  /** The codes a check may still send this hour, when a code is offered. */
  codes: CodesLeft | null;
  /** A bulk decision's requests, named. */
  requests?: CoveredRequest[];
}

/** What a check is for, as /auth/check takes it: the binding, and a bulk decision's ids beside it. */
const target = (check: CheckNeeded) => ({ binding: check.binding, ...(check.covers ? { ids: check.covers } : {}) });

async function post(body: Record<string, unknown>): Promise<{ ok: boolean; message?: string; [key: string]: unknown }> {
  const response = await fetch(CHECK_URL, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => ({}))) as { message?: string };
  return { ...answer, ok: response.ok };
}

const codesLeftText = ({ left, perHour }: CodesLeft) => `${left} of ${perHour} ${perHour === 1 ? "code" : "codes"} left this hour.`;

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
};

function isCodesLeft(value: unknown): value is CodesLeft {
  return typeof value === "object" && value !== null && typeof (value as CodesLeft).left === "number" && typeof (value as CodesLeft).perHour === "number";
}

/**
 * `check`: the 428's ask (a new object each time). After the check the form is sent again as it was, or, for a page
 * that is not a form (adding a passkey), `onChecked` runs instead.
 */
export default function FreshCheckDialog({ check, onChecked }: { check: CheckNeeded | null; onChecked?: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const submit = useSubmit();
  const [offer, setOffer] = useState<Offer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codeSentAt, setCodeSentAt] = useState<number | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [open, setOpen] = useState<CheckNeeded | null>(null);
  const [codes, setCodes] = useState<CodesLeft | null>(null);
  const [byApp, setByApp] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const errorMessage = useRef<HTMLParagraphElement>(null);
  // Set when a refusal should take the focus (a control it was on may now be disabled): it stays in the dialog.
  const [focusError, setFocusError] = useState(0);

  // Each 428 is a new ask, even for the same action (the last check was used or ran out).
  useEffect(() => {
    if (!check) return;
    setOpen(check);
    setOffer(null);
    setError(null);
    setCodeSentAt(null);
    setCodes(null);
    setByApp(false);
    const controller = new AbortController();
    const covers = check.covers ? `&ids=${encodeURIComponent(check.covers.join(","))}` : "";
    fetch(`${CHECK_URL}?binding=${encodeURIComponent(check.binding)}${covers}`, { signal: controller.signal })
      .then((response) => (response.ok ? response.json<Offer>() : Promise.reject(new Error("offer"))))
      .then((offered) => {
        setOffer(offered);
        setCodes(offered.codes);
      })
      .catch((reason: unknown) => {
        if (!controller.signal.aborted)
          setError(
            reason instanceof Error && reason.message !== "offer"
              ? "Action Failed. Please check connectivity and try again"
              : "The check could not start. Reload the page and try again.",
          );
      });
    return () => controller.abort();
  }, [check]);

  // Open (and its first control focused) as it shows: a key pressed at once goes into the dialog, not the page behind.
  useBeforePaintEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  // The code's field takes the focus once a code is on its way (the dialog's first control had it).
  useBeforePaintEffect(() => {
    if (codeSentAt !== null) codeInput.current?.focus();
  }, [codeSentAt]);

  useBeforePaintEffect(() => {
    if (focusError > 0) errorMessage.current?.focus();
  }, [focusError]);

  useEffect(() => {
    if (codeSentAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [codeSentAt]);

  const done = useCallback(() => {
    if (!open) return;
    setOpen(null);
    if (onChecked) onChecked();
    else submit(open.fields, { method: "post", action: open.action });
  }, [open, submit, onChecked]);

  const sendCode = async () => {
    if (!open) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await post({ intent: "send-code", ...target(open) });
      if (isCodesLeft(answer.codes)) setCodes(answer.codes);
      if (!answer.ok) {
        setError(answer.message ?? "The code could not be sent.");
        setFocusError((n) => n + 1);
        return;
      }
      setCodeSentAt(Date.now());
      setNow(Date.now());
      setSentTo(typeof answer.to === "string" ? answer.to : null);
    } catch {
      setError("Action Failed. Please check connectivity and try again");
    } finally {
      setBusy(false);
    }
  };

  const checkWithPasskey = async () => {
    if (!open) return;
    setBusy(true);
    setError(null);
    try {
      const asked = await post({ intent: "passkey-options", ...target(open) });
      if (!asked.ok || !asked.options) return setError(asked.message ?? "Your passkey could not be used. Try again.");
      const signed = await signWithPasskey(asked.options as Parameters<typeof signWithPasskey>[0]);
      if (!signed.ok) return setError(signed.message);
      const answer = await post({ intent: "passkey", ...target(open), response: signed.response });
      if (!answer.ok) return setError(answer.message ?? "Your passkey could not be used. Try again.");
      done();
    } catch {
      setError("Action Failed. Please check connectivity and try again");
    } finally {
      setBusy(false);
    }
  };

  /** Sends a typed code (from the text message or the authenticator app): the check is made, or the refusal said. */
  const checkWithCode = async (intent: "code" | "totp", check: CheckNeeded, code: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await post({ intent, ...target(check), code });
      if (!answer.ok) return setError(answer.message ?? "That code did not do.");
      done();
    } catch {
      setError("Action Failed. Please check connectivity and try again");
    } finally {
      setBusy(false);
    }
  };

  const checkWithApp = async (code: string) => {
    if (!open) return;
    if (!/^\d{6}$/.test(code)) return setError("Enter the 6-digit code your authenticator app shows.");
    await checkWithCode("totp", open, code);
  };

  const codeLeft = codeSentAt === null ? 0 : codeSentAt + CODE_LIFETIME_MS - now;
  const noCodesLeft = codes !== null && codes.left === 0;
  // What "Text a code" says beside it: the reason it is disabled, else how many a check has left.
  const codesNote = codes === null ? null : noCodesLeft ? `None of this hour's ${codes.perHour} codes are left.` : codesLeftText(codes);
  const codeExpired = codeSentAt !== null && codeLeft <= 0;

  const sendTypedCode = async (form: HTMLFormElement) => {
    if (!open) return;
    const typed = new FormData(form).get("code");
    const code = typeof typed === "string" ? typed.trim() : "";
    if (!/^\d{6}$/.test(code)) return setError("Enter the 6-digit code from the text message.");
    if (codeExpired) return setError("This code has expired. Ask for a new one.");
    await checkWithCode("code", open, code);
  };

  return (
    <dialog
      ref={dialog}
      className="modal check-dialog"
      aria-labelledby="check-title"
      data-testid="fresh-check"
      data-binding={open?.binding}
      onClose={() => setOpen(null)}
    >
      {open ? (
        <div className="check-dialog__content">
          <h2 id="check-title">Confirm it is you</h2>
          <p>To {open.purpose}, confirm it is you. The check is for this action only and lasts 5 minutes.</p>
          {open.passkeyOnly ? <p className="notice notice--info notice__message">This business asks for a passkey for every decision.</p> : null}
          {error ? (
            <p id="check-error" ref={errorMessage} tabIndex={-1} className="notice notice--danger notice__message" role="alert">
              {error}
            </p>
          ) : null}
          {!offer && !error ? <p aria-live="polite">Getting the check ready…</p> : null}
          {offer?.requests ? <CoveredList requests={offer.requests} /> : null}
          {offer?.refusal ? (
            <p className="notice notice--warning notice__message" role="alert" data-testid="check-refusal">
              {offer.refusal} No code was sent.
            </p>
          ) : null}
          {offer?.passkey && !offer.refusal && codeSentAt === null && !byApp ? (
            <button type="button" className="button button--primary button--block" disabled={busy} onClick={() => void checkWithPasskey()}>
              {busy ? "Waiting for your passkey…" : "Use your passkey"}
            </button>
          ) : null}
          {offer && !offer.passkey && open.passkeyOnly ? (
            <p className="notice notice--warning notice__message">
              You have no passkey yet. <Link to={paths.settings("security")}>Add one in Settings → Security</Link>, then decide again.
            </p>
          ) : null}
          {offer?.authenticator && !offer.refusal && codeSentAt === null && !byApp ? (
            <button
              type="button"
              className={offer.passkey ? "button button--ghost button--block" : "button button--primary button--block"}
              disabled={busy}
              onClick={() => {
                setError(null);
                setByApp(true);
              }}
            >
              Use your authenticator app
            </button>
          ) : null}
          {byApp ? (
            <AuthenticatorCodeForm
              busy={busy}
              onCode={(code) => void checkWithApp(code)}
              onBack={() => {
                setError(null);
                setByApp(false);
              }}
              otherWays={Boolean(offer?.passkey || offer?.phone)}
            />
          ) : null}
          {offer?.phone && !offer.refusal && codeSentAt === null && !byApp ? (
            <>
              <button
                type="button"
                className={offer.passkey || offer.authenticator ? "button button--ghost button--block" : "button button--block"}
                disabled={busy || noCodesLeft}
                aria-describedby={codesNote ? "check-codes-left" : undefined}
                onClick={() => void sendCode()}
              >
                {busy ? "Sending…" : `Text a code to ${offer.phone}`}
              </button>
              {codesNote ? (
                <p id="check-codes-left" className="field-hint" data-testid="codes-left">
                  {codesNote}
                </p>
              ) : null}
            </>
          ) : null}
          {offer && !offer.refusal && !offer.passkey && !open.passkeyOnly && !byApp ? (
            <p className="field-hint">
              No passkey yet? <Link to={paths.settings("security")}>Add one in Settings → Security</Link>: it checks you without a code.
            </p>
          ) : null}
          {codeSentAt !== null ? (
            <form
              className="form"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void sendTypedCode(event.currentTarget);
              }}
            >
              <Field id="check-code" label={`Code sent to ${sentTo ?? "your phone"}`} hint={codeExpired ? undefined : `It expires in ${clock(codeLeft)}.`}>
                <input
                  ref={codeInput}
                  id="check-code"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  pattern="[0-9]{6}"
                  required
                  {...describedBy("check-code", null, !codeExpired)}
                />
              </Field>
              {codeExpired ? (
                <p className="notice notice--warning notice__message" role="status">
                  This code has expired. Ask for a new one.
                </p>
              ) : null}
              <button type="submit" className="button button--primary button--block" disabled={busy || codeExpired}>
                {busy ? "Checking…" : "Confirm"}
              </button>
              <button
                type="button"
                className="button button--ghost button--block"
                disabled={busy || noCodesLeft}
                aria-describedby={codesNote ? "check-codes-left" : undefined}
                onClick={() => void sendCode()}
              >
                Send a new code
              </button>
              {codesNote ? (
                <p id="check-codes-left" className="field-hint" data-testid="codes-left">
                  {codesNote}
                </p>
              ) : null}
            </form>
          ) : null}
          <form method="dialog">
            <button type="submit" className="button button--ghost button--block">
              Cancel
            </button>
          </form>
        </div>
      ) : null}
    </dialog>
  );
}

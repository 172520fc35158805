// The check dialog's authenticator-app way (app/components/forms/fresh-check-dialog.tsx, decision 049): the person
// types the code their app shows now; /auth/check makes the check. Nothing is sent, so there is nothing to wait for.
import { useEffect, useRef } from "react";
import { Field, describedBy } from "./form";

/** The code form; `onCode` gets the typed code (checked by the dialog), `onBack` returns to the other ways. */
export function AuthenticatorCodeForm({
  busy,
  onCode,
  onBack,
  otherWays,
}: {
  busy: boolean;
  onCode: (code: string) => void;
  onBack: () => void;
  /** Whether there is another way to go back to. */
  otherWays: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  // The field takes the focus as it shows (the button that opened it is gone).
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      className="form"
      noValidate
      data-testid="authenticator-check"
      onSubmit={(event) => {
        event.preventDefault();
        const typed = new FormData(event.currentTarget).get("code");
        onCode(typeof typed === "string" ? typed.replace(/\s/g, "") : "");
      }}
    >
      <Field id="check-totp" label="Code from your authenticator app" hint="The 6 digits it shows now for Partners Portal.">
        <input
          ref={input}
          id="check-totp"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          pattern="[0-9 ]{6,7}"
          required
          {...describedBy("check-totp", null, true)}
        />
      </Field>
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? "Checking…" : "Confirm"}
      </button>
      {otherWays ? (
        <button type="button" className="button button--ghost button--block" disabled={busy} onClick={onBack}>
          Use another way
        </button>
      ) : null}
    </form>
  );
}

// The Passkeys section of Settings > Security (decision 024): the person's passkeys (name, added, last used), adding
// one (named first, then the browser asks the authenticator), renaming one and removing one (confirmed; it signs the
// person's other sessions out). Adding needs the script; renaming and removing are plain forms.
import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { proseDate } from "#app/lib/format";
import type { CheckNeeded } from "#server/auth/fresh-check";
import { FreshCheck } from "#app/components/forms/fresh-check";
import { createPasskey, passkeyCall } from "#app/lib/passkey-browser";
import type { loadPasskeys } from "./security.server";
import { SECURITY_URL } from "./tabs";
import { useSending } from "#app/components/forms/form";

type Passkeys = Awaited<ReturnType<typeof loadPasskeys>>;

const messageOf = (data: Record<string, unknown>) => (typeof data.message === "string" ? data.message : "The passkey could not be added. Try again.");

function AddPasskey() {
  const revalidator = useRevalidator();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  useEffect(() => setReady(true), []);
  const [check, setCheck] = useState<{ ask: CheckNeeded; form: HTMLFormElement; name: string } | null>(null);
  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const typed = new FormData(form).get("name");
    await addNamed(form, typeof typed === "string" ? typed : "");
  }
  async function addNamed(form: HTMLFormElement, name: string) {
    setBusy(true);
    setError(null);
    setAdded(null);
    const asked = await passkeyCall({ intent: "register-options", name });
    // Adding a passkey needs a fresh check first (a stolen session cannot add its own); then it goes on by itself.
    if (asked.status === 428 && asked.data.check) {
      setBusy(false);
      return setCheck({ ask: asked.data.check as CheckNeeded, form, name });
    }
    if (asked.status !== 200 || !asked.data.options) {
      setBusy(false);
      return setError(messageOf(asked.data));
    }
    const created = await createPasskey(asked.data.options as Parameters<typeof createPasskey>[0]);
    if (!created.ok) {
      setBusy(false);
      return setError(created.message);
    }
    const stored = await passkeyCall({ intent: "register", name, response: created.response });
    setBusy(false);
    if (stored.status !== 200) return setError(messageOf(stored.data));
    form.reset();
    setAdded(`The passkey “${name.trim()}” is added. Next time you sign in, you can use it instead of a code.`);
    revalidator.revalidate();
  }
  return (
    <>
      <FreshCheck check={check?.ask ?? null} onChecked={() => check && void addNamed(check.form, check.name)} />
      <form className="form passkey-add" onSubmit={(event) => void add(event)} noValidate>
        <div className="field">
          <label htmlFor="passkey-name">Name of the new passkey</label>
          <input
            id="passkey-name"
            name="name"
            maxLength={240}
            placeholder="e.g. Work laptop"
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "passkey-add-error" : "passkey-name-hint"}
          />
          <p className="field-hint" id="passkey-name-hint">
            Up to 60 characters, so you can tell your passkeys apart.
          </p>
        </div>
        {error ? (
          <p className="field-error" id="passkey-add-error" role="alert">
            {error}
          </p>
        ) : null}
        {added ? (
          <p className="notice notice--success" role="status">
            {added}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={!ready || busy}>
          {busy ? "Waiting for your device…" : "Add a passkey"}
        </button>
      </form>
    </>
  );
}

export function PasskeysSection({ passkeys }: { passkeys: Passkeys }) {
  const busy = useSending();
  return (
    <>
      <h3>Passkeys</h3>
      <p>
        A passkey signs you in with your device&apos;s fingerprint, face or screen lock instead of a code by text message. The text message stays available.
      </p>
      {passkeys.list.length === 0 ? (
        <p className="menu__hint">You have no passkeys yet.</p>
      ) : (
        <ul className="session-list" aria-label="Your passkeys">
          {passkeys.list.map((passkey) => (
            <li key={passkey.id} className="session passkey" data-testid="passkey">
              <div className="passkey__about">
                <strong className="passkey__name">{passkey.name}</strong>
                <span className="menu__hint">
                  Added {proseDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${proseDate(passkey.lastUsedAt)}` : "Never used"}
                </span>
              </div>
              <div className="passkey__actions">
                <details className="passkey__confirm">
                  <summary className="button">Rename</summary>
                  <Form method="post" action={SECURITY_URL} className="form">
                    <input type="hidden" name="intent" value="rename-passkey" />
                    <input type="hidden" name="passkeyId" value={passkey.id} />
                    <div className="field">
                      <label htmlFor={`rename-${passkey.id}`}>New name</label>
                      <input id={`rename-${passkey.id}`} name="name" defaultValue={passkey.name} maxLength={240} required />
                    </div>
                    <button type="submit" className="button button--primary" disabled={busy}>
                      Save name
                    </button>
                  </Form>
                </details>
                <details className="passkey__confirm">
                  <summary className="button button--ghost">Remove</summary>
                  <Form method="post" action={SECURITY_URL} className="form">
                    <input type="hidden" name="intent" value="remove-passkey" />
                    <input type="hidden" name="passkeyId" value={passkey.id} />
                    <p>Remove “{passkey.name}”? It can no longer sign you in, and your other sessions are signed out at once. This session stays signed in.</p>
                    <button type="submit" className="button button--danger" disabled={busy}>
                      Remove passkey
                    </button>
                  </Form>
                </details>
              </div>
            </li>
          ))}
        </ul>
      )}
      {passkeys.available ? <AddPasskey /> : <p className="menu__hint">Passkeys are not set up for this portal yet.</p>}
    </>
  );
}

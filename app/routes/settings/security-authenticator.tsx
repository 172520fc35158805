// The Security tab's authenticator app (security-authenticator.server.ts; decision 049): when it was added and last
// used, removing it, and setting one up: a QR code to scan, the same key typed by 4 for who cannot scan, and the first
// code to confirm it. Only its owner can set one up.
import { Form } from "@remix-run/react";
import { Field, describedBy, useSending } from "#app/components/forms/form";
import { proseDate } from "#app/lib/format";
import type { AuthenticatorAnswer, loadAuthenticator } from "./security-authenticator.server";
import { SECURITY_URL } from "./tabs";

function formOf(answer: unknown): AuthenticatorAnswer["authenticatorForm"] | null {
  return typeof answer === "object" && answer !== null && "authenticatorForm" in answer ? (answer as AuthenticatorAnswer).authenticatorForm : null;
}

type Enrolment = NonNullable<AuthenticatorAnswer["authenticatorForm"]["enrolment"]>;

function SetUp({ enrolment, error }: { enrolment: Enrolment; error: string | null }) {
  const busy = useSending();
  const confirming = useSending("confirm-authenticator");
  return (
    <Form method="post" action={SECURITY_URL} className="form authenticator-setup" key={enrolment.id}>
      <input type="hidden" name="intent" value="confirm-authenticator" />
      <input type="hidden" name="enrolment" value={enrolment.id} />
      <ol className="authenticator-setup__steps">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <svg
            className="authenticator-setup__qr"
            viewBox={`0 0 ${enrolment.qr.size} ${enrolment.qr.size}`}
            role="img"
            aria-label="QR code to scan with your authenticator app"
            shapeRendering="crispEdges"
            data-testid="authenticator-qr"
          >
            <rect width={enrolment.qr.size} height={enrolment.qr.size} fill="#fff" />
            <path fill="#000" d={enrolment.qr.d} />
          </svg>
        </li>
        <li>
          <p id="authenticator-key-label">Cannot scan it? Type this key in the app instead:</p>
          <code className="authenticator-setup__key" aria-labelledby="authenticator-key-label" data-testid="authenticator-secret">
            {enrolment.secret}
          </code>
        </li>
        <li>
          <Field id="authenticator-code" label="Enter the 6-digit code the app shows" error={error}>
            <input
              id="authenticator-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              required
              {...describedBy("authenticator-code", error)}
            />
          </Field>
        </li>
      </ol>
      <p className="menu__hint">The key is shown only now: once the app is set up, nobody can see it again.</p>
      <button type="submit" className="button button--primary" disabled={busy}>
        {confirming ? "Checking…" : "Confirm and turn on"}
      </button>
    </Form>
  );
}

export function AuthenticatorSection({ authenticator, answer }: { authenticator: Awaited<ReturnType<typeof loadAuthenticator>>; answer: unknown }) {
  const busy = useSending();
  const starting = useSending("add-authenticator");
  const state = formOf(answer);
  return (
    <>
      <h3 id="authenticator-title">Authenticator app</h3>
      <p>
        An app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password) shows a new code every 30 seconds. Use it to confirm it is you
        without waiting for a text message. Only you can set one up.
      </p>
      {authenticator ? (
        <ul className="session-list" aria-labelledby="authenticator-title">
          <li className="session passkey" data-testid="authenticator">
            <div className="passkey__about">
              <strong className="passkey__name">Authenticator app</strong>
              <span className="menu__hint">
                Added {proseDate(authenticator.addedAt)} · {authenticator.lastUsedAt ? `Last used ${proseDate(authenticator.lastUsedAt)}` : "Never used"}
              </span>
            </div>
            <div className="passkey__actions">
              <details className="passkey__confirm">
                <summary className="button button--ghost">Remove</summary>
                <Form method="post" action={SECURITY_URL} className="form">
                  <input type="hidden" name="intent" value="remove-authenticator" />
                  <p>Remove the authenticator app? Its codes will no longer confirm it is you.</p>
                  <button type="submit" className="button button--danger" disabled={busy}>
                    Remove authenticator app
                  </button>
                </Form>
              </details>
            </div>
          </li>
        </ul>
      ) : state?.enrolment ? (
        <SetUp enrolment={state.enrolment} error={state.error} />
      ) : (
        <Form method="post" action={SECURITY_URL}>
          <input type="hidden" name="intent" value="add-authenticator" />
          {state?.error ? (
            <p className="field-error" role="alert">
              {state.error}
            </p>
          ) : null}
          <button type="submit" className="button" disabled={busy}>
            {starting ? "Starting…" : "Set up an authenticator app"}
          </button>
        </Form>
      )}
    </>
  );
}

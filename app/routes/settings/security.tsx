// The Security tab of /settings: the person's phone numbers (security-phones.tsx), passkeys (security-passkeys.tsx) and
// authenticator app (security-authenticator.tsx),
// where they are signed in, signing one session out, and signing out everywhere.
import { Form } from "@remix-run/react";
import { proseDate } from "#app/lib/format";
import { ErrorNotice } from "./notice";
import { AuthenticatorSection } from "./security-authenticator";
import type { loadAuthenticator } from "./security-authenticator.server";
import { PasskeysSection } from "./security-passkeys";
import { PhonesSection } from "./security-phones";
import type { loadPhones } from "./security-phones.server";
import type { loadPasskeys, loadSessions } from "./security.server";
import { SECURITY_URL } from "./tabs";
import { useSending } from "#app/components/forms/form";

const CHANNEL_LABEL = {
  microsoft: "Work account",
  google: "Google",
  userUniqueEmail: "Email",
} as const;

export function SecurityTab({
  sessions,
  passkeys,
  phones,
  authenticator,
  answer,
  error,
}: {
  sessions: Awaited<ReturnType<typeof loadSessions>>;
  passkeys: Awaited<ReturnType<typeof loadPasskeys>>;
  phones: Awaited<ReturnType<typeof loadPhones>>;
  authenticator: Awaited<ReturnType<typeof loadAuthenticator>>;
  /** The action's answer (the phone form reads its own). */
  answer: unknown;
  error: string | null;
}) {
  const busy = useSending();
  const signingOut = useSending("sign-out-everywhere");
  const others = sessions.filter((row) => !row.current).length;
  return (
    <section className="card" aria-labelledby="security-title">
      <h2 id="security-title">Security</h2>
      <ErrorNotice error={error} />
      <PhonesSection phones={phones} answer={answer} />
      <PasskeysSection passkeys={passkeys} />
      <AuthenticatorSection authenticator={authenticator} answer={answer} />
      <h3>Signed-in sessions</h3>
      <ul className="session-list">
        {sessions.map((row) => (
          <li key={row.id} className="session" data-testid="session">
            <div>
              <strong>
                {row.browser}
                {row.current ? <span className="badge">This session</span> : null}
              </strong>
              <span className="menu__hint">
                {CHANNEL_LABEL[row.channel]} · {row.businessName ?? "Signing in"} · {row.ip ?? "IP not recorded"}
              </span>
              <span className="menu__hint">
                Since {proseDate(row.createdAt)} · until {proseDate(row.expiresAt)}
              </span>
            </div>
            {row.current ? null : (
              <Form method="post" action={SECURITY_URL}>
                <input type="hidden" name="intent" value="sign-out-session" />
                <input type="hidden" name="sessionId" value={row.id} />
                <button type="submit" className="button" disabled={busy}>
                  Sign out
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <h3>Sign out everywhere</h3>
      <p>
        Ends every session of yours on every device, this one included
        {others > 0 ? ` (${others} other ${others === 1 ? "session" : "sessions"})` : ""}. Use it if a device was lost or someone else may have used your
        account.
      </p>
      <Form method="post" action={SECURITY_URL}>
        <input type="hidden" name="intent" value="sign-out-everywhere" />
        <button type="submit" className="button button--danger" disabled={busy}>
          {signingOut ? "Signing out…" : "Sign out everywhere"}
        </button>
      </Form>
    </section>
  );
}

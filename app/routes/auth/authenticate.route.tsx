// The step after the email or work account: a person with a passkey may use it (the first choice, decision 024), one
// with an authenticator app its code (the second, decision 049); otherwise, or as the fallback, they choose which
// linked phone gets the one-time code.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import * as v from "valibot";
import { authDeps } from "#server/auth/deps";
import { redirectSignedIn, requireIdentified } from "#server/auth/guards";
import { requireSameOrigin } from "#server/auth/origin";
import { CODE_SEND_LIMITS, authLimited, retryAfterHeaders, tooMany } from "#server/auth/limits";
import { requestOtp } from "#server/auth/otp";
import { hasPasskey, relyingPartyOf } from "#server/passkeys/passkeys";
import { hasAuthenticator } from "#server/authenticator/authenticator-app";
import { smsPortFor } from "#server/sms/sms";
import { refuse } from "#server/plumbing/http";
import { passkeyCall, signWithPasskey } from "#app/lib/passkey-browser";
import { maskPhone } from "#app/lib/forms/phone";
import type { PageHandle } from "#app/lib/shell/page";
import { useSending } from "#app/components/forms/form";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Authenticate" }];
export const handle: PageHandle = { layout: "standard" };

export const headers = retryAfterHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  await redirectSignedIn(request, deps);
  const session = await requireIdentified(request, deps);
  const [passkey, app] = await Promise.all([relyingPartyOf(deps) !== null && hasPasskey(deps.db, session.sub), hasAuthenticator(deps, session.sub)]);
  // Only masked numbers reach the browser; the choice is by position.
  return { phones: session.linkedNumbers.map((msisdn, index) => ({ index, masked: maskPhone(msisdn) })), email: session.email, passkey, app };
}

const PhoneForm = v.object({ phone: v.pipe(v.string("Choose a phone number."), v.regex(/^\d{1,2}$/, "Choose a phone number."), v.transform(Number)) });

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const session = await requireIdentified(request, deps);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(PhoneForm, read.fields);
  const msisdn = parsed.success ? session.linkedNumbers[parsed.output.phone] : undefined;
  if (!msisdn) return refuse({ phone: "Choose one of the phone numbers linked to your account." });
  const wait = await authLimited(deps.db, request, CODE_SEND_LIMITS, session.sub, deps.now());
  if (wait !== null) return tooMany("phone", wait);
  const sent = await requestOtp(request, deps, session, { msisdn, masked: maskPhone(msisdn) }, smsPortFor(deps.config, deps.db));
  if (!sent.ok) return refuse({ phone: sent.message });
  return redirect("/authenticate/verify", { headers: { "Set-Cookie": sent.setCookie } });
}

/** "Use your passkey": options, the authenticator, the answer; then on to the business choice. Needs the script. */
function PasskeyChoice() {
  const navigate = useNavigate();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setReady(true), []);
  async function answerWithPasskey() {
    setBusy(true);
    setError(null);
    const asked = await passkeyCall({ intent: "sign-in-options" });
    const options = asked.data.options;
    if (asked.status !== 200 || !options) {
      setBusy(false);
      return setError(typeof asked.data.message === "string" ? asked.data.message : "Your passkey could not be used. Try again.");
    }
    const answer = await signWithPasskey(options as Parameters<typeof signWithPasskey>[0]);
    if (!answer.ok) {
      setBusy(false);
      return setError(answer.message);
    }
    const done = await passkeyCall({ intent: "sign-in", response: answer.response });
    if (done.status === 200) return navigate("/select-business");
    setBusy(false);
    setError(typeof done.data.message === "string" ? done.data.message : "Your passkey could not be used. Try again.");
  }
  return (
    <div className="form" data-testid="passkey-choice">
      <button type="button" className="button button--primary button--block" disabled={!ready || busy} onClick={() => void answerWithPasskey()}>
        {busy ? "Waiting for your passkey…" : "Use your passkey"}
      </button>
      {error ? (
        <p className="field-error" id="passkey-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export default function Authenticate() {
  const { phones, email, passkey, app } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.errors.phone;
  const busy = useSending();
  return (
    <div className="sign-in">
      <h1>{passkey || app ? "How do you want to sign in?" : "Where should we send your code?"}</h1>
      <p className="page__lead">Signing in as {email}.</p>
      {passkey ? <PasskeyChoice /> : null}
      {app ? (
        <div className="form">
          <Link to="/authenticate/verify?with=app" className={`button button--block${passkey ? " button--ghost" : " button--primary"}`}>
            Use your authenticator app
          </Link>
        </div>
      ) : null}
      {passkey || app ? <h2 className="sign-in__or">Or get a code by text message</h2> : null}
      <Form method="post" className="form">
        <fieldset className="choice-list" aria-describedby={error ? "phone-error" : undefined}>
          <legend>Phone number</legend>
          {phones.map((phone) => (
            <label key={phone.index} className="choice">
              <input type="radio" name="phone" value={phone.index} defaultChecked={phone.index === 0} required />
              <span>{phone.masked}</span>
            </label>
          ))}
        </fieldset>
        {error ? (
          <p className="field-error" id="phone-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className={`button ${passkey || app ? "" : "button--primary "}button--block`} disabled={busy}>
          {busy ? "Sending…" : "Send code"}
        </button>
      </Form>
    </div>
  );
}

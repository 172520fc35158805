// Choose which linked phone gets the one-time code.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { authDeps } from "../../functions/auth/deps";
import { redirectSignedIn, requireIdentified } from "../../functions/auth/guards";
import { requireSameOrigin } from "../../functions/auth/origin";
import { CODE_SEND_LIMITS, authLimited, retryAfterHeaders, tooMany } from "../../functions/auth/limits";
import { requestOtp } from "../../functions/auth/otp";
import { smsPortFor } from "../../functions/auth/sms";
import { refuse } from "../../functions/http";
import { maskPhone } from "../lib/phone";

export const headers = retryAfterHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  await redirectSignedIn(request, deps);
  const session = await requireIdentified(request, deps);
  // Only masked numbers reach the browser; the choice is by position.
  return { phones: session.linkedNumbers.map((msisdn, index) => ({ index, masked: maskPhone(msisdn) })), email: session.email };
}

const PhoneForm = v.object({ phone: v.pipe(v.string("Choose a phone number."), v.regex(/^\d{1,2}$/, "Choose a phone number."), v.transform(Number)) });

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/submission.ts).
export { clientAction, shouldRevalidate } from "../components/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const session = await requireIdentified(request, deps);
  const parsed = v.safeParse(PhoneForm, Object.fromEntries(await request.formData()));
  const msisdn = parsed.success ? session.linkedNumbers[parsed.output.phone] : undefined;
  if (!msisdn) return refuse({ phone: "Choose one of the phone numbers linked to your account." });
  const wait = await authLimited(deps.db, request, CODE_SEND_LIMITS, session.sub, deps.now());
  if (wait !== null) return tooMany("phone", wait);
  const sent = await requestOtp(request, deps, session, { msisdn, masked: maskPhone(msisdn) }, smsPortFor(deps.config, deps.db));
  if (!sent.ok) return refuse({ phone: sent.message });
  return redirect("/authenticate/verify", { headers: { "Set-Cookie": sent.setCookie } });
}

export default function Authenticate() {
  const { phones, email } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.errors.phone;
  const busy = useNavigation().state !== "idle";
  return (
    <div className="sign-in">
      <h1>Where should we send your code?</h1>
      <p className="page__lead">Signing in as {email}.</p>
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
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? "Sending…" : "Send code"}
        </button>
      </Form>
    </div>
  );
}

// Enter the one-time code (or ask for a new one after the cooldown). A person who has set up an authenticator app
// (decision 049) may give its code instead of a text message's, here at the same step (`?with=app`): no text is sent.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { authDeps } from "#server/auth/deps";
import { redirectSignedIn, requireIdentified } from "#server/auth/guards";
import { requireSameOrigin } from "#server/auth/origin";
import { CODE_SEND_LIMITS, CODE_VERIFY_LIMITS, authLimited, retryAfterHeaders, tooMany } from "#server/auth/limits";
import { requestOtp, verifyOtp } from "#server/auth/otp";
import { AUTHENTICATOR_MESSAGES, hasAuthenticator, signInWithAuthenticator } from "#server/authenticator/authenticator-app";
import { smsPortFor } from "#server/sms/sms";
import { refuse } from "#server/plumbing/http";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { maskPhone } from "#app/lib/forms/phone";
import type { PageHandle } from "#app/lib/shell/page";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Authenticate" }];
export const handle: PageHandle = { layout: "standard" };

export const headers = retryAfterHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  await redirectSignedIn(request, deps);
  const session = await requireIdentified(request, deps);
  const app = await hasAuthenticator(deps, session.sub);
  const byApp = app && new URL(request.url).searchParams.get("with") === "app";
  if (!session.selectedPhoneNumber && !byApp) throw redirect("/authenticate");
  return { phone: session.selectedPhoneNumber ? maskPhone(session.selectedPhoneNumber) : null, app, byApp };
}

const VerifyForm = v.variant("intent", [
  v.object({ intent: v.literal("verify"), code: v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, "Enter the 6-digit code from the text message.")) }),
  v.object({ intent: v.literal("resend") }),
  // Spaces as an app groups the digits ("123 456") are taken out; the shape is checked with the app's own words.
  v.object({
    intent: v.literal("app"),
    code: v.pipe(
      v.string(),
      v.transform((code) => code.replace(/\s/g, "")),
      v.regex(/^\d{6}$/, AUTHENTICATOR_MESSAGES.malformed),
    ),
  }),
]);

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const session = await requireIdentified(request, deps);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(VerifyForm, read.fields);
  if (!parsed.success) return refuse({ code: parsed.issues[0].message });
  if (parsed.output.intent === "resend") {
    if (!session.selectedPhoneNumber) throw redirect("/authenticate");
    const msisdn = session.selectedPhoneNumber;
    const wait = await authLimited(deps.db, request, CODE_SEND_LIMITS, session.sub, deps.now());
    if (wait !== null) return tooMany("code", wait);
    const sent = await requestOtp(request, deps, session, { msisdn, masked: maskPhone(msisdn) }, smsPortFor(deps.config, deps.db));
    if (!sent.ok) return refuse({ code: sent.message });
    return data({ resent: true }, { headers: { "Set-Cookie": sent.setCookie } });
  }
  const wait = await authLimited(deps.db, request, CODE_VERIFY_LIMITS, session.sub, deps.now());
  if (wait !== null) return tooMany("code", wait);
  if (parsed.output.intent === "app") {
    const signedIn = await signInWithAuthenticator(request, deps, session, parsed.output.code);
    if (!signedIn.ok) return refuse({ code: signedIn.message });
    return redirect("/select-business", { headers: { "Set-Cookie": signedIn.setCookie } });
  }
  const verified = await verifyOtp(request, deps, session, parsed.output.code);
  if (!verified.ok) return refuse({ code: verified.message });
  return redirect("/select-business", { headers: { "Set-Cookie": verified.setCookie } });
}

export default function Verify() {
  const { phone, app, byApp } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useSending();
  const error = result && "errors" in result ? result.errors.code : undefined;
  if (byApp) return <AppCodeStep error={error} busy={busy} phone={phone} />;
  return (
    <div className="sign-in">
      <h1>Enter your code</h1>
      <p className="page__lead">We sent a 6-digit code to {phone}. It is valid for 5 minutes.</p>
      {result && "resent" in result ? (
        <p className="notice notice--success" role="status">
          A new code is on its way.
        </p>
      ) : null}
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="intent" value="verify" />
        <Field id="code" label="One-time code" error={error}>
          <input
            id="code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            {...describedBy("code", error)}
          />
        </Field>
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? "Checking…" : "Verify"}
        </button>
      </Form>
      <Form method="post" className="form form--secondary">
        <input type="hidden" name="intent" value="resend" />
        <button type="submit" className="button button--ghost button--block" disabled={busy}>
          Send a new code
        </button>
      </Form>
      {app ? (
        <p className="sign-in__other">
          <Link to={APP_STEP}>Use your authenticator app instead</Link>
        </p>
      ) : null}
    </div>
  );
}

const APP_STEP = "/authenticate/verify?with=app";

/** The same step by the authenticator app: its code, and back to a text message (to a number chosen on /authenticate). */
function AppCodeStep({ error, busy, phone }: { error: string | undefined; busy: boolean; phone: string | null }) {
  return (
    <div className="sign-in">
      <h1>Enter your code</h1>
      <p className="page__lead">Enter the 6-digit code your authenticator app shows now for Partners Portal. No text message is sent.</p>
      <Form method="post" action={APP_STEP} className="form" noValidate>
        <input type="hidden" name="intent" value="app" />
        <Field id="code" label="Code from your authenticator app" error={error}>
          <input
            id="code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            required
            {...describedBy("code", error)}
          />
        </Field>
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? "Checking…" : "Verify"}
        </button>
      </Form>
      <p className="sign-in__other">
        <Link to={phone ? "/authenticate/verify" : "/authenticate"}>
          {phone ? `Use the code sent to ${phone} instead` : "Get a code by text message instead"}
        </Link>
      </p>
    </div>
  );
}

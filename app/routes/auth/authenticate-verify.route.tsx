// Enter the one-time code (or ask for a new one after the cooldown).
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { authDeps } from "#server/auth/deps";
import { redirectSignedIn, requireIdentified } from "#server/auth/guards";
import { requireSameOrigin } from "#server/auth/origin";
import { CODE_SEND_LIMITS, CODE_VERIFY_LIMITS, authLimited, retryAfterHeaders, tooMany } from "#server/auth/limits";
import { requestOtp, verifyOtp } from "#server/auth/otp";
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
  if (!session.selectedPhoneNumber) throw redirect("/authenticate");
  return { phone: maskPhone(session.selectedPhoneNumber) };
}

const VerifyForm = v.variant("intent", [
  v.object({ intent: v.literal("verify"), code: v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, "Enter the 6-digit code from the text message.")) }),
  v.object({ intent: v.literal("resend") }),
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
  const verified = await verifyOtp(request, deps, session, parsed.output.code);
  if (!verified.ok) return refuse({ code: verified.message });
  return redirect("/select-business", { headers: { "Set-Cookie": verified.setCookie } });
}

export default function Verify() {
  const { phone } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useSending();
  const error = result && "errors" in result ? result.errors.code : undefined;
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
    </div>
  );
}

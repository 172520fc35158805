// Unique-email sign-in: the email is trimmed and checked (SPEC section 5), then a
// one-time code is sent to one of the person's linked phones (/authenticate).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { authDeps } from "#server/auth/deps";
import { redirectSignedIn } from "#server/auth/guards";
import { SIGN_IN_LIMITS, authLimited, retryAfterHeaders, tooMany } from "#server/auth/limits";
import { requireSameOrigin } from "#server/auth/origin";
import { endedMessage } from "#server/auth/session";
import { normaliseEmail, startLogin } from "#server/auth/sign-in";
import { setCookieHeaders } from "#server/plumbing/cookies";
import { refuse } from "#server/plumbing/http";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { isValidEmail } from "#app/lib/forms/validation";
import { APP_NAME, type PageHandle } from "#app/lib/shell/page";
import { readForm } from "#server/forms";

// SPEC gives this page no title of its own: the document keeps the app's name.
export const meta: MetaFunction = () => [{ title: APP_NAME }];
export const handle: PageHandle = { layout: "standard" };

export const headers = retryAfterHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectSignedIn(request, authDeps(request, context));
  // A limit ended the session (decision 026): say which.
  return { ended: endedMessage(new URL(request.url).searchParams.get("ended")) };
}

const EmailForm = v.object({
  email: v.pipe(
    v.string("Enter your email address."),
    v.trim(),
    v.nonEmpty("Enter your email address."),
    v.check((email) => isValidEmail(email), "Enter a valid email address, like name@company.com."),
  ),
});

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(EmailForm, read.fields);
  if (!parsed.success) return refuse({ email: parsed.issues[0].message });
  const deps = authDeps(request, context);
  // Each look-up says whether an address has an account: limited per typed email and per client address.
  const wait = await authLimited(deps.db, request, SIGN_IN_LIMITS, `email:${normaliseEmail(parsed.output.email)}`, deps.now());
  if (wait !== null) return tooMany("email", wait);
  const result = await startLogin(request, deps, { email: parsed.output.email, channel: "userUniqueEmail" });
  if (!result.ok) return refuse({ email: result.message });
  return redirect("/authenticate", { headers: setCookieHeaders([result.setCookie, result.returnCookie]) });
}

export default function LoginOption() {
  const { ended } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.errors.email;
  const busy = useSending();
  return (
    <div className="sign-in">
      <h1>Sign in with your email</h1>
      <p className="page__lead">We will send a one-time code to a phone number linked to your account.</p>
      {ended ? (
        <p className="notice notice--warning notice__message" role="status" data-testid="signed-out-notice">
          {ended}
        </p>
      ) : null}
      <Form method="post" className="form" noValidate>
        <Field id="email" label="Email address" error={error}>
          <input id="email" name="email" type="email" autoComplete="email" inputMode="email" required autoCapitalize="none" {...describedBy("email", error)} />
        </Field>
        <button type="submit" className="button button--primary button--block" disabled={busy}>
          {busy ? "Checking…" : "Continue"}
        </button>
      </Form>
    </div>
  );
}

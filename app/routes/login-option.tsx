// Unique-email sign-in: the email is trimmed and checked (SPEC section 5), then a
// one-time code is sent to one of the person's linked phones (/authenticate).
import { data, redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { authDeps } from "../../functions/auth/deps";
import { redirectSignedIn } from "../../functions/auth/guards";
import { EMAIL_LOOKUP_RATE_LIMIT, clientKey, countRequest } from "../../functions/rate-limit";
import { requireSameOrigin } from "../../functions/auth/origin";
import { startLogin } from "../../functions/auth/sign-in";
import { setCookieHeaders } from "../../functions/cookies";
import { refuse } from "../../functions/http";
import { describedBy, Field } from "../components/form";
import { isValidEmail } from "../lib/validation";

// A refused look-up's Retry-After reaches the response (Remix passes on only cookies by itself).
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectSignedIn(request, authDeps(request, context));
  return null;
}

const EmailForm = v.object({
  email: v.pipe(
    v.string("Enter your email address."),
    v.trim(),
    v.nonEmpty("Enter your email address."),
    v.check((email) => isValidEmail(email), "Enter a valid email address, like name@company.com."),
  ),
});

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/submission.ts).
export { clientAction, shouldRevalidate } from "../components/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const parsed = v.safeParse(EmailForm, Object.fromEntries(await request.formData()));
  if (!parsed.success) return refuse({ email: parsed.issues[0].message });
  const deps = authDeps(request, context);
  // Each look-up says whether an address has an account: limit them per client.
  const limit = await countRequest(deps.db, EMAIL_LOOKUP_RATE_LIMIT, clientKey(request.headers.get("CF-Connecting-IP")), deps.now());
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return data(
      { errors: { email: `Too many sign-in attempts from this network. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.` }, values: null },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  const result = await startLogin(request, deps, { email: parsed.output.email, channel: "userUniqueEmail" });
  if (!result.ok) return refuse({ email: result.message });
  return redirect("/authenticate", { headers: setCookieHeaders([result.setCookie, result.returnCookie]) });
}

export default function LoginOption() {
  const error = useActionData<typeof action>()?.errors.email;
  const busy = useNavigation().state !== "idle";
  return (
    <div className="sign-in">
      <h1>Sign in with your email</h1>
      <p className="page__lead">We will send a one-time code to a phone number linked to your account.</p>
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

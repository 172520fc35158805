// Unique-email sign-in: the email is trimmed and checked (SPEC section 5), then a
// one-time code is sent to one of the person's linked phones (/authenticate).
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { authDeps } from "../../functions/auth/deps";
import { requireSameOrigin } from "../../functions/auth/origin";
import { startLogin } from "../../functions/auth/sign-in";
import { describedBy, Field } from "../components/form";
import { isValidEmail } from "../lib/validation";

export function loader(_args: LoaderFunctionArgs) {
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

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const parsed = v.safeParse(EmailForm, Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: parsed.issues[0].message }, { status: 400 });
  const result = await startLogin(request, authDeps(request, context), { email: parsed.output.email, channel: "userUniqueEmail" });
  if (!result.ok) return data({ error: result.message }, { status: 400 });
  return redirect("/authenticate", { headers: { "Set-Cookie": result.setCookie } });
}

export default function LoginOption() {
  const error = useActionData<typeof action>()?.error;
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

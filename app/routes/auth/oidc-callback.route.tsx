// GET /auth/oidc/{microsoft|google}/callback: the redirect URI. After a
// full-page redirect it redirects again: to /authenticate, or back to /login
// with the failure's code. In the popup it renders a small page that hands the
// outcome to the /login page that opened it, by postMessage to that exact
// origin, and closes itself.
import { data, redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { authDeps, oidcDeps } from "#server/auth/deps";
import { finishOidcSignIn, isOidcProvider } from "#server/oidc/oidc-sign-in";
import { signInFailureMessage } from "#server/auth/sign-in-messages";
import { setCookieHeaders } from "#server/plumbing/cookies";
import { routeNotFound } from "#server/plumbing/http";
import { SIGN_IN_MESSAGE_TYPE, type SignInMessage } from "./sign-in-popup";
import type { PageHandle } from "#app/lib/shell/page";

export const meta: MetaFunction = () => [{ title: "Login" }];
export const handle: PageHandle = { layout: "standard" };

// The popup goes portal -> provider -> here: with the portal's usual
// same-origin-allow-popups this page would land in a new browsing context group
// and lose window.opener. It shows nothing but the outcome.
// A refused (429) sign-in's Retry-After reaches the response.
export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cross-Origin-Opener-Policy": "unsafe-none",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  ...(loaderHeaders.get("Retry-After") ? { "Retry-After": loaderHeaders.get("Retry-After")! } : {}),
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!isOidcProvider(params.provider)) routeNotFound(request);
  const deps = authDeps(request, context);
  const finished = await finishOidcSignIn(request, deps, oidcDeps(context, deps), params.provider);
  const cookies = setCookieHeaders(finished.setCookies);
  const { outcome } = finished;
  // Over a sign-in limit: a 429 in either mode (the page hands the failure to /login, or shows it with a way back).
  if (finished.retryAfterSeconds !== undefined) {
    cookies.set("Retry-After", String(finished.retryAfterSeconds));
    return data({ message: { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: "too_many" } satisfies SignInMessage }, { status: 429, headers: cookies });
  }
  if (finished.mode === "redirect") throw redirect(outcome.ok ? outcome.next : `/login?error=${outcome.code}`, { headers: cookies });
  // A popup, or a flow whose cookie was lost (the page decides by whether it has an opener).
  const message: SignInMessage = outcome.ok
    ? { type: SIGN_IN_MESSAGE_TYPE, ok: true, next: outcome.next }
    : { type: SIGN_IN_MESSAGE_TYPE, ok: false, code: outcome.code };
  return data({ message }, { headers: cookies });
}

export default function SignInCallback() {
  const { message } = useLoaderData<typeof loader>();
  const [orphan, setOrphan] = useState(false);
  useEffect(() => {
    const opener = window.opener as Window | null;
    if (opener && !opener.closed) {
      // Only a page of this very origin may read it.
      opener.postMessage(message, window.location.origin);
      // The opener closes the popup when it has the message; this is the fallback.
      const timer = window.setTimeout(() => window.close(), 2000);
      return () => window.clearTimeout(timer);
    }
    // No opener (a full-page flow whose cookie was lost, or the /login page is gone): carry on here.
    if (message.ok) window.location.replace(message.next);
    else setOrphan(true);
    return undefined;
  }, [message]);
  return (
    <div className="sign-in" aria-live="polite">
      {message.ok ? (
        <p>Signed in. Returning to the portal…</p>
      ) : orphan ? (
        <>
          <p className="field-error" role="alert">
            {signInFailureMessage(message.code)}
          </p>
          <a className="button button--primary" href="/login">
            Back to sign-in
          </a>
        </>
      ) : (
        <p>Sign-in did not finish. Returning to the portal…</p>
      )}
    </div>
  );
}

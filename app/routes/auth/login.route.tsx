// /login: the three sign-in channels (SPEC sections 1, 4 and 8). Work account
// and Google run in a popup (a full-page redirect when the popup cannot open, or
// when the provider needs the user on its own pages); the unique-email channel
// is /login-option. One sign-in at a time (SPEC section 4): while one runs, pressing
// any channel says so and leaves the running one alone.
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { authDeps, oidcDeps } from "#server/auth/deps";
import { redirectSignedIn } from "#server/auth/guards";
import { endedMessage } from "#server/auth/session";
import { isOidcConfigured, type OidcMode, type OidcProviderId } from "#server/oidc/oidc";
import { isSignInFailure, signInFailureMessage, SIGN_IN_FAILURES, type SignInFailure } from "#server/auth/sign-in-messages";
import { track } from "#app/components/analytics/analytics";
import { signInFailedInput, type SignInChannel } from "#app/lib/analytics/analytics";
import { popupFeatures, popupSize } from "./popup";
import { readSignInMessage } from "./sign-in-popup";
import type { PageHandle } from "#app/lib/shell/page";

export const meta: MetaFunction = () => [{ title: "Login" }];
export const handle: PageHandle = { layout: "standard" };

// Never cached: the page reflects who is signed in and the last failure.
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  await redirectSignedIn(request, deps);
  const { oidc } = oidcDeps(context, deps);
  // After a full-page flow the callback sends failures back here as ?error=<code>.
  const url = new URL(request.url);
  const code = url.searchParams.get("error");
  return data(
    {
      configured: { microsoft: isOidcConfigured(oidc, "microsoft"), google: isOidcConfigured(oidc, "google") },
      popupSize: oidc.popupSize,
      error: code === null ? null : signInFailureMessage(code),
      // A limit ended the session (decision 026): say which.
      ended: endedMessage(url.searchParams.get("ended")),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const POPUP_NAME = "partners-portal-sign-in";
const CHANNELS: { provider: OidcProviderId; label: string; short: string }[] = [
  { provider: "microsoft", label: "Sign in with work account", short: "Work account" },
  { provider: "google", label: "Sign in with Google", short: "Google" },
];

type Started = { url: string } | { code: SignInFailure };

let attempts = 0;

/**
 * SPEC section 4: a failure is reported. The Worker audits the failures it detects (functions/oidc/oidc-sign-in.ts),
 * but some only the browser sees (the popup closed, no network, a second sign-in, cookies blocked): every failure this
 * page shows is an event, so each kind is counted in one place. Each attempt's failure is its own event: a person who
 * closes the popup twice failed twice.
 */
function reportFailure(channel: SignInChannel, code: SignInFailure): void {
  attempts += 1;
  void track(signInFailedInput(channel, code, SIGN_IN_FAILURES[code]), `sign-in ${attempts}`);
}

/** Asks the portal to start a flow: the provider URL to open, and the flow cookie. */
async function startFlow(provider: OidcProviderId, mode: OidcMode): Promise<Started> {
  if (!navigator.onLine) return { code: "no_network" };
  try {
    const response = await fetch(`/auth/oidc/${provider}/start`, {
      method: "POST",
      headers: { Accept: "application/json" },
      body: new URLSearchParams({ mode }),
      credentials: "same-origin",
    });
    const body = (await response.json().catch(() => null)) as { url?: unknown; code?: unknown } | null;
    if (response.ok && typeof body?.url === "string") return { url: body.url };
    return { code: isSignInFailure(body?.code) ? body.code : "provider_error" };
  } catch {
    return { code: "no_network" };
  }
}

/**
 * SPEC section 4's isLoggingIn and button loading state. `signingIn` is the
 * channel in progress; any failure resets it and shows that failure's message.
 */
function useProviderSignIn(configuredSize: string | null, initialError: string | null) {
  const navigate = useNavigate();
  const inProgress = useRef<OidcProviderId | null>(null);
  const openPopup = useRef<Window | null>(null);
  const stopWatching = useRef<() => void>(() => undefined);
  const [signingIn, setSigningIn] = useState<OidcProviderId | null>(null);
  const [error, setError] = useState<string | null>(initialError);

  const fail = useCallback((code: SignInFailure, provider: OidcProviderId) => {
    reportFailure(provider, code);
    stopWatching.current();
    stopWatching.current = () => undefined;
    inProgress.current = null;
    openPopup.current = null;
    setSigningIn(null);
    setError(SIGN_IN_FAILURES[code]);
  }, []);

  useEffect(() => () => stopWatching.current(), []);

  /** A second sign-in while one runs is refused with SPEC section 4's message; the running one's window comes forward. */
  const refuseSecond = useCallback((attempted: SignInChannel) => {
    reportFailure(attempted, "in_progress");
    setError(SIGN_IN_FAILURES.in_progress);
    openPopup.current?.focus();
  }, []);

  /** The full-page flow: the flow state rides in a cookie across the redirect. */
  const redirectFlow = useCallback(
    async (provider: OidcProviderId) => {
      if (!navigator.cookieEnabled) return fail("redirect_storage", provider);
      const started = await startFlow(provider, "redirect");
      if ("code" in started) return fail(started.code, provider);
      window.location.assign(started.url);
    },
    [fail],
  );

  const signIn = useCallback(
    async (provider: OidcProviderId) => {
      if (inProgress.current) return refuseSecond(provider);
      inProgress.current = provider;
      setSigningIn(provider);
      setError(null);
      // Opened in the click itself, before any await, or the browser blocks it.
      const size = popupSize(configuredSize);
      const popup = window.open(
        "",
        POPUP_NAME,
        popupFeatures(size, { left: window.screenX, top: window.screenY, width: window.outerWidth, height: window.outerHeight }),
      );
      if (!popup) return redirectFlow(provider);
      openPopup.current = popup;
      const started = await startFlow(provider, "popup");
      if ("code" in started) {
        popup.close();
        return fail(started.code, provider);
      }
      let settled = false;
      const onMessage = (event: MessageEvent) => {
        const message = readSignInMessage(event, { origin: window.location.origin, popup });
        if (!message) return;
        settled = true;
        stopWatching.current();
        popup.close();
        if (message.ok) navigate(message.next);
        else if (message.code === "interaction_required") void redirectFlow(provider);
        else fail(message.code, provider);
      };
      const poll = window.setInterval(() => {
        if (!popup.closed) return;
        window.clearInterval(poll);
        // A message posted just before closing is still on its way: give it a moment.
        window.setTimeout(() => settled || fail("popup_closed", provider), 300);
      }, 300);
      window.addEventListener("message", onMessage);
      stopWatching.current = () => {
        window.removeEventListener("message", onMessage);
        window.clearInterval(poll);
      };
      popup.location.href = started.url;
    },
    [configuredSize, fail, navigate, redirectFlow, refuseSecond],
  );

  return { signingIn, error, signIn, refuseSecond };
}

export default function Login() {
  const { configured, popupSize: size, error: initialError, ended } = useLoaderData<typeof loader>();
  const { signingIn, error, signIn, refuseSecond } = useProviderSignIn(size, initialError);
  return (
    <div className="sign-in">
      <h1>Sign in</h1>
      <p className="page__lead">Then we send a one-time code to a phone number linked to your account.</p>
      {ended ? (
        <p className="notice notice--warning notice__message" role="status" data-testid="signed-out-notice">
          {ended}
        </p>
      ) : null}
      {error ? (
        <p className="notice notice--danger notice__message" role="alert" data-testid="sign-in-error">
          {error}
        </p>
      ) : null}
      <div className="sign-in__channels" aria-busy={signingIn !== null}>
        {CHANNELS.map(({ provider, label, short }) =>
          configured[provider] ? (
            // Without JavaScript the form posts and the portal redirects to the provider.
            <form
              key={provider}
              method="post"
              action={`/auth/oidc/${provider}/start`}
              onSubmit={(event) => {
                event.preventDefault();
                void signIn(provider);
              }}
            >
              <input type="hidden" name="mode" value="redirect" />
              <button type="submit" className="button button--primary button--block" aria-busy={signingIn === provider}>
                {signingIn === provider ? "Signing in…" : label}
              </button>
            </form>
          ) : (
            <button key={provider} type="button" className="button button--block" disabled>
              {short} sign-in is not configured
            </button>
          ),
        )}
        <Link
          to="/login-option"
          className="button button--block"
          onClick={(event) => {
            if (!signingIn) return;
            event.preventDefault();
            refuseSecond("userUniqueEmail");
          }}
        >
          Sign in with your email
        </Link>
      </div>
    </div>
  );
}

// What /login says for each way a work-account or Google sign-in can end
// (SPEC section 8). One table for the server (the callback, the start endpoint,
// `?error=` after a full-page redirect) and the browser (the popup's own
// failures), so a code always reads the same wherever it is detected.

export const SIGN_IN_FAILURES = {
  /** The provider has no issuer / client id / secret in env. */
  not_configured: "This sign-in option is not configured.",
  /** The user cancelled at the provider (access_denied). */
  cancelled: "Sign-in was cancelled.",
  /** The user closed the sign-in window before it finished. */
  popup_closed: "The sign-in window was closed before sign-in finished. Please try again.",
  /** The browser is offline, or the portal could not be reached. */
  no_network: "No network connection. Check your connection and try again.",
  /** The provider needs the user on its pages: the popup falls back to the full-page flow. */
  interaction_required: "Sign-in needs you to continue on the sign-in page. Please try again.",
  /** SPEC section 8, verbatim. */
  user_switch:
    "User attempted to switch accounts in the native broker, which is not allowed. All new accounts must sign-in through the standard web flow first, please try again.",
  /** The full-page flow cannot keep its state across the redirect (cookies blocked). */
  redirect_storage: "Sign-in by redirect needs cookies, which this browser is blocking for the portal. Allow cookies (or pop-ups) for this site and try again.",
  /** A second sign-in while one is in progress. */
  in_progress: "A sign-in is already in progress.",
  /** Any other error the provider sent to the redirect URI. */
  provider_error: "The sign-in provider reported an error. Please try again.",
  /** The callback's query parameters are not a valid authorization response. */
  invalid_callback: "The sign-in response was not valid. Please try again.",
  /** No flow cookie, an expired one, another provider's, or a different state. */
  state_mismatch: "This sign-in attempt expired or was started elsewhere. Please try again.",
  /** Discovery, the token endpoint or the JWKS could not be reached. */
  unreachable: "Action Failed. Please check connectivity and try again",
  /** The discovery document is unusable (wrong issuer, missing endpoints, no S256). */
  discovery_invalid: "The sign-in provider is misconfigured.",
  /** The token endpoint refused the code or answered without an ID token. */
  token_exchange_failed: "Sign-in could not be completed. Please try again.",
  /** The ID token failed a check. */
  invalid_id_token: "Sign-in could not be verified. Please try again.",
  /** Too many sign-ins from this address or for this account (functions/auth/limits.ts); the response says when in Retry-After. */
  too_many: "Too many sign-in attempts. Try again in a few minutes.",
  /** The account is fine but no portal user has its email (the same words as /login-option). */
  no_account: "No portal account uses this email address. Check it, or ask your administrator to invite you.",
} as const;

export type SignInFailure = keyof typeof SIGN_IN_FAILURES;

export function isSignInFailure(code: unknown): code is SignInFailure {
  return typeof code === "string" && Object.hasOwn(SIGN_IN_FAILURES, code);
}

/** The message for a code from a URL or a message event; unknown codes get SPEC's generic one. */
export function signInFailureMessage(code: unknown): string {
  return isSignInFailure(code) ? SIGN_IN_FAILURES[code] : "Action Failed. Please check connectivity and try again";
}

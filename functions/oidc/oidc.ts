// OpenID Connect sign-in (DESIGN section 4): the authorization-code flow with PKCE S256, `state` and `nonce`, for the
// work account (Microsoft Entra ID, common authority) and Google. The pages call `startOidc` (the URL the popup or the
// full-page redirect opens) and `completeOidc` (the redirect URI's loader) of oidc-flow.ts; a successful completion
// gives the email that `startLogin` (functions/auth/sign-in.ts) takes. What the issuer publishes and answers is
// oidc-issuer.ts's. The providers, their settings and the errors of every step are here, where both halves read them.
import type { AuthConfig, OidcClientConfig, OidcConfig } from "../env";
import { SIGN_IN_FAILURES, type SignInFailure } from "../auth/sign-in-messages";

export const OIDC_PROVIDERS = ["microsoft", "google"] as const;
export type OidcProviderId = (typeof OIDC_PROVIDERS)[number];
export type OidcMode = "popup" | "redirect";

export type IdTokenProblem = "malformed" | "signature" | "issuer" | "audience" | "expired" | "not_yet_valid" | "nonce" | "tenant" | "email";

/** The OIDC subset of the sign-in failures (see sign-in-messages.ts for each one's meaning). */
export type OidcErrorCode = Extract<
  SignInFailure,
  | "not_configured"
  | "cancelled"
  | "interaction_required"
  | "user_switch"
  | "provider_error"
  | "invalid_callback"
  | "state_mismatch"
  | "unreachable"
  | "discovery_invalid"
  | "token_exchange_failed"
  | "invalid_id_token"
>;

export class OidcError extends Error {
  override name = "OidcError";
  constructor(
    readonly code: OidcErrorCode,
    readonly detail: { reason?: IdTokenProblem; providerError?: string; cause?: unknown } = {},
  ) {
    super(SIGN_IN_FAILURES[code], detail.cause === undefined ? undefined : { cause: detail.cause });
  }
  get reason(): IdTokenProblem | undefined {
    return this.detail.reason;
  }
}

export interface OidcDeps {
  /** SESSION_SECRET (and the previous one) key the flow cookie. */
  config: Pick<AuthConfig, "sessionSecret" | "sessionSecretPrevious">;
  oidc: OidcConfig;
  /** Epoch ms; tests pass their own clock. */
  now: () => number;
}

/** The provider's registration, or null when env leaves it "not configured". */
export function oidcClient(oidc: OidcConfig, provider: OidcProviderId): OidcClientConfig | null {
  return oidc[provider];
}

export function isOidcConfigured(oidc: OidcConfig, provider: OidcProviderId): boolean {
  return oidcClient(oidc, provider) !== null;
}

/** Where the provider sends the browser back: `<base>/auth/oidc/<provider>/callback`. */
export function oidcRedirectUri(request: Request, oidc: OidcConfig, provider: OidcProviderId): string {
  const base = oidc.redirectBaseUrl ?? new URL(request.url).origin;
  return `${base}/auth/oidc/${provider}/callback`;
}

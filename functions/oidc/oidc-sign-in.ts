// The work-account and Google sign-in as the /login page uses it: start a flow
// (a new login clears whatever session the browser had), then finish it at the
// redirect URI (ID token -> email -> `startLogin`). Every failure is audited and
// comes back as a code of functions/auth/sign-in-messages.ts; the routes only shape responses.
import { signInAuditStatement } from "../audit/audit.db";
import { iso, type AuthDeps } from "../auth/deps";
import { OIDC_PROVIDERS, OidcError, type OidcDeps, type OidcMode, type OidcProviderId } from "./oidc";
import { completeOidc, startOidc } from "./oidc-flow";
import type { SignInFailure } from "../auth/sign-in-messages";
import { SIGN_IN_LIMITS, authLimited } from "../auth/limits";
import { logout, NO_ACCOUNT, normaliseEmail, startLogin } from "../auth/sign-in";

export function isOidcProvider(value: unknown): value is OidcProviderId {
  return typeof value === "string" && (OIDC_PROVIDERS as readonly string[]).includes(value);
}

/** Where a signed-in-by-provider person goes next: choosing the phone for the one-time code. */
export const AFTER_IDENTIFIED = "/authenticate";

export type Begun = { ok: true; url: string; setCookies: string[] } | { ok: false; code: SignInFailure; status: number; setCookies: string[] };

/** Starting a new login clears every session field (SPEC section 4), then opens the provider. */
export async function beginOidcSignIn(request: Request, deps: AuthDeps, oidc: OidcDeps, provider: OidcProviderId, mode: OidcMode): Promise<Begun> {
  const { setCookie: cleared } = await logout(request, deps);
  try {
    const started = await startOidc(request, oidc, provider, { mode });
    return { ok: true, url: started.url, setCookies: [cleared, started.setCookie] };
  } catch (error) {
    if (!(error instanceof OidcError)) throw error;
    await auditFailure(deps, provider, error.code, error.detail.providerError);
    const status = error.code === "not_configured" ? 404 : error.code === "unreachable" ? 502 : 500;
    return { ok: false, code: error.code, status, setCookies: [cleared] };
  }
}

export type Finished = {
  /** null: the flow cookie was gone, so nobody knows how the flow was opened. */
  mode: OidcMode | null;
  outcome: { ok: true; next: typeof AFTER_IDENTIFIED } | { ok: false; code: SignInFailure };
  setCookies: string[];
  /** Set when the account or the address is over its sign-in limit: the seconds to wait (a 429). */
  retryAfterSeconds?: number;
};

/** The redirect URI: verify the provider's answer and start the portal login for its email. */
export async function finishOidcSignIn(request: Request, deps: AuthDeps, oidc: OidcDeps, provider: OidcProviderId): Promise<Finished> {
  const result = await completeOidc(request, oidc, provider);
  if (!result.ok) {
    const { error } = result;
    await auditFailure(deps, provider, error.code, error.detail.providerError ?? error.reason);
    return { mode: result.mode, outcome: { ok: false, code: error.code }, setCookies: [result.setCookie] };
  }
  // The provider named the account: its look-up is limited like a typed email's (per account and per address).
  const wait = await authLimited(deps.db, request, SIGN_IN_LIMITS, `email:${normaliseEmail(result.email)}`, deps.now());
  if (wait !== null) return { mode: result.mode, outcome: { ok: false, code: "too_many" }, setCookies: [result.setCookie], retryAfterSeconds: wait };
  const login = await startLogin(request, deps, { email: result.email, channel: provider });
  if (!login.ok) {
    // startLogin audited the unknown email itself.
    return { mode: result.mode, outcome: { ok: false, code: login.message === NO_ACCOUNT ? "no_account" : "provider_error" }, setCookies: [result.setCookie] };
  }
  return { mode: result.mode, outcome: { ok: true, next: AFTER_IDENTIFIED }, setCookies: [result.setCookie, login.setCookie, login.returnCookie] };
}

async function auditFailure(deps: AuthDeps, provider: OidcProviderId, code: SignInFailure, detail: string | undefined): Promise<void> {
  await signInAuditStatement(
    { userId: null, businessId: null },
    deps.db,
    deps.meta,
    { action: "auth.sign_in.failed", entity: "session", after: { channel: provider, code, ...(detail ? { detail: detail.slice(0, 200) } : {}) } },
    iso(deps.now()),
  ).run();
}

// The browser's side of a sign-in: the authorization URL it opens and the redirect URI's answer it comes back with.
//
// Where the flow's secrets live: in one short-lived cookie (`__Host-pp_oidc`,
// `pp_oidc` on http://localhost), HttpOnly, SameSite=Lax, 10 minutes, holding a
// JWE (jose, dir + A256GCM, key derived from SESSION_SECRET) with the provider,
// state, nonce, PKCE verifier and redirect URI. The browser cannot read or forge
// it; only the browser that started the flow sends it back (Lax: the provider's
// redirect is a top-level GET, so it arrives with it, popup or not). No D1 row is
// needed, and the callback clears the cookie whatever the outcome. A second start
// in the same browser replaces the first one (SPEC: one sign-in at a time).
import { EncryptJWT, errors, jwtDecrypt } from "jose";
import * as v from "valibot";
import { clearCookie, readCookie, serializeCookie } from "../plumbing/cookies";
import { OIDC_PROVIDERS, OidcError, oidcClient, oidcRedirectUri, type OidcDeps, type OidcMode, type OidcProviderId } from "./oidc";
import { discover, emailOf, exchangeCode, verifyIdToken } from "./oidc-issuer";

/** The flow cookie lives this long: enough to pick an account and consent. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;

const SCOPES: Record<OidcProviderId, string> = {
  // Basic profile read (SPEC section 4) and the account-selection prompt.
  microsoft: "openid profile email User.Read",
  google: "openid email profile",
};

// --- the flow cookie ------------------------------------------------------

const FlowClaims = v.object({
  provider: v.picklist(OIDC_PROVIDERS),
  state: v.string(),
  nonce: v.string(),
  verifier: v.string(),
  redirectUri: v.string(),
  /** How the flow was opened, so the callback knows whether to answer a popup's opener or redirect. */
  mode: v.optional(v.picklist(["popup", "redirect"]), "redirect"),
});
type Flow = v.InferOutput<typeof FlowClaims>;

const encoder = new TextEncoder();

async function flowKey(secret: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(`pp-oidc-flow:${secret}`)));
}

const FLOW_COOKIE = "pp_oidc";

/** The Set-Cookie that removes the flow cookie. */
export function clearOidcCookie(request: Request): string {
  return clearCookie(request, FLOW_COOKIE);
}

async function readFlow(request: Request, deps: OidcDeps): Promise<Flow | null> {
  const token = readCookie(request, FLOW_COOKIE);
  if (!token) return null;
  const secrets = [deps.config.sessionSecret, deps.config.sessionSecretPrevious].filter((s): s is string => Boolean(s));
  for (const secret of secrets) {
    try {
      const { payload } = await jwtDecrypt(token, await flowKey(secret), {
        currentDate: new Date(deps.now()),
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: ["A256GCM"],
      });
      const parsed = v.safeParse(FlowClaims, payload);
      return parsed.success ? parsed.output : null;
    } catch (error) {
      if (error instanceof errors.JWTExpired) return null;
    }
  }
  return null;
}

function randomUrlSafe(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(verifier))));
}

// --- start ----------------------------------------------------------------

export interface StartOptions {
  /** Popup (the callback hands the result to the opener) or full-page redirect (the default). */
  mode?: OidcMode;
  /** prompt=none: try without showing the provider's pages (fails with interaction_required). */
  silent?: boolean;
}

/**
 * Begins a sign-in: the authorization URL to open (popup or full page) and the
 * flow cookie to set on the same response. Throws OidcError (not_configured,
 * unreachable, discovery_invalid).
 */
export async function startOidc(
  request: Request,
  deps: OidcDeps,
  provider: OidcProviderId,
  options: StartOptions = {},
): Promise<{ url: string; setCookie: string }> {
  const client = oidcClient(deps.oidc, provider);
  if (!client) throw new OidcError("not_configured");
  const now = deps.now();
  const metadata = await discover(provider, client, now);
  const flow: Flow = {
    provider,
    state: randomUrlSafe(32),
    nonce: randomUrlSafe(32),
    // RFC 7636: 32 random octets, base64url: a 43-character verifier.
    verifier: randomUrlSafe(32),
    redirectUri: oidcRedirectUri(request, deps.oidc, provider),
    mode: options.mode ?? "redirect",
  };
  const url = new URL(metadata.authorization_endpoint);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: flow.redirectUri,
    scope: SCOPES[provider],
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await s256(flow.verifier),
    code_challenge_method: "S256",
  };
  if (options.silent) params.prompt = "none";
  else if (provider === "microsoft") params.prompt = "select_account";
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const token = await new EncryptJWT({ ...flow })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + OIDC_FLOW_TTL_MS) / 1000))
    .encrypt(await flowKey(deps.config.sessionSecret));
  return { url: url.toString(), setCookie: serializeCookie(request, FLOW_COOKIE, token, OIDC_FLOW_TTL_MS / 1000) };
}

// --- callback -------------------------------------------------------------

const printable = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max), v.regex(/^[\x20-\x7e]+$/));

const CallbackSuccess = v.object({
  code: printable(4096),
  state: printable(512),
  iss: v.optional(v.pipe(v.string(), v.maxLength(1000), v.url())),
});
const CallbackError = v.object({
  error: v.pipe(printable(100), v.regex(/^[\w.-]+$/)),
  error_description: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  state: v.optional(printable(512)),
  iss: v.optional(v.pipe(v.string(), v.maxLength(1000), v.url())),
});
/** Parameters a provider may add that this flow ignores (Microsoft: session_state, client_info; Google: scope, authuser, hd, prompt). */
const IGNORED = new Set(["error_uri", "session_state", "client_info", "scope", "authuser", "hd", "prompt"]);

type Callback = { kind: "code"; code: string; state: string; iss?: string } | { kind: "error"; error: string; state?: string; iss?: string };

/** Validates the redirect URI's query: exactly one authorization response, no repeated parameter. */
export function parseCallback(url: URL): Callback | null {
  const input: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    if (values.length !== 1) return null;
    if (!IGNORED.has(key)) input[key] = values[0]!;
  }
  if ("error" in input) {
    const parsed = v.safeParse(CallbackError, input);
    return parsed.success ? { kind: "error", ...parsed.output } : null;
  }
  const parsed = v.safeParse(CallbackSuccess, input);
  return parsed.success ? { kind: "code", ...parsed.output } : null;
}

const INTERACTION_ERRORS = new Set(["interaction_required", "login_required", "consent_required", "account_selection_required"]);

export type OidcResult =
  | { ok: true; email: string; channel: OidcProviderId; mode: OidcMode; setCookie: string }
  /** `mode` is null when the flow cookie was missing or unreadable. */
  | { ok: false; error: OidcError; mode: OidcMode | null; setCookie: string };

/**
 * Handles the redirect URI: validates the query, checks state against the flow
 * cookie, exchanges the code (verifier and client secret), verifies the ID token
 * and returns the account's email for `startLogin`. The flow cookie is cleared
 * whatever the outcome.
 */
export async function completeOidc(request: Request, deps: OidcDeps, provider: OidcProviderId): Promise<OidcResult> {
  const setCookie = clearOidcCookie(request);
  const flow = await readFlow(request, deps);
  const mode = flow?.mode ?? null;
  try {
    const email = await complete(request, deps, provider, flow);
    return { ok: true, email, channel: provider, mode: mode ?? "redirect", setCookie };
  } catch (error) {
    if (error instanceof OidcError) return { ok: false, error, mode, setCookie };
    throw error;
  }
}

async function complete(request: Request, deps: OidcDeps, provider: OidcProviderId, flow: Flow | null): Promise<string> {
  const client = oidcClient(deps.oidc, provider);
  if (!client) throw new OidcError("not_configured");
  const callback = parseCallback(new URL(request.url));
  if (!callback) throw new OidcError("invalid_callback");
  if (!flow || flow.provider !== provider) throw new OidcError("state_mismatch");
  if (callback.kind === "error") {
    if (callback.state !== undefined && callback.state !== flow.state) throw new OidcError("state_mismatch");
    if (callback.error === "access_denied") throw new OidcError("cancelled", { providerError: callback.error });
    if (INTERACTION_ERRORS.has(callback.error)) throw new OidcError("interaction_required", { providerError: callback.error });
    // MSAL's code for an account switch inside Entra's native broker: SPEC section 8's own message.
    if (callback.error === "user_switch") throw new OidcError("user_switch", { providerError: callback.error });
    throw new OidcError("provider_error", { providerError: callback.error });
  }
  if (callback.state !== flow.state) throw new OidcError("state_mismatch");
  const metadata = await discover(provider, client, deps.now());
  // RFC 9207: when the provider names itself, it must be the one the flow started with.
  if (callback.iss !== undefined && !metadata.issuer.includes("{tenantid}") && callback.iss !== metadata.issuer) throw new OidcError("invalid_callback");
  const idToken = await exchangeCode(metadata, client, { code: callback.code, verifier: flow.verifier, redirectUri: flow.redirectUri });
  const claims = await verifyIdToken(idToken, { provider, metadata, clientId: client.clientId, nonce: flow.nonce, now: deps.now() });
  return emailOf(provider, claims);
}

// OpenID Connect sign-in (DESIGN section 4): the authorization-code flow with
// PKCE S256, `state` and `nonce`, for the work account (Microsoft Entra ID,
// common authority) and Google. The pages call `startOidc` (the URL the popup or
// the full-page redirect opens) and `completeOidc` (the redirect URI's loader);
// a successful completion gives the email that `startLogin` (sign-in.ts) takes.
//
// Where the flow's secrets live: in one short-lived cookie (`__Host-pp_oidc`,
// `pp_oidc` on http://localhost), HttpOnly, SameSite=Lax, 10 minutes, holding a
// JWE (jose, dir + A256GCM, key derived from SESSION_SECRET) with the provider,
// state, nonce, PKCE verifier and redirect URI. The browser cannot read or forge
// it; only the browser that started the flow sends it back (Lax: the provider's
// redirect is a top-level GET, so it arrives with it, popup or not). No D1 row is
// needed, and the callback clears the cookie whatever the outcome. A second start
// in the same browser replaces the first one (SPEC: one sign-in at a time).
//
// Issuer: discovery from `<issuer>/.well-known/openid-configuration`, cached an
// hour. Google's `iss` must equal the configured issuer. Microsoft's common
// authority publishes `https://login.microsoftonline.com/{tenantid}/v2.0`: the
// ID token's `iss` must equal that template with `{tenantid}` replaced by the
// token's own `tid` claim (a GUID), as Microsoft's validation rules require;
// personal Microsoft accounts (the consumers tenant) are refused: work accounts only.
import { EncryptJWT, createRemoteJWKSet, errors, jwtDecrypt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import * as v from "valibot";
import { clearCookie, readCookie, serializeCookie } from "../plumbing/cookies";
import type { AuthConfig, OidcClientConfig, OidcConfig } from "../env";
import { SIGN_IN_FAILURES, type SignInFailure } from "./sign-in-messages";

export const OIDC_PROVIDERS = ["microsoft", "google"] as const;
export type OidcProviderId = (typeof OIDC_PROVIDERS)[number];

/** The flow cookie lives this long: enough to pick an account and consent. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;
const FETCH_TIMEOUT_MS = 10_000;
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Clock skew allowed on the ID token's exp / iat / nbf. */
const CLOCK_TOLERANCE_S = 30;
/** Microsoft's tenant of personal accounts; the work-account button refuses it. */
const MSA_CONSUMER_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SCOPES: Record<OidcProviderId, string> = {
  // Basic profile read (SPEC section 4) and the account-selection prompt.
  microsoft: "openid profile email User.Read",
  google: "openid email profile",
};

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

// --- discovery and keys ---------------------------------------------------

const Discovery = v.looseObject({
  issuer: v.pipe(v.string(), v.url()),
  authorization_endpoint: v.pipe(v.string(), v.url()),
  token_endpoint: v.pipe(v.string(), v.url()),
  jwks_uri: v.pipe(v.string(), v.url()),
  code_challenge_methods_supported: v.optional(v.array(v.string())),
});
export type OidcMetadata = v.InferOutput<typeof Discovery>;

const discoveryCache = new Map<string, { metadata: OidcMetadata; expires: number }>();
const jwksCache = new Map<string, JWTVerifyGetKey>();

/** Forgets cached discovery documents and key sets (tests). */
export function clearOidcCaches(): void {
  discoveryCache.clear();
  jwksCache.clear();
}

async function fetchOrUnreachable(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (cause) {
    throw new OidcError("unreachable", { cause });
  }
}

/** Does the published issuer match the configured one (Microsoft: a `{tenantid}` segment may stand for the configured tenant)? */
function discoveryIssuerFits(provider: OidcProviderId, configured: string, published: string): boolean {
  if (published.replace(/\/+$/, "") === configured) return true;
  if (provider !== "microsoft" || !published.includes("{tenantid}")) return false;
  const a = published.replace(/\/+$/, "").split("/");
  const b = configured.split("/");
  return a.length === b.length && a.every((segment, i) => segment === b[i] || (segment === "{tenantid}" && /^(common|organizations)$/.test(b[i] ?? "")));
}

export async function discover(provider: OidcProviderId, client: OidcClientConfig, now: number = Date.now()): Promise<OidcMetadata> {
  const cached = discoveryCache.get(client.issuer);
  if (cached && cached.expires > now) return cached.metadata;
  const response = await fetchOrUnreachable(`${client.issuer}/.well-known/openid-configuration`, { headers: { Accept: "application/json" } });
  if (response.status >= 500) throw new OidcError("unreachable", { providerError: `discovery answered ${response.status}` });
  if (!response.ok) throw new OidcError("discovery_invalid", { providerError: `discovery answered ${response.status}` });
  const parsed = v.safeParse(Discovery, await response.json().catch(() => null));
  if (!parsed.success) throw new OidcError("discovery_invalid");
  const metadata = parsed.output;
  if (!discoveryIssuerFits(provider, client.issuer, metadata.issuer)) throw new OidcError("discovery_invalid", { providerError: "issuer mismatch" });
  if (metadata.code_challenge_methods_supported && !metadata.code_challenge_methods_supported.includes("S256")) {
    throw new OidcError("discovery_invalid", { providerError: "no S256" });
  }
  discoveryCache.set(client.issuer, { metadata, expires: now + DISCOVERY_TTL_MS });
  return metadata;
}

function keySet(jwksUri: string): JWTVerifyGetKey {
  let set = jwksCache.get(jwksUri);
  if (!set) {
    set = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: FETCH_TIMEOUT_MS });
    jwksCache.set(jwksUri, set);
  }
  return set;
}

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

export type OidcMode = "popup" | "redirect";

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

const TokenResponse = v.looseObject({ id_token: v.pipe(v.string(), v.minLength(1)), token_type: v.optional(v.string()) });
const TokenError = v.looseObject({ error: v.string() });

/** The token endpoint: the code, the PKCE verifier and the client secret (client_secret_post) for an ID token. */
export async function exchangeCode(
  metadata: OidcMetadata,
  client: OidcClientConfig,
  input: { code: string; verifier: string; redirectUri: string },
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.verifier,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  const response = await fetchOrUnreachable(metadata.token_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body,
  });
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = v.safeParse(TokenError, json);
    throw new OidcError("token_exchange_failed", { providerError: error.success ? error.output.error : `HTTP ${response.status}` });
  }
  const parsed = v.safeParse(TokenResponse, json);
  if (!parsed.success) throw new OidcError("token_exchange_failed", { providerError: "no id_token" });
  return parsed.output.id_token;
}

export interface IdTokenExpectations {
  provider: OidcProviderId;
  metadata: OidcMetadata;
  clientId: string;
  nonce: string;
  /** Epoch ms. */
  now: number;
}

/** Verifies signature (issuer's JWKS), issuer, audience, expiry and nonce; throws OidcError("invalid_id_token", reason). */
export async function verifyIdToken(idToken: string, expected: IdTokenExpectations): Promise<JWTPayload> {
  const templated = expected.metadata.issuer.includes("{tenantid}");
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySet(expected.metadata.jwks_uri), {
      algorithms: ["RS256"],
      audience: expected.clientId,
      ...(templated ? {} : { issuer: expected.metadata.issuer }),
      currentDate: new Date(expected.now),
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["iss", "sub", "aud", "exp", "iat"],
    }));
  } catch (error) {
    throw idTokenError(error);
  }
  if (templated) {
    const tid = payload.tid;
    if (typeof tid !== "string" || !GUID.test(tid)) throw new OidcError("invalid_id_token", { reason: "tenant" });
    if (payload.iss !== expected.metadata.issuer.replace("{tenantid}", tid)) throw new OidcError("invalid_id_token", { reason: "issuer" });
    if (tid.toLowerCase() === MSA_CONSUMER_TENANT) throw new OidcError("invalid_id_token", { reason: "tenant" });
  }
  // Several audiences: the authorized party must be this client (OIDC Core 3.1.3.7).
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId)
    throw new OidcError("invalid_id_token", { reason: "audience" });
  if (typeof payload.nonce !== "string" || payload.nonce !== expected.nonce) throw new OidcError("invalid_id_token", { reason: "nonce" });
  return payload;
}

function idTokenError(error: unknown): OidcError {
  const fail = (reason: IdTokenProblem) => new OidcError("invalid_id_token", { reason, cause: error });
  if (error instanceof errors.JWTExpired) return fail("expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return fail("audience");
    if (error.claim === "iss") return fail("issuer");
    if (error.claim === "nbf" || error.claim === "iat") return fail("not_yet_valid");
    return fail("malformed");
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JOSEAlgNotAllowed)
    return fail("signature");
  if (error instanceof errors.JWKSTimeout) return new OidcError("unreachable", { cause: error });
  if (error instanceof errors.JOSEError) return fail("malformed");
  // createRemoteJWKSet lets fetch's own failure through.
  if (error instanceof TypeError) return new OidcError("unreachable", { cause: error });
  return fail("malformed");
}

const Email = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());

/** The account username: Microsoft's preferred_username, Google's verified email. */
export function emailOf(provider: OidcProviderId, claims: JWTPayload): string {
  const candidate = provider === "microsoft" ? claims.preferred_username : claims.email;
  if (provider === "google" && claims.email_verified !== true && claims.email_verified !== "true") throw new OidcError("invalid_id_token", { reason: "email" });
  const parsed = v.safeParse(Email, candidate);
  if (!parsed.success) throw new OidcError("invalid_id_token", { reason: "email" });
  return parsed.output;
}

// What an OpenID provider publishes and answers: its discovery document and key set, the token endpoint, the ID token.
//
// Issuer: discovery from `<issuer>/.well-known/openid-configuration`, cached an
// hour. Google's `iss` must equal the configured issuer. Microsoft's common
// authority publishes `https://login.microsoftonline.com/{tenantid}/v2.0`: the
// ID token's `iss` must equal that template with `{tenantid}` replaced by the
// token's own `tid` claim (a GUID), as Microsoft's validation rules require;
// personal Microsoft accounts (the consumers tenant) are refused: work accounts only.
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import * as v from "valibot";
import type { OidcClientConfig } from "../env";
import { OidcError, type IdTokenProblem, type OidcProviderId } from "./oidc";

const FETCH_TIMEOUT_MS = 10_000;
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Clock skew allowed on the ID token's exp / iat / nbf. */
const CLOCK_TOLERANCE_S = 30;
/** Microsoft's tenant of personal accounts; the work-account button refuses it. */
const MSA_CONSUMER_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

// --- the token endpoint and the ID token ----------------------------------

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

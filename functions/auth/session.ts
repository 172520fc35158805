// The sign-in session: one jose-signed cookie (HS256 with a `kid`) carrying the
// SPEC section 3 session fields the server needs, plus the id of its row in the
// `sessions` table, which is what logout and "sign out everywhere" revoke.
//
// Keys: the cookie is signed with SESSION_SECRET and verified with it or with
// SESSION_SECRET_PREVIOUS (rotation). The `kid` is a hash prefix of the secret,
// so rotating is: move the old secret to SESSION_SECRET_PREVIOUS, set a new one.
// A token with any other kid is refused.
//
// The return URL also lives in a cookie of its own (`returnUrlCookie`), signed
// the same way, because the session cookie dies with the session (see RETURN_COOKIE).
import { SignJWT, decodeProtectedHeader, errors, jwtVerify } from "jose";
import * as v from "valibot";
import { clearCookie, cookieName, readCookie, serializeCookie } from "../plumbing/cookies";
import type { AuthConfig } from "../env";

export const CHANNELS = ["microsoft", "google", "userUniqueEmail"] as const;
export type Channel = (typeof CHANNELS)[number];
export const STAGES = ["identified", "verified", "business_chosen"] as const;
export type Stage = (typeof STAGES)[number];
export const RETURN_URLS = ["/login", "/login-option"] as const;
export type ReturnUrl = (typeof RETURN_URLS)[number];

/** From the email to a typed code: picking a phone and typing the code fit easily. */
export const IDENTIFIED_TTL_MS = 15 * 60_000;
/** A session lasts a working day from the moment sign-in began, whatever happens in between (decision 026). */
export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** A session ends after this long without anything the person did (decision 026). */
export const SESSION_IDLE_MS = 30 * 60_000;
/** The stored activity time is refreshed at most this often: the idle limit holds to within a minute. */
export const ACTIVITY_PRECISION_MS = 60_000;
/**
 * A verified session's cookie outlives its token by this much, so a request after the 12 hours still carries an
 * authentic, expired token and the sign-in page can say why the person was signed out (an absent cookie tells
 * nothing). The guard refuses the expired token all the same and clears the cookie. A login still in progress
 * (identified) keeps a cookie exactly as long as its token: its end is not the 12-hour limit.
 */
export const EXPIRED_COOKIE_GRACE_MS = 12 * 60 * 60_000;

/** Why a session that was signed in no longer is, for the sign-in page's message. */
export const ENDED_REASONS = ["idle", "absolute"] as const;
export type EndedReason = (typeof ENDED_REASONS)[number];
export const ENDED_MESSAGES: Record<EndedReason, string> = {
  idle: "You were signed out after 30 minutes without activity.",
  absolute: "You were signed out: a session lasts 12 hours. Sign in again.",
};

/** The message for the sign-in page's `?ended=` parameter, or null for anything else. */
export function endedMessage(value: string | null): string | null {
  return value !== null && (ENDED_REASONS as readonly string[]).includes(value) ? ENDED_MESSAGES[value as EndedReason] : null;
}

/** SPEC section 2: work account and Google return to /login, unique email to /login-option. */
export function returnUrlFor(channel: Channel): ReturnUrl {
  return channel === "userUniqueEmail" ? "/login-option" : "/login";
}

const SessionClaims = v.object({
  /** The `sessions` row: revocation and the server-side stage. */
  sid: v.pipe(v.string(), v.minLength(1)),
  /** The user id. */
  sub: v.pipe(v.string(), v.minLength(1)),
  email: v.string(),
  authenticationChannel: v.picklist(CHANNELS),
  stage: v.picklist(STAGES),
  /** Epoch ms; the session is invalid from this instant on. */
  tokenExpiration: v.number(),
  returnUrl: v.picklist(RETURN_URLS),
  /** Set when the one-time code was verified (the id of the code it used). */
  otpToken: v.nullable(v.string()),
  selectedPhoneNumber: v.nullable(v.string()),
  linkedNumbers: v.array(v.string()),
  activeBusiness: v.nullable(v.string()),
});
export type SessionData = v.InferOutput<typeof SessionClaims>;

/** `linkedNumbers` with duplicates removed, first occurrence kept (SPEC section 3). */
export function dedupe(numbers: readonly string[]): string[] {
  return [...new Set(numbers)];
}

/** SPEC section 4: valid only with an otp token and an email, before the token expiration. */
export function isValidSession(session: Pick<SessionData, "otpToken" | "email" | "tokenExpiration">, now: number): boolean {
  return Boolean(session.otpToken) && Boolean(session.email) && session.tokenExpiration > now;
}

const SESSION_COOKIE = "pp_session";

/**
 * SPEC section 2's stored return URL, kept apart from the session: the session
 * cookie's Max-Age is the token expiration, so the browser drops it the moment
 * the session ends, and with it any return URL inside. This small signed cookie
 * outlives it, so an expired, revoked or cleared session still sends a
 * unique-email user to /login-option. It holds nothing but one of RETURN_URLS.
 */
const RETURN_COOKIE = "pp_return";
/** Weeks beyond the longest session: someone back after a holiday still lands on their channel's page. */
export const RETURN_URL_TTL_MS = 30 * 24 * 60 * 60_000;

const encoder = new TextEncoder();

/** The key id of a secret: the first 16 hex digits of SHA-256("pp-session-kid:" + secret). */
export async function sessionKeyId(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(`pp-session-kid:${secret}`)));
  return [...digest.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The session and the return-URL cookie are signed with keys of their own, so neither token passes for the other. */
type Purpose = "session" | "return" | "resume";

function signingKey(secret: string, purpose: Purpose): Uint8Array {
  return encoder.encode(`${purpose}:${secret}`);
}

/** A Set-Cookie with a new token for `session` (a new token at every step). */
export async function sessionCookie(request: Request, config: AuthConfig, session: SessionData, now: number): Promise<string> {
  const token = await new SignJWT({ ...session })
    .setProtectedHeader({ alg: "HS256", kid: await sessionKeyId(config.sessionSecret), typ: "JWT" })
    .setIssuedAt(Math.floor(now / 1000))
    .setJti(crypto.randomUUID())
    .setExpirationTime(Math.ceil(session.tokenExpiration / 1000))
    .sign(signingKey(config.sessionSecret, "session"));
  const grace = session.stage === "identified" ? 0 : EXPIRED_COOKIE_GRACE_MS;
  return serializeCookie(request, SESSION_COOKIE, token, Math.ceil((session.tokenExpiration + grace - now) / 1000));
}

/**
 * Whether an answer belongs to a signed-in session: the request carries the session cookie (whatever it holds), or the
 * answer sets or clears it. Such answers are `private, no-store` (functions/worker.ts): a shared computer's browser must
 * not keep money pages, `.data` answers or exports in its cache.
 */
export function answersSession(request: Request, response: Response): boolean {
  if (readCookie(request, SESSION_COOKIE) !== undefined) return true;
  // Several Set-Cookie values read as one, joined by ", " (the Workers types lack getSetCookie).
  const name = `${cookieName(request, SESSION_COOKIE)}=`;
  const set = response.headers.get("Set-Cookie") ?? "";
  return set.startsWith(name) || set.includes(`, ${name}`);
}

/** The Set-Cookie that removes the session cookie. */
export function clearSessionCookie(request: Request): string {
  return clearCookie(request, SESSION_COOKIE);
}

export type CookieRead =
  | { kind: "absent" }
  /** Authentic, unexpired, well-formed. Not yet checked against the sessions table. */
  | { kind: "authentic"; session: SessionData }
  /** Authentic but past its expiration: the return URL it carried can still be trusted, and whether it had been verified. */
  | { kind: "expired"; returnUrl: ReturnUrl; verified: boolean; business: string | null }
  /** Forged, altered, signed with an unknown key, or not a session at all. */
  | { kind: "refused"; reason: "malformed" | "unknown-kid" | "bad-signature" };

async function keyFor(config: AuthConfig, kid: unknown, purpose: Purpose): Promise<Uint8Array | null> {
  if (typeof kid !== "string") return null;
  if (kid === (await sessionKeyId(config.sessionSecret))) return signingKey(config.sessionSecret, purpose);
  if (config.sessionSecretPrevious && kid === (await sessionKeyId(config.sessionSecretPrevious))) return signingKey(config.sessionSecretPrevious, purpose);
  return null;
}

/** Reads and verifies the session cookie of `request` at `now` (epoch ms). */
export async function readSessionCookie(request: Request, config: AuthConfig, now: number): Promise<CookieRead> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token) return { kind: "absent" };
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return { kind: "refused", reason: "malformed" };
  }
  const key = await keyFor(config, kid, "session");
  if (!key) return { kind: "refused", reason: "unknown-kid" };
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now) });
    const parsed = v.safeParse(SessionClaims, payload);
    if (!parsed.success) return { kind: "refused", reason: "malformed" };
    if (parsed.output.tokenExpiration <= now) {
      return { kind: "expired", returnUrl: parsed.output.returnUrl, verified: parsed.output.stage !== "identified", business: parsed.output.activeBusiness };
    }
    return { kind: "authentic", session: parsed.output };
  } catch (error) {
    // jose checks the signature before the claims, so an expired token's payload is authentic.
    if (error instanceof errors.JWTExpired) {
      const returnUrl = v.safeParse(v.picklist(RETURN_URLS), error.payload.returnUrl);
      const business = typeof error.payload.activeBusiness === "string" ? error.payload.activeBusiness : null;
      return { kind: "expired", returnUrl: returnUrl.success ? returnUrl.output : "/login", verified: error.payload.stage !== "identified", business };
    }
    return { kind: "refused", reason: error instanceof errors.JWSSignatureVerificationFailed ? "bad-signature" : "malformed" };
  }
}

/** A Set-Cookie storing the return URL of the channel a login started with; written by `startLogin`. */
export async function returnUrlCookie(request: Request, config: AuthConfig, returnUrl: ReturnUrl, now: number): Promise<string> {
  const token = await new SignJWT({ returnUrl })
    .setProtectedHeader({ alg: "HS256", kid: await sessionKeyId(config.sessionSecret), typ: "JWT" })
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + RETURN_URL_TTL_MS) / 1000))
    .sign(signingKey(config.sessionSecret, "return"));
  return serializeCookie(request, RETURN_COOKIE, token, RETURN_URL_TTL_MS / 1000);
}

/** The stored return URL, or null when there is none, or it is forged, expired or not one of RETURN_URLS. */
export async function readReturnUrl(request: Request, config: AuthConfig, now: number): Promise<ReturnUrl | null> {
  const token = readCookie(request, RETURN_COOKIE);
  if (!token) return null;
  try {
    const key = await keyFor(config, decodeProtectedHeader(token).kid, "return");
    if (!key) return null;
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now) });
    const parsed = v.safeParse(v.picklist(RETURN_URLS), payload.returnUrl);
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/**
 * Where a person whose session ended was (decision 026): the path and query of the page, and the business it
 * belongs to, so that signing in again to that business lands there instead of on `/`. Short-lived: the person
 * signs in again now or starts afresh.
 */
const RESUME_COOKIE = "pp_resume";
export const RESUME_TTL_MS = 60 * 60_000;
const RESUME_PATH_MAX = 2000;

/** The sign-in pages themselves are never a place to come back to. */
const SIGN_IN_PATHS = /^\/(?:login|login-option|authenticate|select-business|logout|auth)(?:[/?#.]|$)/i;

/**
 * `value` when it is a path of this portal a person may be sent back to: one leading "/" and not "//", no
 * backslash, no control character, no scheme or host after parsing, not a sign-in page; else null. Anything
 * that could take the browser to another origin (open redirect) is refused here.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > RESUME_PATH_MAX) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  const base = "https://portal.invalid";
  let parsed: URL;
  try {
    parsed = new URL(value, base);
  } catch {
    return null;
  }
  if (parsed.origin !== base || parsed.hash) return null;
  const path = `${parsed.pathname}${parsed.search}`;
  if (path !== value || SIGN_IN_PATHS.test(path)) return null;
  return path;
}

/** A Set-Cookie remembering `path` (already through safeReturnPath) in `businessId` for RESUME_TTL_MS. */
export async function resumeCookie(request: Request, config: AuthConfig, path: string, businessId: string | null, now: number): Promise<string> {
  const token = await new SignJWT({ path, business: businessId })
    .setProtectedHeader({ alg: "HS256", kid: await sessionKeyId(config.sessionSecret), typ: "JWT" })
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + RESUME_TTL_MS) / 1000))
    .sign(signingKey(config.sessionSecret, "resume"));
  return serializeCookie(request, RESUME_COOKIE, token, RESUME_TTL_MS / 1000);
}

/** The remembered place, or null when there is none or it is forged, expired or not a safe path. */
export async function readResume(request: Request, config: AuthConfig, now: number): Promise<{ path: string; business: string | null } | null> {
  const token = readCookie(request, RESUME_COOKIE);
  if (!token) return null;
  try {
    const key = await keyFor(config, decodeProtectedHeader(token).kid, "resume");
    if (!key) return null;
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now) });
    const path = safeReturnPath(payload.path);
    return path ? { path, business: typeof payload.business === "string" ? payload.business : null } : null;
  } catch {
    return null;
  }
}

/** The Set-Cookie that forgets the remembered place (used once). */
export function clearResumeCookie(request: Request): string {
  return clearCookie(request, RESUME_COOKIE);
}

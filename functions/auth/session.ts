// The sign-in session: one jose-signed cookie (HS256 with a `kid`) carrying the
// SPEC section 3 session fields the server needs, plus the id of its row in the
// `sessions` table, which is what logout and "sign out everywhere" revoke.
//
// Keys: the cookie is signed with SESSION_SECRET and verified with it or with
// SESSION_SECRET_PREVIOUS (rotation). The `kid` is a hash prefix of the secret,
// so rotating is: move the old secret to SESSION_SECRET_PREVIOUS, set a new one.
// A token with any other kid is refused.
import { SignJWT, decodeProtectedHeader, errors, jwtVerify } from "jose";
import * as v from "valibot";
import type { AuthConfig } from "../env";

export const CHANNELS = ["microsoft", "google", "userUniqueEmail"] as const;
export type Channel = (typeof CHANNELS)[number];
export const STAGES = ["identified", "verified", "business_chosen"] as const;
export type Stage = (typeof STAGES)[number];
export const RETURN_URLS = ["/login", "/login-option"] as const;
export type ReturnUrl = (typeof RETURN_URLS)[number];

/** From the email to a typed code: picking a phone and typing the code fit easily. */
export const IDENTIFIED_TTL_MS = 15 * 60_000;
/** A verified session lasts a working day; then the person signs in again. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;

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

/** `__Host-` cookies need https; on http://localhost the plain name is used. */
export function sessionCookieName(request: Request): string {
  return new URL(request.url).protocol === "https:" ? "__Host-pp_session" : "pp_session";
}

function cookieAttributes(request: Request, maxAge: number): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return rest.join("=");
  }
  return undefined;
}

const encoder = new TextEncoder();

/** The key id of a secret: the first 16 hex digits of SHA-256("pp-session-kid:" + secret). */
export async function sessionKeyId(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(`pp-session-kid:${secret}`)));
  return [...digest.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function signingKey(secret: string): Uint8Array {
  return encoder.encode(`session:${secret}`);
}

/** A Set-Cookie with a new token for `session` (a new token at every step). */
export async function sessionCookie(request: Request, config: AuthConfig, session: SessionData, now: number): Promise<string> {
  const token = await new SignJWT({ ...session })
    .setProtectedHeader({ alg: "HS256", kid: await sessionKeyId(config.sessionSecret), typ: "JWT" })
    .setIssuedAt(Math.floor(now / 1000))
    .setJti(crypto.randomUUID())
    .setExpirationTime(Math.ceil(session.tokenExpiration / 1000))
    .sign(signingKey(config.sessionSecret));
  const maxAge = Math.max(0, Math.ceil((session.tokenExpiration - now) / 1000));
  return `${sessionCookieName(request)}=${token}; ${cookieAttributes(request, maxAge)}`;
}

/** The Set-Cookie that removes the session cookie. */
export function clearSessionCookie(request: Request): string {
  return `${sessionCookieName(request)}=; ${cookieAttributes(request, 0)}`;
}

export type CookieRead =
  | { kind: "absent" }
  /** Authentic, unexpired, well-formed. Not yet checked against the sessions table. */
  | { kind: "authentic"; session: SessionData }
  /** Authentic but past its expiration: the return URL it carried can still be trusted. */
  | { kind: "expired"; returnUrl: ReturnUrl }
  /** Forged, altered, signed with an unknown key, or not a session at all. */
  | { kind: "refused"; reason: "malformed" | "unknown-kid" | "bad-signature" };

async function keyFor(config: AuthConfig, kid: unknown): Promise<Uint8Array | null> {
  if (typeof kid !== "string") return null;
  if (kid === (await sessionKeyId(config.sessionSecret))) return signingKey(config.sessionSecret);
  if (config.sessionSecretPrevious && kid === (await sessionKeyId(config.sessionSecretPrevious))) return signingKey(config.sessionSecretPrevious);
  return null;
}

/** Reads and verifies the session cookie of `request` at `now` (epoch ms). */
export async function readSessionCookie(request: Request, config: AuthConfig, now: number): Promise<CookieRead> {
  const token = readCookie(request, sessionCookieName(request));
  if (!token) return { kind: "absent" };
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return { kind: "refused", reason: "malformed" };
  }
  const key = await keyFor(config, kid);
  if (!key) return { kind: "refused", reason: "unknown-kid" };
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], currentDate: new Date(now) });
    const parsed = v.safeParse(SessionClaims, payload);
    if (!parsed.success) return { kind: "refused", reason: "malformed" };
    if (parsed.output.tokenExpiration <= now) return { kind: "expired", returnUrl: parsed.output.returnUrl };
    return { kind: "authentic", session: parsed.output };
  } catch (error) {
    // jose checks the signature before the claims, so an expired token's payload is authentic.
    if (error instanceof errors.JWTExpired) {
      const returnUrl = v.safeParse(v.picklist(RETURN_URLS), error.payload.returnUrl);
      return { kind: "expired", returnUrl: returnUrl.success ? returnUrl.output : "/login" };
    }
    return { kind: "refused", reason: error instanceof errors.JWSSignatureVerificationFailed ? "bad-signature" : "malformed" };
  }
}

// An authenticator app (TOTP, RFC 6238) as a person's own factor for fresh checks and for sign-in's code step
// (docs/decisions/049-authenticator-app.md).
// Second to a passkey and before a text message: nothing is sent, so no hourly send limit applies, and every wrong
// code counts in the account's wrong-code window shared with SMS codes (functions/auth/one-time-codes.ts), so
// guessing stays bounded. A person's factors are theirs (decision 029): only its owner sets one up, in their session,
// after a fresh check by what they already have (`totp:add`), and confirms it by typing a current code; removing it
// needs a check too (`totp:remove`) and signs the person's other sessions out. The secret is sealed (AES-GCM) in the
// core database, shown once while it is set up, never again, and never logged. A time step once taken, by a check or a
// sign-in, is never taken again (replay).
import { ifChangedAuditStatement, signInAuditStatement } from "../audit/audit.db";
import { accountFailuresStatement, countStatement } from "../auth/one-time-codes.db";
import {
  confirmAuthenticatorStatement,
  insertPendingAuthenticatorStatements,
  pendingAuthenticator,
  removeAuthenticatorStatement,
  standingAuthenticator,
  takeStepStatement,
  type AuthenticatorRow,
} from "./authenticator-apps.db";
import { iso, type AuthDeps } from "../auth/deps";
import { revokeOtherSessionsStatement, sessionStage, verifySessionStatement } from "../auth/sign-in-sessions.db";
import { CHECK_CODES, freshCheckStatements, PLATFORM_CHECKS, type CheckRefused } from "../auth/fresh-check";
import type { VerifiedSession } from "../auth/guards";
import { lockout, OTP, type CodePurpose } from "../auth/one-time-codes";
import { OTP_MESSAGES, SIGN_IN_CODES } from "../auth/otp";
import { SESSION_TTL_MS, sessionCookie, type SessionData } from "../auth/session";
import { base32Encode, groupedSecret, matchingStep, newTotpSecret, otpauthUri } from "./totp";
import { qrPath } from "./qr";

/** How long a secret shown for setting up waits for its first code. */
export const ENROLMENT_MS = 10 * 60_000;

export const AUTHENTICATOR_MESSAGES = {
  already: "An authenticator app is already set up. Remove it first to set up another.",
  none: "You have no authenticator app set up: add one in Settings → Security, or use another way.",
  expired: "Setting up took too long. Start again to get a new code to scan.",
  malformed: "Enter the 6-digit code your authenticator app shows.",
  wrong: "That code is not right. Enter the code your authenticator app shows now.",
  used: "That code was already used. Wait for the next one in your authenticator app.",
  added: "Your authenticator app is set up: use its codes to confirm it is you.",
  removed: "The authenticator app is removed.",
} as const;

// ---------------------------------------------------------------- sealing the secret

const encoder = new TextEncoder();

/** AES-GCM key for secrets, derived from the deployment's OTP secret and kept apart from the code HMACs by its label. */
async function sealingKey(otpSecret: string): Promise<CryptoKey> {
  const hmacKey = await crypto.subtle.importKey("raw", encoder.encode(otpSecret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const raw = await crypto.subtle.sign("HMAC", hmacKey, encoder.encode("authenticator-app secrets v1"));
  return crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

const b64 = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const unb64 = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/** Sealed to its row and its owner: a sealed secret copied to another row or person does not open. */
async function seal(otpSecret: string, rowId: string, userId: string, secret: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(`${rowId}:${userId}`) },
    await sealingKey(otpSecret),
    new Uint8Array(secret),
  );
  return `${b64(iv)}.${b64(new Uint8Array(sealed))}`;
}

async function unseal(otpSecret: string, rowId: string, userId: string, sealed: string): Promise<Uint8Array> {
  const [iv = "", body = ""] = sealed.split(".");
  const key = await sealingKey(otpSecret);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: unb64(iv), additionalData: encoder.encode(`${rowId}:${userId}`) }, key, unb64(body));
  return new Uint8Array(plain);
}

// ---------------------------------------------------------------- what the Security tab and the check dialog read

export async function hasAuthenticator(deps: AuthDeps, userId: string): Promise<boolean> {
  return (await standingAuthenticator(deps.db, userId)) !== null;
}

/** The person's authenticator app as the Security tab lists it: when added and last used (never its secret). */
export async function authenticatorOf(deps: AuthDeps, userId: string): Promise<{ addedAt: string; lastUsedAt: string | null } | null> {
  const row = await standingAuthenticator(deps.db, userId);
  return row ? { addedAt: row.confirmed_at!, lastUsedAt: row.last_used_at } : null;
}

// ---------------------------------------------------------------- setting one up

/** What the page shows once, to set up the app: the QR code of the URI and the secret typed by 4. */
export interface Enrolment {
  id: string;
  /** The QR code of the otpauth:// URI (functions/authenticator/qr.ts), drawn by the page as one SVG path. */
  qr: { size: number; d: string };
  secret: string;
  expiresAt: string;
}

/** Starts setting one up (the caller used the person's check for checkBindings.addAuthenticator). */
export async function startEnrolment(deps: AuthDeps, session: VerifiedSession): Promise<Enrolment | { refused: string }> {
  if (await hasAuthenticator(deps, session.sub)) return { refused: AUTHENTICATOR_MESSAGES.already };
  const now = deps.now();
  const id = `totp_${crypto.randomUUID()}`;
  const secret = newTotpSecret();
  const base32 = base32Encode(secret);
  const secretSealed = await seal(deps.config.otpSecret, id, session.sub, secret);
  await deps.db.batch(insertPendingAuthenticatorStatements(deps.db, { id, userId: session.sub, sessionId: session.sid, secretSealed, createdAt: iso(now) }));
  return enrolmentOf(id, session.email, base32, now);
}

function enrolmentOf(id: string, email: string, base32: string, createdAt: number): Enrolment {
  return { id, qr: qrPath(otpauthUri(email, base32)), secret: groupedSecret(base32), expiresAt: iso(createdAt + ENROLMENT_MS) };
}

/** The one being set up, shown again after a wrong first code (until it is confirmed, the person may still need it). */
export async function pendingEnrolment(deps: AuthDeps, session: VerifiedSession, id: string): Promise<Enrolment | null> {
  const pending = await pendingAuthenticator(deps.db, session.sub, session.sid, id, iso(deps.now() - ENROLMENT_MS));
  if (!pending) return null;
  const secret = await unseal(deps.config.otpSecret, pending.id, session.sub, pending.secret_sealed);
  return enrolmentOf(pending.id, session.email, base32Encode(secret), Date.parse(pending.created_at));
}

/**
 * A typed code in the right shape from a person whose wrong codes have not locked them out, and the time it came. The
 * lock is the one every code shares; `purpose` only words it (a check's "Checks by code are locked", sign-in's own).
 */
async function typedCode(
  deps: AuthDeps,
  userId: string,
  typed: string,
  purpose: CodePurpose = CHECK_CODES,
): Promise<{ ok: true; code: string; now: number } | CheckRefused> {
  const code = typed.trim();
  if (!/^\d{6}$/.test(code)) return { ok: false, message: AUTHENTICATOR_MESSAGES.malformed };
  const now = deps.now();
  const locked = await lockout(deps, purpose, userId, now);
  return locked ?? { ok: true, code, now };
}

/** Confirms one being set up with a current code: it then checks, audited. A wrong code counts towards the lock. */
export async function confirmEnrolment(
  deps: AuthDeps,
  session: VerifiedSession,
  businessId: string,
  id: string,
  typed: string,
): Promise<{ ok: true } | CheckRefused> {
  const ready = await typedCode(deps, session.sub, typed);
  if (!ready.ok) return ready;
  const { code, now } = ready;
  const pending = await pendingAuthenticator(deps.db, session.sub, session.sid, id, iso(now - ENROLMENT_MS));
  if (!pending) return { ok: false, message: (await hasAuthenticator(deps, session.sub)) ? AUTHENTICATOR_MESSAGES.already : AUTHENTICATOR_MESSAGES.expired };
  const secret = await unseal(deps.config.otpSecret, pending.id, session.sub, pending.secret_sealed);
  const step = await matchingStep(secret, code, now, null);
  if (step === null) return wrongCode(deps, session.sub, { businessId, binding: "totp:confirm" }, pending.id, now);
  const [confirmed] = await deps.db.batch([
    confirmAuthenticatorStatement(deps.db, pending.id, session.sub, step, iso(now)),
    ifChangedAuditStatement(
      { userId: session.sub, businessId },
      deps.db,
      deps.meta,
      { action: "auth.totp.added", entity: "authenticator_app", entityId: pending.id, after: { addedAt: iso(now) } },
      iso(now),
    ),
  ]);
  if ((confirmed?.meta.changes ?? 0) !== 1) return { ok: false, message: AUTHENTICATOR_MESSAGES.already };
  return { ok: true };
}

// ---------------------------------------------------------------- a check by the app

/**
 * The app's code typed by the person, for a check or for signing in: the standing app and the time step the code is
 * of, a step later than any taken before (one step once, whatever it was taken for). A code of no step in the window
 * is a wrong code (counted in the shared lock, audited under `purpose`'s names); one of a step already taken is a
 * replay, said so and not counted.
 */
async function appCodeStep(
  deps: AuthDeps,
  userId: string,
  typed: string,
  purpose: CodePurpose,
  audited: { businessId: string | null; binding: string | null },
): Promise<{ ok: true; app: AuthenticatorRow; step: number; now: number } | CheckRefused> {
  const ready = await typedCode(deps, userId, typed, purpose);
  if (!ready.ok) return ready;
  const { code, now } = ready;
  const app = await standingAuthenticator(deps.db, userId);
  if (!app) return { ok: false, message: AUTHENTICATOR_MESSAGES.none };
  const secret = await unseal(deps.config.otpSecret, app.id, userId, app.secret_sealed);
  // Any step of the window matched, used or not: a used one is a replay (said so), not a guess (not counted).
  const anyStep = await matchingStep(secret, code, now, null);
  if (anyStep === null) return wrongCode(deps, userId, audited, app.id, now, purpose);
  const step = await matchingStep(secret, code, now, app.last_step);
  if (step === null) return { ok: false, message: AUTHENTICATOR_MESSAGES.used };
  return { ok: true, app, step, now };
}

/** Checks a typed code for `binding` and makes the check (one batch, with the step taken). No code is sent: no send limit. */
export async function verifyAuthenticatorCheck(
  deps: AuthDeps,
  session: VerifiedSession,
  owner: string,
  binding: string,
  typed: string,
  covers?: readonly string[],
): Promise<{ ok: true } | CheckRefused> {
  const matched = await appCodeStep(deps, session.sub, typed, CHECK_CODES, { businessId: owner === PLATFORM_CHECKS ? null : owner, binding });
  if (!matched.ok) return matched;
  const { app, step, now } = matched;
  const [taken] = await deps.db.batch([
    takeStepStatement(deps.db, app.id, session.sub, step, iso(now)),
    // Only if this request took the step (two requests with the same code: one check).
    ...freshCheckStatements(deps, session, owner, binding, "totp", app.id, true, covers),
  ]);
  if ((taken?.meta.changes ?? 0) !== 1) return { ok: false, message: AUTHENTICATOR_MESSAGES.used };
  return { ok: true };
}

/**
 * The sign-in code step by the app instead of a text message (SPEC section 1: sign-in, then a one-time password):
 * the right code verifies the identified session with a new token, in one batch with the step taken, so a code
 * signs in once and, its step taken, checks nothing after. Wrong codes count in the same lock as every code's.
 */
export async function signInWithAuthenticator(
  request: Request,
  deps: AuthDeps,
  session: SessionData,
  typed: string,
): Promise<{ ok: true; session: SessionData; setCookie: string } | CheckRefused> {
  if (session.stage !== "identified") return { ok: false, message: OTP_MESSAGES.ended };
  const matched = await appCodeStep(deps, session.sub, typed, SIGN_IN_CODES, { businessId: null, binding: null });
  if (!matched.ok) return matched;
  const { app, step, now } = matched;
  const expiresAt = now + SESSION_TTL_MS;
  await deps.db.batch([
    takeStepStatement(deps.db, app.id, session.sub, step, iso(now)),
    // Only if this request took the step (two requests with the same code: one sign-in).
    verifySessionStatement(deps.db, session.sid, iso(expiresAt)),
    ifChangedAuditStatement(
      { userId: session.sub, businessId: null },
      deps.db,
      deps.meta,
      { action: "auth.totp.signed_in", entity: "authenticator_app", entityId: app.id, after: { session: session.sid } },
      iso(now),
    ),
  ]);
  const row = await sessionStage(deps.db, session.sid);
  if (!row || row.revoked_at !== null) return { ok: false, message: OTP_MESSAGES.ended };
  if (row.stage !== "verified") return { ok: false, message: AUTHENTICATOR_MESSAGES.used };
  const next: SessionData = { ...session, stage: "verified", otpToken: `totp:${app.id}:${step}`, tokenExpiration: expiresAt };
  return { ok: true, session: next, setCookie: await sessionCookie(request, deps.config, next, now) };
}

/** A wrong code: one more in the account's hourly wrong codes (every purpose's), audited, the lock said when reached. */
async function wrongCode(
  deps: AuthDeps,
  userId: string,
  audited: { businessId: string | null; binding: string | null },
  appId: string,
  now: number,
  purpose: CodePurpose = CHECK_CODES,
): Promise<CheckRefused> {
  const actor = { userId, businessId: audited.businessId };
  const [, failures] = await deps.db.batch<{ failures: number }>([
    countStatement(deps.db, "failures", "account", userId, now, now - OTP.windowMs),
    accountFailuresStatement(deps.db, userId),
    signInAuditStatement(
      actor,
      deps.db,
      deps.meta,
      {
        action: purpose.audit.failure,
        entity: "authenticator_app",
        entityId: appId,
        after: { method: "totp", ...(audited.binding === null ? {} : { binding: audited.binding }) },
      },
      iso(now),
    ),
  ]);
  const count = failures?.results[0]?.failures ?? 0;
  if (count === OTP.accountFailuresPerWindow)
    await signInAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: purpose.audit.lockout, entity: "user", entityId: userId, after: { scope: "account", failures: count } },
      iso(now),
    ).run();
  return (await lockout(deps, purpose, userId, now)) ?? { ok: false, message: AUTHENTICATOR_MESSAGES.wrong };
}

// ---------------------------------------------------------------- removing it

/**
 * Removes the person's authenticator app (the caller used their check for checkBindings.removeAuthenticator), audited,
 * and in the same batch ends their other sessions, as removing a passkey does: an app that may be in someone else's
 * hands may have signed them in. The current session stays. Null when there was none.
 */
export async function removeAuthenticator(deps: AuthDeps, session: VerifiedSession, businessId: string): Promise<{ sessionsEnded: number } | null> {
  const app = await standingAuthenticator(deps.db, session.sub);
  if (!app) return null;
  const at = iso(deps.now());
  const actor = { userId: session.sub, businessId };
  // The sessions are ended only while the app still stands, then it is removed: two removals end them once.
  const [revoked, , removed] = await deps.db.batch([
    revokeOtherSessionsStatement(deps.db, session.sub, session.sid, { kind: "authenticator", id: app.id }, at),
    ifChangedAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: "auth.sessions_revoked", entity: "authenticator_app", entityId: app.id, after: { reason: "authenticator_removed", kept: session.sid } },
      at,
    ),
    removeAuthenticatorStatement(deps.db, app.id, session.sub, at),
    ifChangedAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: "auth.totp.removed", entity: "authenticator_app", entityId: app.id, after: { removedAt: at } },
      at,
    ),
  ]);
  return (removed?.meta.changes ?? 0) === 1 ? { sessionsEnded: revoked?.meta.changes ?? 0 } : null;
}

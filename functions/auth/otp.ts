// One-time codes sent by SMS (DESIGN.md section 4):
// - 6 digits from the CSPRNG (crypto.getRandomValues, rejection-sampled so every
//   code is equally likely);
// - stored only as HMAC-SHA256(OTP key, challenge id + ":" + code), compared in
//   constant time;
// - bound to the session that asked for it: only that session's newest code counts;
// - valid 5 minutes, single use (consumed by one conditional UPDATE), 5 tries;
// - a new code for the same session after a 60 s cooldown (it replaces the last);
// - hourly limits, counted exactly in D1 (otp_counters): 5 codes per phone number,
//   10 codes per account, 20 wrong codes per account (NIST SP 800-63B allows at most
//   100 failed attempts; 20 an hour keeps a guesser at 1 in 50,000 a day).
// Every code sent, failure, lockout and delivery failure goes to the audit log.
import { signInAuditStatement } from "../audit/audit.db";
import { clearBatchGuardsStatement } from "../platform/batch-guards.db";
import {
  accountFailuresStatement,
  challengeState,
  consumeChallengeStatement,
  counterRow,
  countStatement,
  countTry,
  deleteChallengeStatement,
  insertChallengeStatement,
  newestChallenge,
  newestChallengeAt,
  sendGuardStatement,
  type ChallengeRow,
  type CounterRow,
} from "./one-time-codes.db";
import { isLinkedNumber } from "../team/people.db";
import { sessionStage, verifySessionStatement } from "./sign-in-sessions.db";
import { iso, type AuthDeps } from "./deps";
import { SESSION_TTL_MS, sessionCookie, type SessionData } from "./session";
import type { SmsPort } from "../sms/sms";

export const OTP = {
  digits: 6,
  ttlMs: 5 * 60_000,
  maxTries: 5,
  resendCooldownMs: 60_000,
  windowMs: 60 * 60_000,
  phoneSendsPerWindow: 5,
  accountSendsPerWindow: 10,
  accountFailuresPerWindow: 20,
} as const;

/** The refusals, each with the message the person reads. */
export const OTP_MESSAGES = {
  notLinked: "Choose one of the phone numbers linked to your account.",
  notIdentified: "Start signing in again.",
  noSms: "Text messages cannot be sent right now. Please try again later.",
  deliveryFailed: "We could not send the code. Please try again in a moment.",
  cooldown: (seconds: number) => `Please wait ${seconds} seconds before asking for a new code.`,
  phoneLimit: (minutes: number) => `Too many codes were sent to this phone number. Try again in ${minutes} minutes.`,
  accountLimit: (minutes: number) => `Too many codes were sent for this account. Try again in ${minutes} minutes.`,
  lockedOut: (minutes: number) => `Too many wrong codes. Sign-in is locked for ${minutes} minutes.`,
  noCode: "Ask for a code first.",
  used: "This code has already been used. Ask for a new one.",
  expired: "This code has expired. Ask for a new one.",
  noTriesLeft: "Too many wrong tries for this code. Ask for a new one.",
  wrong: (left: number) => `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`,
  malformed: "Enter the 6-digit code from the text message.",
} as const;

export type OtpRefusal =
  | "notLinked"
  | "notIdentified"
  | "noSms"
  | "deliveryFailed"
  | "cooldown"
  | "phoneLimit"
  | "accountLimit"
  | "lockedOut"
  | "noCode"
  | "used"
  | "expired"
  | "noTriesLeft"
  | "wrong"
  | "malformed";

export type Refused = { ok: false; reason: OtpRefusal; message: string; retryAfterSeconds?: number };

const encoder = new TextEncoder();

/** A uniformly random 6-digit code from the CSPRNG. */
export function newCode(): string {
  const buffer = new Uint32Array(1);
  // 4,294,000,000 is the largest multiple of 10^6 below 2^32: no modulo bias.
  for (;;) {
    crypto.getRandomValues(buffer);
    const value = buffer[0]!;
    if (value < 4_294_000_000) return String(value % 1_000_000).padStart(OTP.digits, "0");
  }
}

/** What is stored for a code: hex HMAC-SHA256 under the OTP key, bound to its challenge. */
export async function codeHmac(secret: string, challengeId: string, code: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${challengeId}:${code}`)));
  return [...mac].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function smsBody(code: string): string {
  return `Your Partners Portal code is ${code}. It expires in 5 minutes. Never share it.`;
}

function refuse(reason: Exclude<OtpRefusal, "cooldown" | "phoneLimit" | "accountLimit" | "lockedOut" | "wrong">): Refused {
  return { ok: false, reason, message: OTP_MESSAGES[reason] };
}

const minutesUntil = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** A counter as it stands at `now` (an ended window reads as zero). */
export async function readCounter(db: D1Database, scope: "phone" | "account", key: string, now: number): Promise<CounterRow & { endsAt: number }> {
  const row = await counterRow(db, scope, key);
  if (!row || row.window_start <= now - OTP.windowMs) return { window_start: now, sends: 0, failures: 0, endsAt: now + OTP.windowMs };
  return { ...row, endsAt: row.window_start + OTP.windowMs };
}

async function lockout(deps: AuthDeps, userId: string, now: number): Promise<Refused | null> {
  const account = await readCounter(deps.db, "account", userId, now);
  if (account.failures < OTP.accountFailuresPerWindow) return null;
  const retryAfterSeconds = Math.ceil((account.endsAt - now) / 1000);
  return { ok: false, reason: "lockedOut", message: OTP_MESSAGES.lockedOut(minutesUntil(account.endsAt - now)), retryAfterSeconds };
}

export type OtpSent = { ok: true; challengeId: string; session: SessionData; setCookie: string; resendAfterSeconds: number };

/** The number a code goes to, and how the audit log may show it (maskPhone of app/lib/phone.ts). */
export interface OtpPhone {
  msisdn: string;
  masked: string;
}

/**
 * Sends a new code to one of the session's linked numbers (the /authenticate
 * action). The code is counted, stored (as an HMAC) and audited in one D1 batch
 * that rolls back if any limit or the cooldown would be passed; then it is sent.
 * The audit log names the number only as the caller masked it (functions/ does
 * not import the UI's rules; the route does the masking).
 */
export async function requestOtp(request: Request, deps: AuthDeps, session: SessionData, phone: OtpPhone, sms: SmsPort | null): Promise<OtpSent | Refused> {
  const { msisdn, masked } = phone;
  // A number shown in full would sit in the append-only audit log for good.
  if (masked.includes(msisdn.slice(3))) throw new Error("requestOtp: the audit log takes the number masked");
  const now = deps.now();
  if (session.stage !== "identified") return refuse("notIdentified");
  if (!session.linkedNumbers.includes(msisdn)) return refuse("notLinked");
  if (!(await isLinkedNumber(deps.db, session.sub, msisdn))) return refuse("notLinked");
  if (!sms) return refuse("noSms");
  const locked = await lockout(deps, session.sub, now);
  if (locked) return locked;

  const challengeId = crypto.randomUUID();
  const code = newCode();
  const hmac = await codeHmac(deps.config.otpSecret, challengeId, code);
  const windowEdge = now - OTP.windowMs;
  const actor = { userId: session.sub, businessId: null };
  try {
    await deps.db.batch([
      countStatement(deps.db, "sends", "phone", msisdn, now, windowEdge),
      countStatement(deps.db, "sends", "account", session.sub, now, windowEdge),
      sendGuardStatement(deps.db, {
        msisdn,
        phoneSends: OTP.phoneSendsPerWindow,
        userId: session.sub,
        accountSends: OTP.accountSendsPerWindow,
        accountFailures: OTP.accountFailuresPerWindow,
        sessionId: session.sid,
        cooldownEdge: iso(now - OTP.resendCooldownMs),
      }),
      insertChallengeStatement(deps.db, {
        id: challengeId,
        sessionId: session.sid,
        userId: session.sub,
        msisdn,
        codeHmac: hmac,
        createdAt: iso(now),
        expiresAt: iso(now + OTP.ttlMs),
      }),
      clearBatchGuardsStatement(deps.db),
      signInAuditStatement(
        actor,
        deps.db,
        deps.meta,
        { action: "auth.otp.sent", entity: "otp_challenge", entityId: challengeId, after: { to: masked, via: sms.kind } },
        iso(now),
      ),
    ]);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes("CHECK constraint failed")) throw error;
    return whySendRefused(deps, session, msisdn, now);
  }
  try {
    await sms.send({ to: msisdn, body: smsBody(code) });
  } catch (error) {
    // The code never arrived: it cannot be used, and it does not hold up a resend.
    await deps.db.batch([
      deleteChallengeStatement(deps.db, challengeId),
      signInAuditStatement(
        actor,
        deps.db,
        deps.meta,
        {
          action: "auth.otp.send_failed",
          entity: "otp_challenge",
          entityId: challengeId,
          after: { to: masked, via: sms.kind, error: error instanceof Error ? error.message.slice(0, 200) : "unknown" },
        },
        iso(now),
      ),
    ]);
    return refuse("deliveryFailed");
  }
  const next: SessionData = { ...session, selectedPhoneNumber: msisdn };
  return {
    ok: true,
    challengeId,
    session: next,
    setCookie: await sessionCookie(request, deps.config, next, now),
    resendAfterSeconds: OTP.resendCooldownMs / 1000,
  };
}

/** After the send batch rolled back: which rule said no (read back, for the message). */
async function whySendRefused(deps: AuthDeps, session: SessionData, msisdn: string, now: number): Promise<Refused> {
  const last = await newestChallengeAt(deps.db, session.sid);
  const lastAt = last ? Date.parse(last.created_at) : Number.NEGATIVE_INFINITY;
  if (lastAt > now - OTP.resendCooldownMs) {
    const retryAfterSeconds = Math.ceil((lastAt + OTP.resendCooldownMs - now) / 1000);
    return { ok: false, reason: "cooldown", message: OTP_MESSAGES.cooldown(retryAfterSeconds), retryAfterSeconds };
  }
  const locked = await lockout(deps, session.sub, now);
  if (locked) return locked;
  const phone = await readCounter(deps.db, "phone", msisdn, now);
  if (phone.sends >= OTP.phoneSendsPerWindow) {
    return {
      ok: false,
      reason: "phoneLimit",
      message: OTP_MESSAGES.phoneLimit(minutesUntil(phone.endsAt - now)),
      retryAfterSeconds: Math.ceil((phone.endsAt - now) / 1000),
    };
  }
  const account = await readCounter(deps.db, "account", session.sub, now);
  if (account.sends >= OTP.accountSendsPerWindow) {
    return {
      ok: false,
      reason: "accountLimit",
      message: OTP_MESSAGES.accountLimit(minutesUntil(account.endsAt - now)),
      retryAfterSeconds: Math.ceil((account.endsAt - now) / 1000),
    };
  }
  return refuse("notIdentified");
}

export type OtpVerified = { ok: true; session: SessionData; setCookie: string };

/**
 * Checks a typed code against the session's newest code (the /authenticate/verify
 * action). Each try is counted before the comparison, so concurrent guesses each
 * use one of the 5. On success the session becomes verified with a new token.
 */
export async function verifyOtp(request: Request, deps: AuthDeps, session: SessionData, typed: string): Promise<OtpVerified | Refused> {
  const now = deps.now();
  if (session.stage !== "identified") return refuse("notIdentified");
  const code = typed.trim();
  if (!/^\d{6}$/.test(code)) return refuse("malformed");
  const locked = await lockout(deps, session.sub, now);
  if (locked) return locked;
  const challenge = await newestChallenge(deps.db, session.sid, session.sub);
  if (!challenge) return refuse("noCode");
  if (challenge.consumed_at !== null) return refuse("used");
  if (challenge.expires_at <= iso(now)) return refuse("expired");
  const counted = await countTry(deps.db, challenge.id, OTP.maxTries, iso(now));
  if (!counted) {
    const fresh = await challengeState(deps.db, challenge.id);
    if (fresh?.consumed_at) return refuse("used");
    if (!fresh || fresh.expires_at <= iso(now)) return refuse("expired");
    return refuse("noTriesLeft");
  }
  const actor = { userId: session.sub, businessId: null };
  const expected = await codeHmac(deps.config.otpSecret, challenge.id, code);
  if (!constantTimeEqual(expected, challenge.code_hmac)) return wrongCode(deps, session, challenge, counted.attempts, now);

  const expiresAt = now + SESSION_TTL_MS;
  const [consumed] = await deps.db.batch([
    consumeChallengeStatement(deps.db, challenge.id, iso(now)),
    // Only if this request consumed it (two requests with the right code: one wins).
    verifySessionStatement(deps.db, session.sid, iso(expiresAt)),
    // The number is on the challenge's auth.otp.sent entry (the same entity id).
    signInAuditStatement(actor, deps.db, deps.meta, { action: "auth.otp.verified", entity: "otp_challenge", entityId: challenge.id }, iso(now)),
  ]);
  if ((consumed?.meta.changes ?? 0) !== 1) return refuse("used");
  const row = await sessionStage(deps.db, session.sid);
  if (!row || row.revoked_at !== null || row.stage !== "verified") return refuse("notIdentified");
  const next: SessionData = { ...session, stage: "verified", otpToken: challenge.id, selectedPhoneNumber: challenge.msisdn, tokenExpiration: expiresAt };
  return { ok: true, session: next, setCookie: await sessionCookie(request, deps.config, next, now) };
}

async function wrongCode(deps: AuthDeps, session: SessionData, challenge: ChallengeRow, attempts: number, now: number): Promise<Refused> {
  const actor = { userId: session.sub, businessId: null };
  const windowEdge = now - OTP.windowMs;
  const [, , failures] = await deps.db.batch<{ failures: number }>([
    countStatement(deps.db, "failures", "account", session.sub, now, windowEdge),
    countStatement(deps.db, "failures", "phone", challenge.msisdn, now, windowEdge),
    accountFailuresStatement(deps.db, session.sub),
    signInAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: "auth.otp.failure", entity: "otp_challenge", entityId: challenge.id, after: { attempt: attempts } },
      iso(now),
    ),
  ]);
  const accountFailures = failures?.results[0]?.failures ?? 0;
  const left = OTP.maxTries - attempts;
  if (accountFailures === OTP.accountFailuresPerWindow) {
    await signInAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: "auth.otp.lockout", entity: "user", entityId: session.sub, after: { scope: "account", failures: accountFailures } },
      iso(now),
    ).run();
  } else if (left === 0) {
    await signInAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: "auth.otp.lockout", entity: "otp_challenge", entityId: challenge.id, after: { scope: "code", tries: attempts } },
      iso(now),
    ).run();
  }
  if (accountFailures >= OTP.accountFailuresPerWindow) {
    const account = await readCounter(deps.db, "account", session.sub, now);
    return {
      ok: false,
      reason: "lockedOut",
      message: OTP_MESSAGES.lockedOut(minutesUntil(account.endsAt - now)),
      retryAfterSeconds: Math.ceil((account.endsAt - now) / 1000),
    };
  }
  if (left === 0) return refuse("noTriesLeft");
  return { ok: false, reason: "wrong", message: OTP_MESSAGES.wrong(left) };
}

// Signing in with a one-time code sent by SMS: the /authenticate and /authenticate/verify steps. The code itself (how it
// is made, stored, sent, limited and checked) is functions/auth/one-time-codes.ts's, as for every purpose; what is
// sign-in's own is here: a code goes only to one of the person's linked numbers, only while the session is identified,
// and the right code verifies the session with a new token.
import { signInAuditStatement } from "../audit/audit.db";
import { isLinkedNumber } from "../team/people.db";
import { sessionStage, verifySessionStatement } from "./sign-in-sessions.db";
import { iso, type AuthDeps } from "./deps";
import { CODE_MESSAGES, SEND_BUDGETS, type CodePhone, type CodePurpose, type CodeRefusal } from "./one-time-codes";
import { sendCode } from "./send-code";
import { verifyCode } from "./verify-code";
import { SESSION_TTL_MS, sessionCookie, type SessionData } from "./session";
import type { SmsPort } from "../sms/sms";

/** The refusals, each with the message the person reads. */
export const OTP_MESSAGES = {
  ...CODE_MESSAGES,
  notLinked: "Choose one of the phone numbers linked to your account.",
  ended: "Start signing in again.",
  noSms: "Text messages cannot be sent right now. Please try again later.",
  phoneLimit: (minutes: number) => `Too many codes were sent to this phone number. Try again in ${minutes} minutes.`,
  accountLimit: (minutes: number) => `Too many codes were sent for this account. Try again in ${minutes} minutes.`,
  lockedOut: (minutes: number) => `Too many wrong codes. Sign-in is locked for ${minutes} minutes.`,
} as const;

export type OtpRefusal = CodeRefusal | "notLinked";

export type Refused = { ok: false; reason: OtpRefusal; message: string; retryAfterSeconds?: number };

/** Sign-in's codes: none names an action; asked for between the email (or provider) and the business. */
export const SIGN_IN_CODES: CodePurpose = {
  stage: "identified",
  budget: SEND_BUDGETS.signIn,
  audit: { sent: "auth.otp.sent", sendFailed: "auth.otp.send_failed", failure: "auth.otp.failure", lockout: "auth.otp.lockout" },
  messages: OTP_MESSAGES,
  smsBody: (code) => `Your Partners Portal code is ${code}. It expires in 5 minutes. Never share it.`,
};

function refuse(reason: "notLinked" | "ended"): Refused {
  return { ok: false, reason, message: OTP_MESSAGES[reason] };
}

const askerOf = (session: SessionData) => ({ sessionId: session.sid, userId: session.sub, businessId: null });

export type OtpSent = { ok: true; challengeId: string; session: SessionData; setCookie: string; resendAfterSeconds: number };

/** Sends a new code to one of the session's linked numbers (the /authenticate action); the session remembers the number. */
export async function requestOtp(request: Request, deps: AuthDeps, session: SessionData, phone: CodePhone, sms: SmsPort | null): Promise<OtpSent | Refused> {
  if (session.stage !== "identified") return refuse("ended");
  if (!session.linkedNumbers.includes(phone.msisdn)) return refuse("notLinked");
  if (!(await isLinkedNumber(deps.db, session.sub, phone.msisdn))) return refuse("notLinked");
  const sent = await sendCode(deps, SIGN_IN_CODES, askerOf(session), phone, null, sms);
  if (!sent.ok) return sent;
  const next: SessionData = { ...session, selectedPhoneNumber: phone.msisdn };
  return {
    ok: true,
    challengeId: sent.codeId,
    session: next,
    setCookie: await sessionCookie(request, deps.config, next, deps.now()),
    resendAfterSeconds: sent.resendAfterSeconds,
  };
}

export type OtpVerified = { ok: true; session: SessionData; setCookie: string };

/** Checks a typed code (the /authenticate/verify action); the right one makes the session verified, with a new token. */
export async function verifyOtp(request: Request, deps: AuthDeps, session: SessionData, typed: string): Promise<OtpVerified | Refused> {
  if (session.stage !== "identified") return refuse("ended");
  const now = deps.now();
  const expiresAt = now + SESSION_TTL_MS;
  const verified = await verifyCode(deps, SIGN_IN_CODES, askerOf(session), null, typed, (code) => [
    // Only if this request consumed the code (two requests with the right code: one wins).
    verifySessionStatement(deps.db, session.sid, iso(expiresAt)),
    // The number is on the code's auth.otp.sent entry (the same entity id).
    signInAuditStatement(
      { userId: session.sub, businessId: null },
      deps.db,
      deps.meta,
      { action: "auth.otp.verified", entity: "otp_challenge", entityId: code.id },
      iso(now),
    ),
  ]);
  if (!verified.ok) return verified;
  const row = await sessionStage(deps.db, session.sid);
  if (!row || row.revoked_at !== null || row.stage !== "verified") return refuse("ended");
  const { code } = verified;
  const next: SessionData = { ...session, stage: "verified", otpToken: code.id, selectedPhoneNumber: code.msisdn, tokenExpiration: expiresAt };
  return { ok: true, session: next, setCookie: await sessionCookie(request, deps.config, next, now) };
}

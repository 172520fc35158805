// One-time codes sent by SMS, for every purpose that asks for one: signing in (functions/auth/otp.ts), a fresh check
// before what matters and a new phone's proof (functions/auth/fresh-check.ts). One set of rules (DESIGN section 4,
// decisions 008 and 027), so no purpose can be laxer than another:
// - 6 digits from the CSPRNG (crypto.getRandomValues, rejection-sampled so every code is equally likely);
// - stored only as HMAC-SHA256(OTP key, code id + ":" + code), compared in constant time;
// - bound to the session that asked for it (and, for a check, to the action): only its newest such code counts;
// - valid 5 minutes, single use (consumed by one conditional UPDATE), 5 tries;
// - a new code for the same thing in the same session (sign-in, or one check's action) after a 60 s cooldown (it
//   replaces the last); a check for another action does not wait, so a checker goes from one decision to the next;
// - hourly send budgets, counted exactly in D1 (otp_counters), one per purpose so none can use up another's
//   (SEND_BUDGETS): signing in 5 codes per phone number and 10 per account, fresh checks 30 and 40 of their own;
// - wrong codes shared by every purpose: 20 per account an hour (NIST SP 800-63B allows at most 100 failed attempts;
//   20 an hour keeps a guesser at 1 in 50,000 a day whatever the budgets), and then no code of any purpose is sent or
//   taken for the rest of the hour.
// Every code sent, not delivered, typed wrong and every lockout goes to the audit log, under the purpose's own names.
// Sending a code is send-code.ts's and checking a typed one verify-code.ts's; both count in the windows read here.
import type { SignInActor } from "../audit/audit.db";
import { counterRow, type CodeStage, type CounterRow, type CounterScope } from "./one-time-codes.db";
import type { AuthDeps } from "./deps";
import type { SmsRefusal } from "../sms/sms";
import { hex } from "../plumbing/sha256";

/**
 * An hourly budget of codes sent: its own counters (a key prefix in otp_counters, so each budget is counted apart)
 * and its caps per phone number and per account. Wrong codes are not budgeted: they count once, for every purpose.
 */
export interface SendBudget {
  /** Prefixed to the phone number and the user id in otp_counters' keys ("" for sign-in's, as they always were). */
  prefix: string;
  perPhone: number;
  perAccount: number;
}

/**
 * Sign-in's budget is the one every code had. A fresh check's is its own, so a checker deciding all day cannot use
 * up their next sign-in and a sign-in cannot use up the checks: 30 codes a phone and 40 an account an hour cover a
 * check every two minutes (one check covers a whole bulk decision of up to 50 requests) and still bound what one
 * number can be sent. More codes give a guesser nothing: the wrong codes' cap above is shared and per account.
 */
export const SEND_BUDGETS = {
  signIn: { prefix: "", perPhone: 5, perAccount: 10 },
  check: { prefix: "check:", perPhone: 30, perAccount: 40 },
} as const satisfies Record<string, SendBudget>;

export const OTP = {
  digits: 6,
  ttlMs: 5 * 60_000,
  maxTries: 5,
  resendCooldownMs: 60_000,
  windowMs: 60 * 60_000,
  /** Sign-in's budget (SEND_BUDGETS.signIn), by the names it has always had. */
  phoneSendsPerWindow: SEND_BUDGETS.signIn.perPhone,
  accountSendsPerWindow: SEND_BUDGETS.signIn.perAccount,
  accountFailuresPerWindow: 20,
} as const;

export type CodeRefusal =
  | "noSms"
  | "deliveryFailed"
  | "cooldown"
  | "phoneLimit"
  | "accountLimit"
  | "lockedOut"
  | "ended"
  | "noCode"
  | "used"
  | "expired"
  | "noTriesLeft"
  | "wrong"
  | "malformed";

export type CodeRefused = { ok: false; reason: CodeRefusal; message: string; retryAfterSeconds?: number; smsRefusal?: SmsRefusal };

/** What the person reads, alike for every purpose. */
export const CODE_MESSAGES = {
  deliveryFailed: "We could not send the code. Please try again in a moment.",
  /** The provider said no text message can go to this number (invalid, unroutable, blocked): trying again will not help. */
  numberRefused: "Text messages cannot reach this phone number. If it is wrong or no longer in use, ask an administrator of your business to change it.",
  cooldown: (seconds: number) => `Please wait ${seconds} seconds before asking for a new code.`,
  noCode: "Ask for a code first.",
  used: "This code has already been used. Ask for a new one.",
  expired: "This code has expired. Ask for a new one.",
  noTriesLeft: "Too many wrong tries for this code. Ask for a new one.",
  wrong: (left: number) => `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`,
  malformed: "Enter the 6-digit code from the text message.",
} as const;

/** What each purpose words its own way: the way out it offers, and what is locked, differ. */
export interface PurposeMessages {
  noSms: string;
  ended: string;
  phoneLimit: (minutes: number) => string;
  accountLimit: (minutes: number) => string;
  lockedOut: (minutes: number) => string;
}

/** What a code is for: the rules above are the same for each; these are what differ. */
export interface CodePurpose {
  /** The stage the session must be in to be sent one. */
  stage: CodeStage;
  /** Whose hourly codes it sends from. */
  budget: SendBudget;
  /** The audit log's names for a code sent, not delivered, typed wrong, and a lockout. */
  audit: { sent: string; sendFailed: string; failure: string; lockout: string };
  messages: PurposeMessages;
  smsBody: (code: string, binding: string | null) => string;
}

/** Who asks: the session and person, and the business once one is chosen (the audit log's actor). */
export interface CodeAsker {
  sessionId: string;
  userId: string;
  businessId: string | null;
}

/** The number a code goes to, and how the audit log may show it (maskPhone of app/lib/forms/phone.ts). */
export interface CodePhone {
  msisdn: string;
  masked: string;
}

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

/** What is stored for a code: hex HMAC-SHA256 under the OTP key, bound to its id. */
export async function codeHmac(secret: string, challengeId: string, code: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${challengeId}:${code}`)));
  return hex(mac);
}

/** A refusal that lasts until `endsAt`: the wait in words and in Retry-After seconds. */
export function refuseUntil(
  reason: "phoneLimit" | "accountLimit" | "lockedOut",
  message: (minutes: number) => string,
  endsAt: number,
  now: number,
): CodeRefused {
  const minutes = Math.max(1, Math.ceil((endsAt - now) / 60_000));
  return { ok: false, reason, message: message(minutes), retryAfterSeconds: Math.ceil((endsAt - now) / 1000) };
}

/** A counter as it stands at `now` (an ended window reads as zero). */
export async function readCounter(db: D1Database, scope: CounterScope, key: string, now: number): Promise<CounterRow & { endsAt: number }> {
  const row = await counterRow(db, scope, key);
  if (!row || row.window_start <= now - OTP.windowMs) return { window_start: now, sends: 0, failures: 0, endsAt: now + OTP.windowMs };
  return { ...row, endsAt: row.window_start + OTP.windowMs };
}

/** The person's wrong codes this hour, of every purpose together, lock codes of every purpose. */
export async function lockout(deps: AuthDeps, purpose: CodePurpose, userId: string, now: number): Promise<CodeRefused | null> {
  const account = await readCounter(deps.db, "account", userId, now);
  if (account.failures < OTP.accountFailuresPerWindow) return null;
  return refuseUntil("lockedOut", purpose.messages.lockedOut, account.endsAt, now);
}

/** How many more codes `budget` may send this hour to this person at this number, and how many it has in all. */
export async function codesLeft(deps: AuthDeps, budget: SendBudget, userId: string, msisdn: string): Promise<{ left: number; perHour: number }> {
  const now = deps.now();
  const [phone, account] = await Promise.all([
    readCounter(deps.db, "phone", budget.prefix + msisdn, now),
    readCounter(deps.db, "account", budget.prefix + userId, now),
  ]);
  const perHour = Math.min(budget.perPhone, budget.perAccount);
  return { left: Math.max(0, Math.min(budget.perPhone - phone.sends, budget.perAccount - account.sends)), perHour };
}

/** Who the audit log names for what happens to a code. */
export const actorOf = (asker: CodeAsker): SignInActor => ({ userId: asker.userId, businessId: asker.businessId });

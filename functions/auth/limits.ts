// The exact limits of every sign-in, code, passkey and check endpoint: each is counted per
// account and per address in D1 (functions/plumbing/rate-limit.ts), and a request over either is answered 429 with
// Retry-After and the wait in words by the field the person is looking at. The one-time code's own hourly windows
// (otp.ts: per phone, per account, wrong codes) stay as they are; these sit in front of them.
import { data, type HeadersFunction } from "@remix-run/cloudflare";
import { clientKey, overLimits, type LimitedKey, type RateLimit } from "../plumbing/rate-limit";
import { jsonResponse, type Refusal } from "../plumbing/http";

const MINUTE = 60_000;

/** The endpoints a person signs in and checks through, and how often each may be asked. */
export const AUTH_LIMITS = {
  /** An email looked up (unique-email sign-in, or the work account a provider named). */
  signInPerAccount: { name: "sign-in-account", max: 10, windowMs: 10 * MINUTE },
  /** An office behind one address signs in many people; a work-account sign-in counts twice (start and callback). */
  signInPerAddress: { name: "sign-in-address", max: 30, windowMs: 10 * MINUTE },
  /** A one-time code asked for to sign in (or to prove a new phone). */
  codeSendPerAccount: { name: "code-send-account", max: 10, windowMs: 60 * MINUTE },
  codeSendPerAddress: { name: "code-send-address", max: 30, windowMs: 60 * MINUTE },
  /**
   * A code asked for a fresh check: counted apart from sign-in's, as the codes' own budgets are (one-time-codes.ts
   * SEND_BUDGETS), so a checker's day never holds up a sign-in from their office. Per account it is the checks' budget.
   */
  checkCodeSendPerAccount: { name: "check-code-send-account", max: 40, windowMs: 60 * MINUTE },
  checkCodeSendPerAddress: { name: "check-code-send-address", max: 120, windowMs: 60 * MINUTE },
  /** A one-time code typed to sign in (by SMS or an authenticator app), to prove a new phone, or to confirm an app. */
  codeVerifyPerAccount: { name: "code-verify-account", max: 20, windowMs: 10 * MINUTE },
  codeVerifyPerAddress: { name: "code-verify-address", max: 60, windowMs: 10 * MINUTE },
  /**
   * A code typed for a fresh check (SMS or authenticator app), counted apart from sign-in's as the sends are: a checker
   * typing one for each decision cannot use up their next sign-in, and sign-ins cannot use up an office's checks.
   * 60 in 10 minutes is a code every 10 s; guessing is bounded by the wrong-code lock that every purpose shares (20 wrong
   * codes an hour, functions/auth/one-time-codes.ts), not by this.
   */
  checkCodeVerifyPerAccount: { name: "check-code-verify-account", max: 60, windowMs: 10 * MINUTE },
  checkCodeVerifyPerAddress: { name: "check-code-verify-address", max: 180, windowMs: 10 * MINUTE },
  /** Passkey options asked for, and passkey answers sent (sign-in, adding one, a check). */
  passkeyPerAccount: { name: "passkey-account", max: 30, windowMs: 10 * MINUTE },
  passkeyPerAddress: { name: "passkey-address", max: 100, windowMs: 10 * MINUTE },
} as const satisfies Record<string, RateLimit>;

export type AuthLimitPair = readonly [perAccount: RateLimit, perAddress: RateLimit];

export const SIGN_IN_LIMITS: AuthLimitPair = [AUTH_LIMITS.signInPerAccount, AUTH_LIMITS.signInPerAddress];
export const CODE_SEND_LIMITS: AuthLimitPair = [AUTH_LIMITS.codeSendPerAccount, AUTH_LIMITS.codeSendPerAddress];
export const CHECK_CODE_SEND_LIMITS: AuthLimitPair = [AUTH_LIMITS.checkCodeSendPerAccount, AUTH_LIMITS.checkCodeSendPerAddress];
export const CODE_VERIFY_LIMITS: AuthLimitPair = [AUTH_LIMITS.codeVerifyPerAccount, AUTH_LIMITS.codeVerifyPerAddress];
export const CHECK_CODE_VERIFY_LIMITS: AuthLimitPair = [AUTH_LIMITS.checkCodeVerifyPerAccount, AUTH_LIMITS.checkCodeVerifyPerAddress];
export const PASSKEY_LIMITS: AuthLimitPair = [AUTH_LIMITS.passkeyPerAccount, AUTH_LIMITS.passkeyPerAddress];

/**
 * Counts one request of `account` (a user id, or a lower-case email before one is known) from the request's address
 * against the pair; the seconds to wait when either is passed, else null.
 */
export async function authLimited(db: D1Database, request: Request, pair: AuthLimitPair, account: string, now: number): Promise<number | null> {
  const keys: LimitedKey[] = [
    { limit: pair[0], key: `account:${account}` },
    { limit: pair[1], key: clientKey(request.headers.get("CF-Connecting-IP")) },
  ];
  const over = await overLimits(db, keys, now);
  return over?.retryAfterSeconds ?? null;
}

/**
 * Counts one request from the request's address only, for an endpoint where no account is known yet (the start of a
 * work-account or Google sign-in: the provider names the account later, at the callback, which counts both).
 */
export async function addressLimited(db: D1Database, request: Request, limit: RateLimit, now: number): Promise<number | null> {
  const over = await overLimits(db, [{ limit, key: clientKey(request.headers.get("CF-Connecting-IP")) }], now);
  return over?.retryAfterSeconds ?? null;
}

/** "Too many attempts. Try again in 7 minutes." */
export function tooManyMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

/** The 429 of a JSON endpoint (the passkey calls, the fresh check's). */
export function tooManyJson(retryAfterSeconds: number): Response {
  return jsonResponse({ message: tooManyMessage(retryAfterSeconds) }, 429, { "Retry-After": String(retryAfterSeconds) });
}

/**
 * The 429 of a form action, by the field named (`form` for the whole form). The route's `headers` export passes
 * Retry-After on (Remix passes on only cookies by itself): see login-option.tsx.
 */
export function tooMany(field: string, retryAfterSeconds: number) {
  return data<Refusal>(
    { errors: { [field]: tooManyMessage(retryAfterSeconds) }, values: null },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/** A route's `headers` export: a refused request's Retry-After reaches the response (Remix passes on only cookies by itself). */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

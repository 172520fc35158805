// Checking a typed code: each try counted before the comparison, a wrong one counted against the account for every
// purpose, the right one used up in the same batch as what it allows.
import { signInAuditStatement } from "../audit/audit.db";
import {
  accountFailuresStatement,
  challengeState,
  consumeChallengeStatement,
  countStatement,
  countTry,
  newestChallenge,
  type ChallengeRow,
} from "./one-time-codes.db";
import { iso, type AuthDeps } from "./deps";
import { constantTimeEqual } from "../plumbing/sha256";
import { actorOf, CODE_MESSAGES, codeHmac, lockout, OTP, readCounter, refuseUntil, type CodeAsker, type CodePurpose, type CodeRefused } from "./one-time-codes";

type PlainRefusal = "deliveryFailed" | "noCode" | "used" | "expired" | "noTriesLeft" | "malformed";

function refuse(reason: PlainRefusal): CodeRefused {
  return { ok: false, reason, message: CODE_MESSAGES[reason] };
}

/**
 * Checks a typed code against the asker's newest code for `binding` (null for sign-in). Each try is counted before the
 * comparison, so concurrent guesses each use one of the 5. The right code is used up in one batch with what the
 * purpose makes of it (`whenRight`: statements that run only if this request used the code up), so two requests with
 * the right code make one outcome.
 */
export async function verifyCode(
  deps: AuthDeps,
  purpose: CodePurpose,
  asker: CodeAsker,
  binding: string | null,
  typed: string,
  whenRight: (code: ChallengeRow) => D1PreparedStatement[],
): Promise<{ ok: true; code: ChallengeRow } | CodeRefused> {
  const now = deps.now();
  const typedCode = typed.trim();
  if (!/^\d{6}$/.test(typedCode)) return refuse("malformed");
  const locked = await lockout(deps, purpose, asker.userId, now);
  if (locked) return locked;
  const code = await newestChallenge(deps.db, asker.sessionId, asker.userId, binding);
  if (!code) return refuse("noCode");
  if (code.consumed_at !== null) return refuse("used");
  if (code.expires_at <= iso(now)) return refuse("expired");
  const counted = await countTry(deps.db, code.id, OTP.maxTries, iso(now));
  if (!counted) {
    const fresh = await challengeState(deps.db, code.id);
    if (fresh?.consumed_at) return refuse("used");
    if (!fresh || fresh.expires_at <= iso(now)) return refuse("expired");
    return refuse("noTriesLeft");
  }
  const expected = await codeHmac(deps.config.otpSecret, code.id, typedCode);
  if (!constantTimeEqual(expected, code.code_hmac)) return wrongCode(deps, purpose, asker, code, binding, counted.attempts, now);
  const [consumed] = await deps.db.batch([consumeChallengeStatement(deps.db, code.id, iso(now)), ...whenRight(code)]);
  if ((consumed?.meta.changes ?? 0) !== 1) return refuse("used");
  return { ok: true, code };
}

async function wrongCode(
  deps: AuthDeps,
  purpose: CodePurpose,
  asker: CodeAsker,
  code: ChallengeRow,
  binding: string | null,
  attempts: number,
  now: number,
): Promise<CodeRefused> {
  const actor = actorOf(asker);
  const windowEdge = now - OTP.windowMs;
  const [, , failures] = await deps.db.batch<{ failures: number }>([
    countStatement(deps.db, "failures", "account", asker.userId, now, windowEdge),
    countStatement(deps.db, "failures", "phone", code.msisdn, now, windowEdge),
    accountFailuresStatement(deps.db, asker.userId),
    signInAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: purpose.audit.failure, entity: "otp_challenge", entityId: code.id, after: { attempt: attempts, ...(binding === null ? {} : { binding }) } },
      iso(now),
    ),
  ]);
  const accountFailures = failures?.results[0]?.failures ?? 0;
  const left = OTP.maxTries - attempts;
  // Audited once: when the account reaches the limit, else when this code runs out of tries.
  const locked =
    accountFailures === OTP.accountFailuresPerWindow
      ? { entity: "user", entityId: asker.userId, after: { scope: "account", failures: accountFailures } }
      : left === 0
        ? { entity: "otp_challenge", entityId: code.id, after: { scope: "code", tries: attempts } }
        : null;
  if (locked) await signInAuditStatement(actor, deps.db, deps.meta, { action: purpose.audit.lockout, ...locked }, iso(now)).run();
  if (accountFailures >= OTP.accountFailuresPerWindow) {
    const account = await readCounter(deps.db, "account", asker.userId, now);
    return refuseUntil("lockedOut", purpose.messages.lockedOut, account.endsAt, now);
  }
  if (left === 0) return refuse("noTriesLeft");
  return { ok: false, reason: "wrong", message: CODE_MESSAGES.wrong(left) };
}

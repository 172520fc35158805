// Sending a code: counted, stored and audited in one D1 batch the limits can roll back, and only then sent, so no
// limit can be passed by asking twice at once.
import { signInAuditStatement } from "../audit/audit.db";
import { clearBatchGuardsStatement } from "../plumbing/batch-guards.db";
import { countStatement, deleteChallengeStatement, insertChallengeStatement, newestChallengeAt, sendGuardStatement } from "./one-time-codes.db";
import { iso, type AuthDeps } from "./deps";
import { SmsDeliveryError, type SmsPort, type SmsRefusal } from "../sms/sms";
import { logEvent } from "../plumbing/log";
import {
  actorOf,
  CODE_MESSAGES,
  codeHmac,
  lockout,
  newCode,
  OTP,
  readCounter,
  refuseUntil,
  type CodeAsker,
  type CodePhone,
  type CodePurpose,
  type CodeRefused,
} from "./one-time-codes";

/**
 * What the person reads when the message was not sent: a problem with the provider account (key, balance, sender id) is
 * ours and lasts, worded as "no text messages now" with the purpose's way out (a passkey for a check); a refused number
 * is theirs to get changed; anything else may pass, so they try again in a moment. Still "deliveryFailed" to the caller.
 */
function deliveryRefused(purpose: CodePurpose, refusal: SmsRefusal): CodeRefused {
  const message = refusal === "number" ? CODE_MESSAGES.numberRefused : refusal === "unavailable" ? CODE_MESSAGES.deliveryFailed : purpose.messages.noSms;
  return { ok: false, reason: "deliveryFailed", message, smsRefusal: refusal };
}

function refuseAs(purpose: CodePurpose, reason: "noSms" | "ended"): CodeRefused {
  return { ok: false, reason, message: purpose.messages[reason] };
}

/**
 * Sends a new code for `purpose` (and, for a check, `binding`). The code is counted, stored (as an HMAC) and audited in
 * one D1 batch that rolls back if any limit, the cooldown or the session says no; then it is sent. A code that could
 * not be delivered is removed (it cannot be used and must not hold up a resend) and the failure audited. The audit log
 * names the number only as the caller masked it (functions/ does not import the UI's rules; the route masks).
 */
export async function sendCode(
  deps: AuthDeps,
  purpose: CodePurpose,
  asker: CodeAsker,
  phone: CodePhone,
  binding: string | null,
  sms: SmsPort | null,
): Promise<{ ok: true; codeId: string; resendAfterSeconds: number } | CodeRefused> {
  const { msisdn, masked } = phone;
  // A number shown in full would sit in the append-only audit log for good.
  if (masked.includes(msisdn.slice(3))) throw new Error("sendCode: the audit log takes the number masked");
  if (!sms) return refuseAs(purpose, "noSms");
  const now = deps.now();
  const locked = await lockout(deps, purpose, asker.userId, now);
  if (locked) return locked;

  const budget = purpose.budget;
  const id = crypto.randomUUID();
  const code = newCode();
  const windowEdge = now - OTP.windowMs;
  const facts = { to: masked, via: sms.kind, ...(binding === null ? {} : { binding }) };
  try {
    await deps.db.batch([
      countStatement(deps.db, "sends", "phone", budget.prefix + msisdn, now, windowEdge),
      countStatement(deps.db, "sends", "account", budget.prefix + asker.userId, now, windowEdge),
      sendGuardStatement(deps.db, {
        phoneKey: budget.prefix + msisdn,
        phoneSends: budget.perPhone,
        userId: asker.userId,
        accountKey: budget.prefix + asker.userId,
        accountSends: budget.perAccount,
        accountFailures: OTP.accountFailuresPerWindow,
        sessionId: asker.sessionId,
        cooldownEdge: iso(now - OTP.resendCooldownMs),
        binding,
        windowEdge,
        stage: purpose.stage,
      }),
      insertChallengeStatement(deps.db, {
        id,
        sessionId: asker.sessionId,
        userId: asker.userId,
        msisdn,
        codeHmac: await codeHmac(deps.config.otpSecret, id, code),
        binding,
        createdAt: iso(now),
        expiresAt: iso(now + OTP.ttlMs),
      }),
      clearBatchGuardsStatement(deps.db),
      signInAuditStatement(actorOf(asker), deps.db, deps.meta, { action: purpose.audit.sent, entity: "otp_challenge", entityId: id, after: facts }, iso(now)),
    ]);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes("CHECK constraint failed")) throw error;
    return whySendRefused(deps, purpose, asker, msisdn, binding, now);
  }
  try {
    await sms.send({ to: msisdn, body: purpose.smsBody(code, binding) });
  } catch (error) {
    // The person reads what they can act on; the provider's own answer goes to the log and the audit log.
    const refusal: SmsRefusal = error instanceof SmsDeliveryError ? error.reason : "unavailable";
    const detail = error instanceof Error ? error.message.slice(0, 200) : "unknown";
    // A refused key, an empty balance or a refused sender id stops every code until an operator acts: an error, not a warning.
    logEvent(refusal === "auth" || refusal === "balance" || refusal === "sender" ? "error" : "warn", "sms.not_sent", { via: sms.kind, refusal, error: detail });
    await deps.db.batch([
      deleteChallengeStatement(deps.db, id),
      signInAuditStatement(
        actorOf(asker),
        deps.db,
        deps.meta,
        {
          action: purpose.audit.sendFailed,
          entity: "otp_challenge",
          entityId: id,
          after: { ...facts, refusal, error: detail },
        },
        iso(now),
      ),
    ]);
    return deliveryRefused(purpose, refusal);
  }
  return { ok: true, codeId: id, resendAfterSeconds: OTP.resendCooldownMs / 1000 };
}

/** After the send batch rolled back: which rule said no (read back, for the message). */
async function whySendRefused(
  deps: AuthDeps,
  purpose: CodePurpose,
  asker: CodeAsker,
  msisdn: string,
  binding: string | null,
  now: number,
): Promise<CodeRefused> {
  const last = await newestChallengeAt(deps.db, asker.sessionId, binding);
  const lastAt = last ? Date.parse(last.created_at) : Number.NEGATIVE_INFINITY;
  if (lastAt > now - OTP.resendCooldownMs) {
    const retryAfterSeconds = Math.ceil((lastAt + OTP.resendCooldownMs - now) / 1000);
    return { ok: false, reason: "cooldown", message: CODE_MESSAGES.cooldown(retryAfterSeconds), retryAfterSeconds };
  }
  const locked = await lockout(deps, purpose, asker.userId, now);
  if (locked) return locked;
  const { prefix, perPhone, perAccount } = purpose.budget;
  const phone = await readCounter(deps.db, "phone", prefix + msisdn, now);
  if (phone.sends >= perPhone) return refuseUntil("phoneLimit", purpose.messages.phoneLimit, phone.endsAt, now);
  const account = await readCounter(deps.db, "account", prefix + asker.userId, now);
  if (account.sends >= perAccount) return refuseUntil("accountLimit", purpose.messages.accountLimit, account.endsAt, now);
  return refuseAs(purpose, "ended");
}

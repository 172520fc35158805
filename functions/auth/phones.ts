// Adding a phone number as a way to sign in (docs/decisions/029-who-owns-sign-in-factors.md).
// A number becomes a sign-in factor only when its owner proves it: signed in, with a fresh check by what they already
// have (as for a passkey), they get a one-time code sent to the new number and type it back. The code is a check's
// (functions/auth/fresh-check.ts CHECK_CODES, under the rules of every code in functions/auth/one-time-codes.ts), bound
// to `prove-phone:<number>`, which /auth/check never takes: a code to the old phone can never link a new one. No
// business can add a number to anyone's account.
import { signInAuditStatement } from "../audit/audit.db";
import { memberShards } from "../tenancy/directory.db";
import { linkedNumbers, linkProvenPhoneStatement } from "../team/people.db";
import { iso, type AuthDeps } from "./deps";
import { CHECK_MESSAGES, checkBindings, sendCheckCode, spendOpenCheck, verifyCheckCode, type CheckRefused } from "./fresh-check";
import type { VerifiedSession } from "./guards";
import type { SmsPort } from "../sms/sms";

/** Enough for a work phone, a personal one and spares; more is more ways in. */
export const MAX_PHONES = 5;

export const PHONE_MESSAGES = {
  already: "This number is already linked to your account.",
  tooMany: `You can link up to ${MAX_PHONES} phone numbers. Ask an administrator if you need more.`,
  linked: (masked: string) => `${masked} is linked to your account: you can sign in with a code sent to it.`,
} as const;

/** The number to add, as 233XXXXXXXXX, and how the audit log and the page show it. */
export interface NewPhone {
  msisdn: string;
  masked: string;
}

/** Sends a code to the number being added (the caller has the person's fresh check for checkBindings.addPhone). */
export async function sendPhoneProof(
  deps: AuthDeps,
  session: VerifiedSession,
  businessId: string,
  phone: NewPhone,
  sms: SmsPort | null,
): Promise<{ ok: true; resendAfterSeconds: number } | CheckRefused> {
  const linked = await linkedNumbers(deps.db, session.sub);
  if (linked.includes(phone.msisdn)) return { ok: false, message: PHONE_MESSAGES.already };
  if (linked.length >= MAX_PHONES) return { ok: false, message: PHONE_MESSAGES.tooMany };
  return sendCheckCode(deps, session, businessId, checkBindings.provePhone(phone.msisdn), phone, sms);
}

/**
 * Takes the code typed back: the right one (sent to this number, in this session) links the number in the core
 * database, which sign-in reads, audited in the same batch; then each business's copy of the person hears of it.
 */
export async function confirmPhoneProof(
  deps: AuthDeps,
  session: VerifiedSession,
  businessId: string,
  phone: NewPhone,
  typed: string,
): Promise<{ ok: true } | CheckRefused> {
  const binding = checkBindings.provePhone(phone.msisdn);
  const checked = await verifyCheckCode(deps, session, businessId, binding, typed);
  if (!checked.ok) return checked;
  const proof = await spendOpenCheck(deps, session, binding);
  if (!proof) return { ok: false, message: CHECK_MESSAGES.used };
  const at = iso(deps.now());
  await deps.db.batch([
    linkProvenPhoneStatement(deps.db, session.sub, phone.msisdn, at),
    signInAuditStatement(
      { userId: session.sub, businessId },
      deps.db,
      deps.meta,
      { action: "auth.phone.linked", entity: "user", entityId: session.sub, after: { phone: phone.masked, check: proof } },
      at,
    ),
  ]);
  // The businesses' databases hold a copy of the person (their Team lists, the administrators' texts); one write each.
  const shards = new Map((await memberShards(deps.db, session.sub)).map((place) => [place.shard, place.businessId]));
  await Promise.all(
    [...shards].map(([shard, member]) => {
      const { db } = deps.businessDb(member, shard);
      return linkProvenPhoneStatement(db, session.sub, phone.msisdn, at).run();
    }),
  );
  return { ok: true };
}

// Passkeys (decision 024): adding one in Settings > Security, signing in with one instead of a one-time
// code, and the passkey half of a fresh check. @simplewebauthn/server checks the answers (CBOR, COSE keys, signatures,
// the counter); functions/passkeys/ keeps the challenges and the rules around them:
// - a challenge is 32 random bytes, bound to the session and the person that asked, to its purpose ('register',
//   'sign-in', 'check') and for a check to what is checked (the binding); it lives 2 minutes;
// - it is used up by one conditional UPDATE before the answer is verified, so a replayed answer finds it used, and a
//   refused answer voids every open challenge of the same kind: the challenge is used up either way;
// - the relying party id and the origin come from configuration (functions/env.ts) and are passed to the library to
//   be matched exactly; user verification is required (the passkey stands for both the code and the phone);
// - a use is recorded only while the passkey stands and its counter moved forward (a clone is refused);
// - every passkey added, renamed, removed, used and refused goes to the audit log, in the core database.
// Adding a passkey is passkey-registration.ts's and using one (sign-in, a check) passkey-assertions.ts's; both take
// their challenges through passkey-challenges.ts, so each ceremony is held to the same rules.
import { looksLikeCardNumber } from "../card-numbers/card-numbers";
import { CARD_NUMBER_IN_FIELD } from "../forms";
import * as v from "valibot";
import { ifChangedAuditStatement } from "../audit/audit.db";
import { activePasskeys, hasActivePasskey, removePasskeyStatement, renamePasskeyStatement, type PasskeyRow } from "./passkeys.db";
import { revokeOtherSessionsStatement } from "../auth/sign-in-sessions.db";
import type { RelyingParty } from "../env";
import { iso, type AuthDeps } from "../auth/deps";
import type { SessionData } from "../auth/session";
import { bidiControlMessage, hasBidiControl } from "../plumbing/text-direction";

export const PASSKEY = {
  challengeTtlMs: 2 * 60_000,
  /** What the browser is told to wait for the person (the challenge outlives it a little). */
  timeoutMs: 90_000,
  nameMaxGraphemes: 60,
} as const;

/** The refusals, each with the message the person reads. */
export const PASSKEY_MESSAGES = {
  unavailable: "Passkeys are not available here.",
  notIdentified: "Start signing in again.",
  malformed: "The passkey's answer could not be read. Try again.",
  noChallenge: "This passkey request has expired or was already used. Try again.",
  unknown: "This passkey is not registered to your account, or it was removed. Use another passkey or a code by text message.",
  notVerified: "Your passkey could not be verified. Try again, or use a code by text message.",
  alreadyAdded: "This passkey is already registered.",
  notFound: "That passkey was already removed.",
} as const;

export type PasskeyRefusal = { ok: false; message: string };

/** The relying party this request is served as; null: passkeys are off (production without configuration). */
export function relyingPartyOf(deps: AuthDeps): RelyingParty | null {
  const party = deps.config.relyingParty;
  return party && !("fromRequest" in party) ? party : null;
}

export async function hasPasskey(db: D1Database, userId: string): Promise<boolean> {
  return hasActivePasskey(db, userId);
}

export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The person's passkeys as Settings > Security lists them. */
export async function listPasskeys(db: D1Database, userId: string): Promise<PasskeySummary[]> {
  return (await activePasskeys(db, userId)).map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at }));
}

/** A passkey's name: 1 to 60 characters as a person counts them (an emoji is one), any script, no direction controls. */
export const PasskeyName = v.pipe(
  v.string("Name the passkey."),
  v.trim(),
  v.nonEmpty("Name the passkey."),
  v.maxGraphemes(PASSKEY.nameMaxGraphemes, `Keep the name to ${PASSKEY.nameMaxGraphemes} characters or fewer.`),
  v.check((typed) => !hasBidiControl(typed), bidiControlMessage("name")),
  // Sent as JSON, not as a form, so the form reader's card-number check (functions/forms.ts) is said here.
  v.check((typed) => !looksLikeCardNumber(typed), CARD_NUMBER_IN_FIELD),
);

/** Who the audit log names for what a session does with its passkeys. */
export const actorOf = (session: SessionData) => ({ userId: session.sub, businessId: session.activeBusiness });

/** How the browser said it reaches the passkey (usb, internal, hybrid...), as stored when it was added. */
export function transportsOf(row: PasskeyRow): string[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** Renames one of the person's passkeys; false when it is not theirs or was removed. */
export async function renamePasskey(deps: AuthDeps, session: SessionData, passkeyId: string, name: string): Promise<boolean> {
  const now = iso(deps.now());
  const [renamed] = await deps.db.batch([
    renamePasskeyStatement(deps.db, passkeyId, session.sub, name),
    ifChangedAuditStatement(
      actorOf(session),
      deps.db,
      deps.meta,
      { action: "auth.passkey.renamed", entity: "passkey", entityId: passkeyId, after: { name } },
      now,
    ),
  ]);
  return (renamed?.meta.changes ?? 0) === 1;
}

/**
 * Removes one of the person's passkeys and, in the same batch, ends their other sessions (a passkey that may be in
 * someone else's hands may have signed them in); the current session stays. False when it was not theirs or already gone.
 */
export async function removePasskey(deps: AuthDeps, session: SessionData, passkeyId: string): Promise<{ removed: boolean; sessionsEnded: number }> {
  const now = iso(deps.now());
  const actor = actorOf(session);
  // One transaction: the sessions are ended only while the passkey still stands, then it is removed.
  const [revoked, , removed] = await deps.db.batch([
    revokeOtherSessionsStatement(deps.db, session.sub, session.sid, { kind: "passkey", id: passkeyId }, now),
    ifChangedAuditStatement(
      actor,
      deps.db,
      deps.meta,
      { action: "auth.sessions_revoked", entity: "passkey", entityId: passkeyId, after: { reason: "passkey_removed", kept: session.sid } },
      now,
    ),
    removePasskeyStatement(deps.db, passkeyId, session.sub, now),
    ifChangedAuditStatement(actor, deps.db, deps.meta, { action: "auth.passkey.removed", entity: "passkey", entityId: passkeyId }, now),
  ]);
  return { removed: (removed?.meta.changes ?? 0) === 1, sessionsEnded: revoked?.meta.changes ?? 0 };
}

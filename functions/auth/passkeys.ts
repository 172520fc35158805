// Passkeys (decision 024): adding one in Settings > Security, signing in with one instead of a one-time
// code, and the passkey half of a fresh check. @simplewebauthn/server checks the answers (CBOR, COSE keys, signatures,
// the counter); this module keeps the challenges and the rules around them:
// - a challenge is 32 random bytes, bound to the session and the person that asked, to its purpose ('register',
//   'sign-in', 'check') and for a check to what is checked (the binding); it lives 2 minutes;
// - it is used up by one conditional UPDATE before the answer is verified, so a replayed answer finds it used, and a
//   refused answer voids every open challenge of the same kind: the challenge is used up either way;
// - the relying party id and the origin come from configuration (functions/env.ts) and are passed to the library to
//   be matched exactly; user verification is required (the passkey stands for both the code and the phone);
// - a use is recorded only while the passkey stands and its counter moved forward (a clone is refused);
// - every passkey added, renamed, removed, used and refused goes to the audit log, in the core database.
import { looksLikeCardNumber } from "../card-numbers/card-numbers";
import { CARD_NUMBER_IN_FIELD } from "../forms";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import * as v from "valibot";
import { ifChangedAuditStatement, signInAuditStatement } from "../audit/audit.db";
import {
  activePasskeyByCredential,
  activePasskeys,
  consumeWebauthnChallenge,
  hasActivePasskey,
  insertPasskeyStatement,
  insertWebauthnChallenge,
  passkeyUsedStatement,
  removePasskeyStatement,
  renamePasskeyStatement,
  voidNamedChallengeStatement,
  voidWebauthnChallengesStatement,
  type ChallengeMatch,
  type ChallengePurpose,
  type PasskeyRow,
} from "./passkeys.db";
import { revokeOtherSessionsStatement, sessionStage, verifySessionStatement } from "./sign-in-sessions.db";
import type { RelyingParty } from "../env";
import { iso, type AuthDeps } from "./deps";
import { SESSION_TTL_MS, sessionCookie, type SessionData } from "./session";
import { bidiControlMessage, hasBidiControl } from "../plumbing/text-direction";

export type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";

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

const b64url = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]*$/), v.maxLength(16_384));
const ClientExtensions = v.optional(v.record(v.string(), v.unknown()), {});

const RegistrationAnswer = v.object({
  id: b64url,
  rawId: b64url,
  type: v.literal("public-key"),
  response: v.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: v.optional(v.array(v.pipe(v.string(), v.maxLength(20))), []),
  }),
  clientExtensionResults: ClientExtensions,
  authenticatorAttachment: v.optional(v.picklist(["platform", "cross-platform"])),
});

const AuthenticationAnswer = v.object({
  id: b64url,
  rawId: b64url,
  type: v.literal("public-key"),
  response: v.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: v.optional(b64url),
  }),
  clientExtensionResults: ClientExtensions,
  authenticatorAttachment: v.optional(v.picklist(["platform", "cross-platform"])),
});

/** The challenge an answer carries (what the authenticator signed over), or null when it cannot be read. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    const challenge = parsed && typeof parsed === "object" && "challenge" in parsed ? parsed.challenge : null;
    return typeof challenge === "string" && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

const actorOf = (session: SessionData) => ({ userId: session.sub, businessId: session.activeBusiness });

function transportsOf(row: PasskeyRow): string[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** A new challenge for this session, person, purpose and binding; null when the session no longer stands. */
async function newChallenge(deps: AuthDeps, session: SessionData, purpose: ChallengePurpose, binding: string | null): Promise<string | null> {
  const now = deps.now();
  const challenge = isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(32)));
  const stored = await insertWebauthnChallenge(deps.db, {
    id: crypto.randomUUID(),
    sessionId: session.sid,
    userId: session.sub,
    purpose,
    binding,
    challenge,
    createdAt: iso(now),
    expiresAt: iso(now + PASSKEY.challengeTtlMs),
  });
  return stored ? challenge : null;
}

/** The user handle authenticators keep: a digest of the user id, so it names no one. */
async function userHandle(userId: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`pp-passkey-user:${userId}`)));
}

/** Options for adding a passkey (a verified session); passkeys already registered are excluded. */
export async function registrationOptions(deps: AuthDeps, session: SessionData): Promise<PublicKeyCredentialCreationOptionsJSON | PasskeyRefusal> {
  const party = relyingPartyOf(deps);
  if (!party) return { ok: false, message: PASSKEY_MESSAGES.unavailable };
  const challenge = await newChallenge(deps, session, "register", null);
  if (!challenge) return { ok: false, message: PASSKEY_MESSAGES.notIdentified };
  const existing = await activePasskeys(deps.db, session.sub);
  return generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: session.email,
    userDisplayName: session.email,
    userID: await userHandle(session.sub),
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: PASSKEY.timeoutMs,
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
  });
}

/** Uses up the answer's challenge (or, when it names none of ours, every open one of the kind). */
async function takeChallenge(deps: AuthDeps, clientDataJSON: string, match: ChallengeMatch): Promise<{ id: string; challenge: string } | null> {
  const now = iso(deps.now());
  const named = challengeOf(clientDataJSON);
  const taken = named ? await consumeWebauthnChallenge(deps.db, named, match, now) : null;
  if (taken) return taken;
  // Not an open challenge of this kind: the one it names (if this session's) and every open one of the kind are used up.
  await deps.db.batch([
    ...(named ? [voidNamedChallengeStatement(deps.db, named, match.sessionId, match.userId, now)] : []),
    voidWebauthnChallengesStatement(deps.db, match, now),
  ]);
  return null;
}

function failureAudit(deps: AuthDeps, session: SessionData, purpose: ChallengePurpose, reason: string, passkeyId: string | null) {
  return signInAuditStatement(
    actorOf(session),
    deps.db,
    deps.meta,
    { action: "auth.passkey.failure", entity: "passkey", entityId: passkeyId, after: { purpose, reason } },
    iso(deps.now()),
  );
}

async function refused(deps: AuthDeps, session: SessionData, purpose: ChallengePurpose, reason: keyof typeof PASSKEY_MESSAGES, passkeyId: string | null) {
  await failureAudit(deps, session, purpose, reason, passkeyId).run();
  return { ok: false as const, message: PASSKEY_MESSAGES[reason] };
}

/** Verifies the answer to registrationOptions and stores the passkey under `name`. */
export async function verifyRegistration(
  deps: AuthDeps,
  session: SessionData,
  name: string,
  response: unknown,
): Promise<{ ok: true; passkeyId: string } | PasskeyRefusal> {
  const party = relyingPartyOf(deps);
  if (!party) return { ok: false, message: PASSKEY_MESSAGES.unavailable };
  const parsed = v.safeParse(RegistrationAnswer, response);
  if (!parsed.success) return refused(deps, session, "register", "malformed", null);
  const answer = parsed.output as RegistrationResponseJSON;
  const match = { sessionId: session.sid, userId: session.sub, purpose: "register" as const, binding: null };
  const taken = await takeChallenge(deps, answer.response.clientDataJSON, match);
  if (!taken) return refused(deps, session, "register", "noChallenge", null);
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response: answer,
      expectedChallenge: taken.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: true,
    });
    if (!verified.verified) return refused(deps, session, "register", "notVerified", null);
    info = verified.registrationInfo;
  } catch {
    return refused(deps, session, "register", "notVerified", null);
  }
  const now = iso(deps.now());
  const passkeyId = `pk_${crypto.randomUUID()}`;
  const transports = (answer.response.transports ?? []).slice(0, 8);
  const [inserted] = await deps.db.batch([
    insertPasskeyStatement(deps.db, {
      id: passkeyId,
      userId: session.sub,
      credentialId: info.credential.id,
      publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports,
      name,
      createdAt: now,
    }),
    ifChangedAuditStatement(
      actorOf(session),
      deps.db,
      deps.meta,
      { action: "auth.passkey.added", entity: "passkey", entityId: passkeyId, after: { name, transports } },
      now,
    ),
  ]);
  if ((inserted?.meta.changes ?? 0) !== 1) return refused(deps, session, "register", "alreadyAdded", null);
  return { ok: true, passkeyId };
}

/** Request options naming the person's passkeys, with a new challenge of `purpose`; null when they have none. */
async function requestOptions(
  deps: AuthDeps,
  session: SessionData,
  purpose: "sign-in" | "check",
  binding: string | null,
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const party = relyingPartyOf(deps);
  if (!party) return null;
  const passkeys = await activePasskeys(deps.db, session.sub);
  if (passkeys.length === 0) return null;
  const challenge = await newChallenge(deps, session, purpose, binding);
  if (!challenge) return null;
  return generateAuthenticationOptions({
    rpID: party.id,
    allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: PASSKEY.timeoutMs,
    userVerification: "required",
  });
}

type Asserted = { ok: true; passkey: PasskeyRow; newCounter: number; challengeId: string } | PasskeyRefusal;

/** The checks every assertion passes: the challenge (used up first), the passkey (the person's, standing), the signature. */
async function verifyAssertion(
  deps: AuthDeps,
  session: SessionData,
  purpose: "sign-in" | "check",
  binding: string | null,
  response: unknown,
): Promise<Asserted> {
  const party = relyingPartyOf(deps);
  if (!party) return { ok: false, message: PASSKEY_MESSAGES.unavailable };
  const match = { sessionId: session.sid, userId: session.sub, purpose, binding };
  const parsed = v.safeParse(AuthenticationAnswer, response);
  if (!parsed.success) {
    await voidWebauthnChallengesStatement(deps.db, match, iso(deps.now())).run();
    return refused(deps, session, purpose, "malformed", null);
  }
  const answer = parsed.output as AuthenticationResponseJSON;
  const taken = await takeChallenge(deps, answer.response.clientDataJSON, match);
  if (!taken) return refused(deps, session, purpose, "noChallenge", null);
  const passkey = await activePasskeyByCredential(deps.db, session.sub, answer.id);
  if (!passkey) return refused(deps, session, purpose, "unknown", null);
  try {
    const verified = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: taken.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: passkey.credential_id,
        publicKey: isoBase64URL.toBuffer(passkey.public_key),
        counter: passkey.counter,
        transports: transportsOf(passkey),
      },
      requireUserVerification: true,
    });
    if (!verified.verified) return refused(deps, session, purpose, "notVerified", passkey.id);
    return { ok: true, passkey, newCounter: verified.authenticationInfo.newCounter, challengeId: taken.id };
  } catch {
    return refused(deps, session, purpose, "notVerified", passkey.id);
  }
}

/** Options for signing in with a passkey (an identified session, before any code); null when there is none to use. */
export async function signInOptions(deps: AuthDeps, session: SessionData): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  if (session.stage !== "identified") return null;
  return requestOptions(deps, session, "sign-in", null);
}

export type PasskeySignedIn = { ok: true; session: SessionData; setCookie: string };

/**
 * Signs in with a passkey instead of a one-time code: the session becomes verified exactly as verifyOtp makes it
 * (verifySessionStatement, a new token), with `passkey:<challenge id>` as its otp token (SPEC section 4: a valid
 * session has one).
 */
export async function verifySignIn(request: Request, deps: AuthDeps, session: SessionData, response: unknown): Promise<PasskeySignedIn | PasskeyRefusal> {
  if (session.stage !== "identified") return { ok: false, message: PASSKEY_MESSAGES.notIdentified };
  const asserted = await verifyAssertion(deps, session, "sign-in", null, response);
  if (!asserted.ok) return asserted;
  const now = deps.now();
  const expiresAt = now + SESSION_TTL_MS;
  const [used] = await deps.db.batch([
    passkeyUsedStatement(deps.db, asserted.passkey.id, session.sub, asserted.newCounter, iso(now)),
    // Only if the passkey still stood and its counter moved on (the previous statement changed one row).
    verifySessionStatement(deps.db, session.sid, iso(expiresAt)),
    signInAuditStatement(
      actorOf(session),
      deps.db,
      deps.meta,
      { action: "auth.passkey.signed_in", entity: "passkey", entityId: asserted.passkey.id, after: { challenge: asserted.challengeId } },
      iso(now),
    ),
  ]);
  if ((used?.meta.changes ?? 0) !== 1) return refused(deps, session, "sign-in", "unknown", asserted.passkey.id);
  const row = await sessionStage(deps.db, session.sid);
  if (!row || row.revoked_at !== null || row.stage !== "verified") return { ok: false, message: PASSKEY_MESSAGES.notIdentified };
  const next: SessionData = { ...session, stage: "verified", otpToken: `passkey:${asserted.challengeId}`, tokenExpiration: expiresAt };
  return { ok: true, session: next, setCookie: await sessionCookie(request, deps.config, next, now) };
}

/** Request options for a check bound to `binding` (single-use challenge, this session, 2 minutes); null when the person has no passkey. */
export async function passkeyCheckOptions(deps: AuthDeps, session: SessionData, binding: string): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  return requestOptions(deps, session, "check", binding);
}

/** Verifies an assertion answering the check options of the same session, user and binding; the challenge is used up either way. */
export async function verifyPasskeyCheck(
  deps: AuthDeps,
  session: SessionData,
  binding: string,
  response: unknown,
): Promise<{ ok: true; passkeyId: string } | { ok: false; message: string }> {
  const asserted = await verifyAssertion(deps, session, "check", binding, response);
  if (!asserted.ok) return asserted;
  const now = iso(deps.now());
  const [used] = await deps.db.batch([
    passkeyUsedStatement(deps.db, asserted.passkey.id, session.sub, asserted.newCounter, now),
    ifChangedAuditStatement(
      actorOf(session),
      deps.db,
      deps.meta,
      { action: "auth.passkey.checked", entity: "passkey", entityId: asserted.passkey.id, after: { binding, challenge: asserted.challengeId } },
      now,
    ),
  ]);
  if ((used?.meta.changes ?? 0) !== 1) return refused(deps, session, "check", "unknown", asserted.passkey.id);
  return { ok: true, passkeyId: asserted.passkey.id };
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

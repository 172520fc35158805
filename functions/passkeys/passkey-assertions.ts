// Using a passkey: signing in with one instead of a one-time code, and the passkey half of a fresh check. Both pass the
// same checks of the assertion (verifyAssertion); what differs is what a verified one makes of the session.
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import * as v from "valibot";
import { ifChangedAuditStatement, signInAuditStatement } from "../audit/audit.db";
import { activePasskeyByCredential, activePasskeys, passkeyUsedStatement, voidWebauthnChallengesStatement, type PasskeyRow } from "./passkeys.db";
import { sessionStage, verifySessionStatement } from "../auth/sign-in-sessions.db";
import { iso, type AuthDeps } from "../auth/deps";
import { SESSION_TTL_MS, sessionCookie, type SessionData } from "../auth/session";
import { actorOf, PASSKEY, PASSKEY_MESSAGES, relyingPartyOf, transportsOf, type PasskeyRefusal } from "./passkeys";
import { b64url, ClientExtensions, newChallenge, refused, takeChallenge } from "./passkey-challenges";

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

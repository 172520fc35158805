// Adding a passkey in Settings > Security: the options the browser creates it with, and the answer checked and stored.
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import * as v from "valibot";
import { ifChangedAuditStatement } from "../audit/audit.db";
import { activePasskeys, insertPasskeyStatement } from "./passkeys.db";
import { iso, type AuthDeps } from "../auth/deps";
import type { SessionData } from "../auth/session";
import { actorOf, PASSKEY, PASSKEY_MESSAGES, relyingPartyOf, transportsOf, type PasskeyRefusal } from "./passkeys";
import { b64url, ClientExtensions, newChallenge, refused, takeChallenge } from "./passkey-challenges";

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

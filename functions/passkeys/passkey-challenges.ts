// The challenges of every passkey ceremony (adding one, signing in, a fresh check), in one place so none can be laxer:
// each is made for one session, person, purpose and binding, and used up before its answer is verified; a refused
// answer is audited the same way whatever asked for it.
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import * as v from "valibot";
import { signInAuditStatement } from "../audit/audit.db";
import {
  consumeWebauthnChallenge,
  insertWebauthnChallenge,
  voidNamedChallengeStatement,
  voidWebauthnChallengesStatement,
  type ChallengeMatch,
  type ChallengePurpose,
} from "./passkeys.db";
import { iso, type AuthDeps } from "../auth/deps";
import type { SessionData } from "../auth/session";
import { actorOf, PASSKEY, PASSKEY_MESSAGES } from "./passkeys";

/** What every answer's fields are read as: base64url text of a bounded length, and extensions left unread. */
export const b64url = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]*$/), v.maxLength(16_384));
export const ClientExtensions = v.optional(v.record(v.string(), v.unknown()), {});

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

/** A new challenge for this session, person, purpose and binding; null when the session no longer stands. */
export async function newChallenge(deps: AuthDeps, session: SessionData, purpose: ChallengePurpose, binding: string | null): Promise<string | null> {
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

/** Uses up the answer's challenge (or, when it names none of ours, every open one of the kind). */
export async function takeChallenge(deps: AuthDeps, clientDataJSON: string, match: ChallengeMatch): Promise<{ id: string; challenge: string } | null> {
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

export async function refused(
  deps: AuthDeps,
  session: SessionData,
  purpose: ChallengePurpose,
  reason: keyof typeof PASSKEY_MESSAGES,
  passkeyId: string | null,
) {
  await failureAudit(deps, session, purpose, reason, passkeyId).run();
  return { ok: false as const, message: PASSKEY_MESSAGES[reason] };
}

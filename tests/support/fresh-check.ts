// A fresh check for tests of the actions behind one (decision 027): the `fresh_checks` row a passkey or a code
// would leave, for the session of a cookie, exactly as functions/auth/fresh-check.ts writes it. The checks themselves
// (the dialog, /auth/check, codes and passkeys) have their own tests; the other tests of those actions mint one,
// as they mint a session.
import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { PLATFORM_CHECKS } from "#server/auth/fresh-check";
import { actionDataOf } from "./html";

export { checkBindings } from "#server/auth/fresh-check";

/** The session id and user of a Cookie header made by tests/support/sign-in.ts. */
export function sessionOf(cookie: { Cookie: string } | string): { sid: string; sub: string; activeBusiness: string | null } {
  const header = typeof cookie === "string" ? cookie : cookie.Cookie;
  const token = /pp_session=([^;]+)/.exec(header)?.[1];
  if (!token) throw new Error("No session cookie in that header");
  const claims = decodeJwt(token) as { sid: string; sub: string; activeBusiness: string | null };
  return { sid: claims.sid, sub: claims.sub, activeBusiness: claims.activeBusiness };
}

export interface MintedCheck {
  id: string;
}

/** A check made `ageMs` ago (5 minutes is its life) by `method`, for `binding`, in the cookie's session. */
export async function mintFreshCheck(
  core: D1Database,
  cookie: { Cookie: string } | string,
  businessId: string,
  binding: string,
  options: { method?: "passkey" | "totp" | "sms"; ageMs?: number } = {},
): Promise<MintedCheck> {
  const { sid, sub } = sessionOf(cookie);
  const id = randomUUID();
  const made = Date.now() - (options.ageMs ?? 0);
  await core
    .prepare(
      `INSERT INTO fresh_checks (id, business_id, session_id, user_id, binding, method, proof_id, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, 'test', ?, ?)`,
    )
    .bind(id, businessId, sid, sub, binding, options.method ?? "sms", new Date(made).toISOString(), new Date(made + 5 * 60_000).toISOString())
    .run();
  return { id };
}

/** Whether the check was used (by the action it allowed). */
export async function checkUsed(core: D1Database, check: MintedCheck): Promise<boolean> {
  const row = await core.prepare("SELECT used_at FROM fresh_checks WHERE id = ?").bind(check.id).first<{ used_at: string | null }>();
  return row?.used_at !== null && row?.used_at !== undefined;
}

/** The check a 428 page asks for: the action's data in the document rendered after it. */
export function askedCheck(body: string): { binding: string; passkeyOnly: boolean } | null {
  if (!body.startsWith("<")) {
    // A data request's answer (turbo-stream): the binding is one of its strings.
    const binding = /"((?:decide|transfer|refund|settlement|api-key|endpoint|phone|totp|platform):[^"\s]+)"/.exec(body)?.[1];
    return binding ? { binding, passkeyOnly: false } : null;
  }
  const data = Object.values(actionDataOf(body)) as ({ check?: { binding: string; passkeyOnly: boolean } } | null)[];
  return data.find((value) => value?.check)?.check ?? null;
}

/**
 * What the check dialog does, for tests of the actions behind a check: send; when the answer is the 428 that asks for
 * a check, make the check it names (the way a passkey or a code would) and send again.
 */
export async function sendChecked(core: D1Database, cookie: { Cookie: string } | string, send: () => Promise<Response>): Promise<Response> {
  const first = await send();
  if (first.status !== 428) return first;
  const asked = askedCheck(await first.text());
  if (!asked) throw new Error("A 428 that asks for no check");
  // Platform staff's checks are the platform's (functions/auth/fresh-check.ts PLATFORM_CHECKS), whatever business they chose.
  const businessId = asked.binding.startsWith("platform:") ? PLATFORM_CHECKS : sessionOf(cookie).activeBusiness;
  if (!businessId) throw new Error("A check is made in a business");
  await mintFreshCheck(core, cookie, businessId, asked.binding, { method: asked.passkeyOnly ? "passkey" : "sms" });
  return send();
}

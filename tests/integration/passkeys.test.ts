// Passkeys (decision 024) against real D1 in workerd, with real WebAuthn answers from a software
// authenticator (tests/support/software-authenticator.ts): adding one and signing in with it, through the
// functions (clocks injected) and through POST /authenticate/passkey of the built Worker; and every answer an
// attacker could send refused: a replay, another origin, another relying party id, another session's challenge,
// an expired challenge, a removed passkey, a check bound to something else; and the limits' 429 with Retry-After.
import { describe, expect, it } from "vitest";
import type { AuthDeps } from "#server/auth/deps";
import { PASSKEY, PASSKEY_MESSAGES, hasPasskey, removePasskey } from "#server/passkeys/passkeys";
import { passkeyCheckOptions, signInOptions, verifyPasskeyCheck, verifySignIn } from "#server/passkeys/passkey-assertions";
import { registrationOptions, verifyRegistration } from "#server/passkeys/passkey-registration";
import { isValidSession, type SessionData } from "#server/auth/session";
import { startLogin } from "#server/auth/sign-in";
import { configOf } from "#server/env";
import { SoftwareAuthenticator } from "../support/software-authenticator";
import { checkUsed, mintFreshCheck } from "../support/fresh-check";
import { KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const ORIGIN = "https://portal.example.com";
const RP_ID = "portal.example.com";
const config = configOf({ ENVIRONMENT: "development", WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN }).auth;
const HERE = { origin: ORIGIN };
let serial = 0;

class Clock {
  constructor(public ms = Date.now()) {}
  advance(ms: number) {
    this.ms += ms;
  }
}

function deps(clock: Clock): AuthDeps {
  return { db: portal().core(), businessDb: (businessId, shard) => ({ businessId, db: portal().database(shard) }), config, meta: META, now: () => clock.ms };
}

/** A fresh person (limits never carry over between tests), with names in Ghanaian letters. */
async function newUser(): Promise<{ email: string; userId: string }> {
  serial += 1;
  const db = portal().core();
  const userId = `usr_pk_${serial}_${Date.now()}`;
  const email = `passkey.${serial}.${Date.now().toString(36)}@example.com`;
  await db.batch([
    db
      .prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'unspecified', ?)")
      .bind(userId, email, `Ɔkyeame Ɛfua Ŋ ${serial}`, new Date().toISOString()),
    db
      .prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)")
      .bind(userId, `2332470${String(serial).padStart(5, "0")}`, new Date().toISOString()),
  ]);
  return { email, userId };
}

/** A session row at `stage` and the SessionData its cookie would carry. */
async function openSession(clock: Clock, user: { email: string; userId: string }, stage: SessionData["stage"]): Promise<SessionData> {
  const sid = crypto.randomUUID();
  await portal()
    .core()
    .prepare(
      "INSERT INTO sessions (id, user_id, channel, stage, business_id, ip, user_agent, created_at, expires_at) VALUES (?, ?, 'userUniqueEmail', ?, NULL, NULL, 'test', ?, ?)",
    )
    .bind(sid, user.userId, stage, new Date(clock.ms).toISOString(), new Date(clock.ms + 3_600_000).toISOString())
    .run();
  return {
    sid,
    sub: user.userId,
    email: user.email,
    authenticationChannel: "userUniqueEmail",
    stage,
    tokenExpiration: clock.ms + 3_600_000,
    returnUrl: "/login-option",
    otpToken: stage === "identified" ? null : `otp_${sid}`,
    selectedPhoneNumber: null,
    linkedNumbers: [],
    activeBusiness: null,
  };
}

/** A person with one passkey added (from a verified session), and an identified session to sign in with. */
async function withPasskey(name = "Work laptop 💻") {
  const clock = new Clock();
  const user = await newUser();
  const verified = await openSession(clock, user, "verified");
  const authenticator = await SoftwareAuthenticator.create();
  const options = await registrationOptions(deps(clock), verified);
  if ("ok" in options) throw new Error(options.message);
  const added = await verifyRegistration(deps(clock), verified, name, await authenticator.register(options, HERE));
  if (!added.ok) throw new Error(added.message);
  const signingIn = await openSession(clock, user, "identified");
  return { clock, user, verified, signingIn, authenticator, passkeyId: added.passkeyId };
}

async function signInOptionsOf(clock: Clock, session: SessionData) {
  const options = await signInOptions(deps(clock), session);
  if (!options) throw new Error("no options");
  return options;
}

async function auditActions(userId: string): Promise<string[]> {
  const { results } = await portal().core().prepare("SELECT action FROM audit_log WHERE actor_id = ? ORDER BY id").bind(userId).all<{ action: string }>();
  return results.map((row) => row.action);
}

describe("adding a passkey and signing in with it", () => {
  it("adds a passkey named in any script, then signs in with it: the session is verified as a code would make it", async () => {
    const { clock, user, signingIn, authenticator, passkeyId } = await withPasskey("Ɔdɔ Ɛyɛ Ŋ 🇬🇭 مفتاح");
    expect(await hasPasskey(portal().core(), user.userId)).toBe(true);
    const stored = await portal().core().prepare("SELECT name, counter, transports, last_used_at FROM passkeys WHERE id = ?").bind(passkeyId).first();
    expect(stored).toEqual({ name: "Ɔdɔ Ɛyɛ Ŋ 🇬🇭 مفتاح", counter: 0, transports: '["internal"]', last_used_at: null });

    const options = await signInOptionsOf(clock, signingIn);
    expect(options.rpId).toBe(RP_ID);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    const signed = await verifySignIn(new Request(`${ORIGIN}/authenticate`), deps(clock), signingIn, await authenticator.sign(options, HERE));
    expect(signed).toMatchObject({ ok: true });
    if (!signed.ok) return;
    expect(signed.session.stage).toBe("verified");
    expect(signed.session.otpToken).toMatch(/^passkey:/);
    expect(isValidSession(signed.session, clock.ms)).toBe(true);
    const row = await portal().core().prepare("SELECT stage FROM sessions WHERE id = ?").bind(signingIn.sid).first();
    expect(row).toEqual({ stage: "verified" });
    const used = await portal()
      .core()
      .prepare("SELECT counter, last_used_at FROM passkeys WHERE id = ?")
      .bind(passkeyId)
      .first<{ counter: number; last_used_at: string }>();
    expect(used).toEqual({ counter: 1, last_used_at: new Date(clock.ms).toISOString() });
    expect(await auditActions(user.userId)).toEqual(["auth.passkey.added", "auth.passkey.signed_in"]);
  });

  it("excludes passkeys already registered when adding another, and refuses the same credential twice", async () => {
    const { clock, verified, authenticator } = await withPasskey();
    const options = await registrationOptions(deps(clock), verified);
    if ("ok" in options) throw new Error(options.message);
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    expect(options.rp).toEqual({ id: RP_ID, name: "Partners Portal" });
    const again = await verifyRegistration(deps(clock), verified, "Again", await authenticator.register(options, HERE));
    expect(again).toEqual({ ok: false, message: PASSKEY_MESSAGES.alreadyAdded });
  });
});

describe("answers that are refused", () => {
  it("a replayed answer (the same response sent twice)", async () => {
    const { clock, signingIn, authenticator } = await withPasskey();
    const answer = await authenticator.sign(await signInOptionsOf(clock, signingIn), HERE);
    const request = new Request(`${ORIGIN}/authenticate`);
    expect((await verifySignIn(request, deps(clock), signingIn, answer)).ok).toBe(true);
    // Even a second session of the same person still signing in cannot use it.
    const other = await openSession(clock, { email: signingIn.email, userId: signingIn.sub }, "identified");
    expect(await verifySignIn(request, deps(clock), other, answer)).toEqual({ ok: false, message: PASSKEY_MESSAGES.noChallenge });
    const check = await portal()
      .core()
      .prepare("SELECT count(*) AS open FROM webauthn_challenges WHERE session_id = ? AND used_at IS NULL")
      .bind(signingIn.sid)
      .first();
    expect(check).toEqual({ open: 0 });
  });

  it("a replayed registration", async () => {
    const clock = new Clock();
    const user = await newUser();
    const verified = await openSession(clock, user, "verified");
    const options = await registrationOptions(deps(clock), verified);
    if ("ok" in options) throw new Error(options.message);
    const answer = await (await SoftwareAuthenticator.create()).register(options, HERE);
    expect((await verifyRegistration(deps(clock), verified, "First", answer)).ok).toBe(true);
    expect(await verifyRegistration(deps(clock), verified, "Replay", answer)).toEqual({ ok: false, message: PASSKEY_MESSAGES.noChallenge });
  });

  it("an answer from another origin, and the challenge is used up", async () => {
    const { clock, signingIn, authenticator } = await withPasskey();
    const options = await signInOptionsOf(clock, signingIn);
    const refused = await verifySignIn(
      new Request(`${ORIGIN}/authenticate`),
      deps(clock),
      signingIn,
      await authenticator.sign(options, { origin: "https://portal.example.com.evil.test" }),
    );
    expect(refused).toEqual({ ok: false, message: PASSKEY_MESSAGES.notVerified });
    // The right answer to the same challenge comes too late: it was used by the refused one.
    authenticator.counter -= 1;
    const late = await verifySignIn(new Request(`${ORIGIN}/authenticate`), deps(clock), signingIn, await authenticator.sign(options, HERE));
    expect(late).toEqual({ ok: false, message: PASSKEY_MESSAGES.noChallenge });
    expect((await portal().core().prepare("SELECT stage FROM sessions WHERE id = ?").bind(signingIn.sid).first())?.stage).toBe("identified");
  });

  it("a registration from another origin", async () => {
    const clock = new Clock();
    const user = await newUser();
    const verified = await openSession(clock, user, "verified");
    const options = await registrationOptions(deps(clock), verified);
    if ("ok" in options) throw new Error(options.message);
    const answer = await (await SoftwareAuthenticator.create()).register(options, { origin: "http://portal.example.com" });
    expect(await verifyRegistration(deps(clock), verified, "Laptop", answer)).toEqual({ ok: false, message: PASSKEY_MESSAGES.notVerified });
    expect(await hasPasskey(portal().core(), user.userId)).toBe(false);
  });

  it("an answer signed for another relying party id, at sign-in and at registration", async () => {
    const { clock, user, signingIn, authenticator } = await withPasskey();
    const options = await signInOptionsOf(clock, signingIn);
    const refused = await verifySignIn(
      new Request(`${ORIGIN}/authenticate`),
      deps(clock),
      signingIn,
      await authenticator.sign(options, { ...HERE, rpId: "example.com" }),
    );
    expect(refused).toEqual({ ok: false, message: PASSKEY_MESSAGES.notVerified });
    const verified = await openSession(clock, user, "verified");
    const adding = await registrationOptions(deps(clock), verified);
    if ("ok" in adding) throw new Error(adding.message);
    const answer = await (await SoftwareAuthenticator.create()).register(adding, { ...HERE, rpId: "evil.example" });
    expect(await verifyRegistration(deps(clock), verified, "Phone", answer)).toEqual({ ok: false, message: PASSKEY_MESSAGES.notVerified });
    expect(await auditActions(user.userId)).toContain("auth.passkey.failure");
  });

  it("an answer to another session's challenge", async () => {
    const { clock, user, signingIn, authenticator } = await withPasskey();
    const elsewhere = await openSession(clock, user, "identified");
    const theirs = await signInOptionsOf(clock, elsewhere);
    await signInOptionsOf(clock, signingIn);
    const refused = await verifySignIn(new Request(`${ORIGIN}/authenticate`), deps(clock), signingIn, await authenticator.sign(theirs, HERE));
    expect(refused).toEqual({ ok: false, message: PASSKEY_MESSAGES.noChallenge });
    expect((await portal().core().prepare("SELECT stage FROM sessions WHERE id = ?").bind(signingIn.sid).first())?.stage).toBe("identified");
  });

  it("an answer after the challenge's 2 minutes", async () => {
    const { clock, signingIn, authenticator } = await withPasskey();
    const options = await signInOptionsOf(clock, signingIn);
    const answer = await authenticator.sign(options, HERE);
    clock.advance(PASSKEY.challengeTtlMs);
    expect(await verifySignIn(new Request(`${ORIGIN}/authenticate`), deps(clock), signingIn, answer)).toEqual({
      ok: false,
      message: PASSKEY_MESSAGES.noChallenge,
    });
  });

  it("a removed passkey; and removing it signs the person's other sessions out, the current one stays", async () => {
    const { clock, user, verified, signingIn, authenticator, passkeyId } = await withPasskey();
    const elsewhere = await openSession(clock, user, "verified");
    const options = await signInOptionsOf(clock, signingIn);
    const answer = await authenticator.sign(options, HERE);
    expect(await removePasskey(deps(clock), verified, passkeyId)).toEqual({ removed: true, sessionsEnded: 2 });
    const revoked = await portal()
      .core()
      .prepare("SELECT id, revoked_at IS NOT NULL AS revoked FROM sessions WHERE id IN (?, ?, ?) ORDER BY id")
      .bind(verified.sid, elsewhere.sid, signingIn.sid)
      .all<{ id: string; revoked: number }>();
    expect(Object.fromEntries(revoked.results.map((row) => [row.id, row.revoked]))).toEqual({ [verified.sid]: 0, [elsewhere.sid]: 1, [signingIn.sid]: 1 });
    // A new sign-in: the passkey is not offered, and an answer made with it is refused.
    const fresh = await openSession(clock, user, "identified");
    expect(await signInOptions(deps(clock), fresh)).toBeNull();
    expect(await hasPasskey(portal().core(), user.userId)).toBe(false);
    expect(await verifySignIn(new Request(`${ORIGIN}/authenticate`), deps(clock), signingIn, answer)).toMatchObject({ ok: false });
    expect(await removePasskey(deps(clock), verified, passkeyId)).toEqual({ removed: false, sessionsEnded: 0 });
    expect(await auditActions(user.userId)).toEqual(expect.arrayContaining(["auth.passkey.removed", "auth.sessions_revoked"]));
  });

  it("a removed passkey of a person who still has another", async () => {
    const { clock, user, verified, authenticator, passkeyId } = await withPasskey("Old phone");
    const options = await registrationOptions(deps(clock), verified);
    if ("ok" in options) throw new Error(options.message);
    const second = await SoftwareAuthenticator.create();
    expect((await verifyRegistration(deps(clock), verified, "New phone", await second.register(options, HERE))).ok).toBe(true);
    expect((await removePasskey(deps(clock), verified, passkeyId)).removed).toBe(true);
    const fresh = await openSession(clock, user, "identified");
    const asked = await signInOptionsOf(clock, fresh);
    expect(asked.allowCredentials?.map((c) => c.id)).toEqual([second.id]);
    const refused = await verifySignIn(new Request(ORIGIN), deps(clock), fresh, await authenticator.sign(asked, HERE));
    expect(refused).toEqual({ ok: false, message: PASSKEY_MESSAGES.unknown });
    expect((await portal().core().prepare("SELECT stage FROM sessions WHERE id = ?").bind(fresh.sid).first())?.stage).toBe("identified");
  });

  it("a cloned authenticator (its counter went back)", async () => {
    const { clock, signingIn, authenticator } = await withPasskey();
    const first = await openSession(clock, { email: signingIn.email, userId: signingIn.sub }, "identified");
    expect((await verifySignIn(new Request(ORIGIN), deps(clock), first, await authenticator.sign(await signInOptionsOf(clock, first), HERE))).ok).toBe(true);
    authenticator.counter = 0;
    const cloned = await verifySignIn(new Request(ORIGIN), deps(clock), signingIn, await authenticator.sign(await signInOptionsOf(clock, signingIn), HERE));
    expect(cloned).toEqual({ ok: false, message: PASSKEY_MESSAGES.notVerified });
  });
});

describe("the fresh check's passkey half", () => {
  it("answers a check of the same binding once; another binding's answer is refused and uses its challenge up", async () => {
    const { clock, user, verified, authenticator, passkeyId } = await withPasskey();
    const options = await passkeyCheckOptions(deps(clock), verified, "transfer:tr_1");
    if (!options) throw new Error("no options");
    const answer = await authenticator.sign(options, HERE);
    expect(await verifyPasskeyCheck(deps(clock), verified, "transfer:tr_2", answer)).toEqual({ ok: false, message: PASSKEY_MESSAGES.noChallenge });
    const next = await passkeyCheckOptions(deps(clock), verified, "transfer:tr_1");
    expect(await verifyPasskeyCheck(deps(clock), verified, "transfer:tr_1", await authenticator.sign(next!, HERE))).toEqual({ ok: true, passkeyId });
    expect(await verifyPasskeyCheck(deps(clock), verified, "transfer:tr_1", answer)).toEqual({ ok: false, message: PASSKEY_MESSAGES.noChallenge });
    const nobody = await newUser();
    expect(await passkeyCheckOptions(deps(clock), await openSession(clock, nobody, "verified"), "transfer:tr_1")).toBeNull();
    expect(await auditActions(user.userId)).toContain("auth.passkey.checked");
  });

  it("a refused check answer uses the challenge up either way", async () => {
    const { clock, verified, authenticator } = await withPasskey();
    const options = await passkeyCheckOptions(deps(clock), verified, "refund:rf_1");
    const bad = await verifyPasskeyCheck(deps(clock), verified, "refund:rf_1", await authenticator.sign(options!, { origin: "https://evil.test" }));
    expect(bad).toEqual({ ok: false, message: PASSKEY_MESSAGES.notVerified });
    authenticator.counter -= 1;
    expect(await verifyPasskeyCheck(deps(clock), verified, "refund:rf_1", await authenticator.sign(options!, HERE))).toEqual({
      ok: false,
      message: PASSKEY_MESSAGES.noChallenge,
    });
  });
});

describe("POST /authenticate/passkey (the built Worker)", () => {
  const call = (cookie: string, body: unknown, ip = "198.18.77.1") =>
    portal().fetch("/authenticate/passkey", {
      method: "POST",
      host: ORIGIN,
      headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify(body),
    });
  const cookieOf = (setCookie: string | null) => setCookie!.split(";")[0]!;

  it("a body over 64 KB is refused with 413 and nothing done; one just under it is read as JSON", async () => {
    const { mintSession } = await import("../support/sign-in");
    const minted = await mintSession(await portal().db(), ORIGIN, (await newUser()).email, KUMASI);
    // Ghana's letters are two bytes each in UTF-8: 40,000 of them is under 64 K characters and over 64 KB.
    const over = await call(minted.cookieHeader, { intent: "register-options", name: "Ɛ".repeat(40_000) });
    expect(over.status).toBe(413);
    const under = await call(minted.cookieHeader, { intent: "register-options", name: "Ɛ".repeat(20_000) });
    // Read and understood: refused for its name (too long), not for its size.
    expect(under.status).toBe(400);
  });

  it("adds a passkey and signs in with it, the relying party being the request's own outside production", async () => {
    const clock = new Clock();
    const user = await newUser();
    const { mintSession } = await import("../support/sign-in");
    const minted = await mintSession(await portal().db(), ORIGIN, user.email, KUMASI);
    const authenticator = await SoftwareAuthenticator.create();
    // Adding a passkey needs a fresh check by what the person already has (decision 027): without one, 428.
    const unchecked = await call(minted.cookieHeader, { intent: "register-options", name: "Ɛsi's phone 📱" });
    expect(unchecked.status).toBe(428);
    expect((await unchecked.json<{ check: { binding: string } }>()).check.binding).toBe("passkey:add");
    const check = await mintFreshCheck(portal().core(), minted.cookieHeader, KUMASI, "passkey:add");
    const asked = await call(minted.cookieHeader, { intent: "register-options", name: "Ɛsi's phone 📱" });
    expect(asked.status).toBe(200);
    const { options } = await asked.json<{ options: Parameters<SoftwareAuthenticator["register"]>[0] }>();
    expect(options.rp.id).toBe(RP_ID);
    const added = await call(minted.cookieHeader, { intent: "register", name: "Ɛsi's phone 📱", response: await authenticator.register(options, HERE) });
    expect(added.status).toBe(200);
    // The check was used by this passkey: another needs another check.
    expect(await checkUsed(portal().core(), check)).toBe(true);
    expect((await call(minted.cookieHeader, { intent: "register-options", name: "Another" })).status).toBe(428);

    const started = await startLogin(new Request(`${ORIGIN}/login-option`), deps(clock), { email: user.email, channel: "userUniqueEmail" });
    if (!started.ok) throw new Error(started.message);
    const identified = cookieOf(started.setCookie);
    const page = await portal().fetch("/authenticate", { host: ORIGIN, headers: { Cookie: identified } });
    expect(await page.text()).toContain("Use your passkey");
    const signInAsked = await call(identified, { intent: "sign-in-options" });
    const signIn = await signInAsked.json<{ options: Parameters<SoftwareAuthenticator["sign"]>[0] }>();
    const done = await call(identified, { intent: "sign-in", response: await authenticator.sign(signIn.options, HERE) });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ location: "/select-business" });
    const next = await portal().fetch("/select-business", { host: ORIGIN, headers: { Cookie: cookieOf(done.headers.get("Set-Cookie")) } });
    expect(next.status).toBe(200);
  });

  it("refuses a name that does not do before any prompt, and a call from another site", async () => {
    const user = await newUser();
    const { mintSession } = await import("../support/sign-in");
    const minted = await mintSession(await portal().db(), ORIGIN, user.email, KUMASI);
    await mintFreshCheck(portal().core(), minted.cookieHeader, KUMASI, "passkey:add");
    const long = await call(minted.cookieHeader, { intent: "register-options", name: "🇬🇭".repeat(61) });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ message: "Keep the name to 60 characters or fewer." });
    expect((await call(minted.cookieHeader, { intent: "register-options", name: "🇬🇭".repeat(60) })).status).toBe(200);
    const forged = await portal().fetch("/authenticate/passkey", {
      method: "POST",
      host: ORIGIN,
      headers: { Cookie: minted.cookieHeader, Origin: "https://evil.test", "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "register-options", name: "x" }),
    });
    expect(forged.status).toBe(403);
  });

  it("answers 429 with Retry-After past 30 calls of one account in 10 minutes", async () => {
    const user = await newUser();
    const clock = new Clock();
    const started = await startLogin(new Request(`${ORIGIN}/login-option`), deps(clock), { email: user.email, channel: "userUniqueEmail" });
    if (!started.ok) throw new Error(started.message);
    const identified = cookieOf(started.setCookie);
    for (let i = 0; i < 30; i += 1) expect((await call(identified, { intent: "sign-in-options" }, `198.18.78.${i}`)).status).toBe(404);
    const limited = await call(identified, { intent: "sign-in-options" }, "198.18.79.1");
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await limited.json()).toEqual({ message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes?\.$/) as string });
  });
});

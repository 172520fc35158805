// The session cookie and guards against real D1 in workerd, as a browser meets them: tampering, a wrong kid, expiry,
// the SPEC validity rule, return URLs per channel, logout, sign out everywhere, key rotation, business choice and the
// cross-origin refusal.
import { describe, expect, it } from "vitest";
import type { AuthDeps } from "#server/auth/deps";
import { requireBusiness, requireIdentified, requireSession, requireVerified } from "#server/auth/guards";
import { requireSameOrigin } from "#server/auth/origin";
import { maskPhone } from "#app/lib/forms/phone";
import { requestOtp, verifyOtp } from "#server/auth/otp";
import { SignJWT } from "jose";
import {
  EXPIRED_COOKIE_GRACE_MS,
  RETURN_URL_TTL_MS,
  SESSION_IDLE_MS,
  SESSION_TTL_MS,
  returnUrlCookie,
  sessionCookie,
  type Channel,
  type SessionData,
} from "#server/auth/session";
import { NO_ACCOUNT, chooseBusiness, logout, signOutEverywhere, startLogin } from "#server/auth/sign-in";
import type { SmsMessage, SmsPort } from "#server/sms/sms";
import { configOf, type AuthConfig } from "#server/env";
import { ACCRA, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const OLD = "old-session-secret-".padEnd(40, "o");
const NEW = "new-session-secret-".padEnd(40, "n");
const config = configOf({ ENVIRONMENT: "development", SESSION_SECRET: OLD }).auth;
const ORIGIN = "https://portal.example.com";
const AMA = "ama.mensah@example.com";
const KOFI = "kofi.boateng@example.com";

// Each test's clock starts two hours after the last one's, so the hourly code
// limits of the shared demo users (5 codes a phone) never carry over.
let hours = 0;
class Clock {
  constructor(public ms = Date.now() + (hours += 2) * 3_600_000) {}
}

async function deps(clock: Clock, cfg: AuthConfig = config): Promise<AuthDeps> {
  return {
    db: portal().core(),
    businessDb: (businessId, shard) => ({ businessId, db: portal().database(shard) }),
    config: cfg,
    meta: META,
    now: () => clock.ms,
  };
}

function withCookie(setCookie: string, path = "/"): Request {
  return withCookies([setCookie], path);
}

/** A request carrying these cookies (Set-Cookie values or name=value pairs), as a browser would send them. */
function withCookies(setCookies: string[], path = "/"): Request {
  return new Request(`${ORIGIN}${path}`, { headers: { Cookie: setCookies.map((cookie) => cookie.split(";")[0]!).join("; ") } });
}

/** Runs a guard and returns the redirect it threw. */
async function redirected(guard: Promise<unknown>): Promise<{ location: string | null; setCookie: string | null }> {
  try {
    await guard;
  } catch (error) {
    if (error instanceof Response) return { location: error.headers.get("Location"), setCookie: error.headers.get("Set-Cookie") };
    throw error;
  }
  throw new Error("the guard let the request through");
}

async function identified(clock: Clock, email: string, channel: Channel = "userUniqueEmail") {
  const started = await startLogin(new Request(`${ORIGIN}/login`), await deps(clock), { email, channel });
  if (!started.ok) throw new Error(started.message);
  return started;
}

async function verified(clock: Clock, email: string, channel: Channel = "userUniqueEmail") {
  const start = await identified(clock, email, channel);
  const sent: SmsMessage[] = [];
  const sms: SmsPort = { kind: "dev-outbox", send: async (m) => void sent.push(m) };
  const msisdn = start.session.linkedNumbers[0]!;
  const otp = await requestOtp(new Request(`${ORIGIN}/authenticate`), await deps(clock), start.session, { msisdn, masked: maskPhone(msisdn) }, sms);
  if (!otp.ok) throw new Error(otp.message);
  const result = await verifyOtp(new Request(`${ORIGIN}/authenticate/verify`), await deps(clock), otp.session, /(\d{6})/.exec(sent[0]!.body)![1]!);
  if (!result.ok) throw new Error(result.message);
  // The return-URL cookie is written once, when the login starts.
  return { ...result, returnCookie: start.returnCookie };
}

describe("starting a login", () => {
  it.each([
    ["microsoft", "/login"],
    ["google", "/login"],
    ["userUniqueEmail", "/login-option"],
  ] as const)("%s stores the return URL %s and the linked numbers without duplicates", async (channel, returnUrl) => {
    const clock = new Clock();
    const { session, setCookie } = await identified(clock, "  Ama.Mensah@Example.com ", channel);
    expect(session).toMatchObject({
      email: AMA,
      authenticationChannel: channel,
      stage: "identified",
      returnUrl,
      otpToken: null,
      activeBusiness: null,
      selectedPhoneNumber: null,
    });
    expect([...session.linkedNumbers].sort()).toEqual(["233209876543", "233244123456"]);
    expect(setCookie).toMatch(/^__Host-pp_session=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=900; Secure$/);
  });

  it("uses the plain cookie name without Secure on http://localhost", async () => {
    const started = await startLogin(new Request("http://localhost:8787/login"), await deps(new Clock()), { email: AMA, channel: "google" });
    if (!started.ok) throw new Error(started.message);
    expect(started.setCookie).toMatch(/^pp_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=900$/);
  });

  it("refuses an unknown email and audits the attempt", async () => {
    const db = await portal().db();
    const before = await db.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'auth.sign_in.unknown'").first<number>("n");
    expect(await startLogin(new Request(`${ORIGIN}/login`), await deps(new Clock()), { email: "nobody@example.com", channel: "google" })).toEqual({
      ok: false,
      message: NO_ACCOUNT,
    });
    expect(await db.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'auth.sign_in.unknown' AND business_id IS NULL").first<number>("n")).toBe(
      before! + 1,
    );
  });

  it("a new login revokes the session the request carried and starts from empty fields", async () => {
    const clock = new Clock();
    const first = await verified(clock, AMA);
    const again = await startLogin(withCookie(first.setCookie), await deps(clock), { email: AMA, channel: "microsoft" });
    if (!again.ok) throw new Error(again.message);
    expect(again.session).toMatchObject({ otpToken: null, selectedPhoneNumber: null, activeBusiness: null, stage: "identified" });
    expect(again.session.sid).not.toBe(first.session.sid);
    expect(await redirected(requireSession(withCookie(first.setCookie), await deps(clock)))).toMatchObject({ location: "/login-option" });
  });
});

describe("the guards", () => {
  it("a verified session passes requireSession and requireVerified, not requireBusiness", async () => {
    const clock = new Clock();
    const { setCookie, session } = await verified(clock, AMA);
    expect((await requireSession(withCookie(setCookie), await deps(clock))).sid).toBe(session.sid);
    expect((await requireVerified(withCookie(setCookie), await deps(clock))).otpToken).toBe(session.otpToken);
    expect(await redirected(requireBusiness(withCookie(setCookie), await deps(clock)))).toEqual({ location: "/select-business", setCookie: null });
  });

  it("SPEC validity: without an otp token the session is cleared and the user goes to the return URL", async () => {
    const clock = new Clock();
    for (const [channel, returnUrl] of [
      ["userUniqueEmail", "/login-option"],
      ["microsoft", "/login"],
    ] as const) {
      const { setCookie } = await identified(clock, KOFI, channel);
      expect((await requireIdentified(withCookie(setCookie), await deps(clock))).email).toBe(KOFI);
      const away = await redirected(requireSession(withCookie(setCookie), await deps(clock)));
      expect(away.location).toBe(returnUrl);
      expect(away.setCookie).toBe("__Host-pp_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
    }
  });

  it("SPEC validity: without an email, or past the token expiration, the session is refused", async () => {
    const clock = new Clock();
    const { session, setCookie } = await verified(clock, AMA, "google");
    const noEmail = await sessionCookie(new Request(ORIGIN), config, { ...session, email: "" }, clock.ms);
    expect(await redirected(requireSession(withCookie(noEmail), await deps(clock)))).toMatchObject({ location: "/login" });
    // Within the idle limit (decision 026) the session stands; past the token expiration it has ended.
    const later = new Clock(clock.ms + SESSION_IDLE_MS - 1);
    expect((await requireSession(withCookie(setCookie), await deps(later))).sid).toBe(session.sid);
    const expired = new Clock(session.tokenExpiration);
    const away = await redirected(requireSession(withCookie(setCookie), await deps(expired)));
    expect(away.location).toBe("/login?ended=absolute");
    expect(away.setCookie).toMatch(/Max-Age=0/);
    expect(session.tokenExpiration - clock.ms).toBe(SESSION_TTL_MS);
  });

  it("refuses a tampered cookie and one signed with an unknown key (wrong kid)", async () => {
    const clock = new Clock();
    const { session, setCookie } = await verified(clock, AMA);
    const token = setCookie.split(";")[0]!.split("=")[1]!;
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as SessionData;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "usr_kofi_boateng" })).toString("base64url");
    for (const bad of [`${header}.${forged}.${signature}`, `${header}.${payload}.${signature.slice(0, -2)}AA`, "not-a-jwt"]) {
      expect(await redirected(requireSession(new Request(ORIGIN, { headers: { Cookie: `__Host-pp_session=${bad}` } }), await deps(clock)))).toMatchObject({
        location: "/login",
        setCookie: expect.stringMatching(/Max-Age=0/) as string,
      });
    }
    const stranger = configOf({ ENVIRONMENT: "development", SESSION_SECRET: "x".repeat(40) }).auth;
    const wrongKid = await sessionCookie(new Request(ORIGIN), stranger, session, clock.ms);
    expect(await redirected(requireSession(withCookie(wrongKid), await deps(clock)))).toMatchObject({ location: "/login" });
  });

  it("key rotation: an old-key cookie is accepted with SESSION_SECRET_PREVIOUS, new cookies use the new key", async () => {
    const clock = new Clock();
    const { setCookie } = await verified(clock, AMA);
    const rotated = configOf({ ENVIRONMENT: "development", SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: OLD }).auth;
    const session = await requireSession(withCookie(setCookie), await deps(clock, rotated));
    const fresh = await chooseBusiness(new Request(ORIGIN), await deps(clock, rotated), session, KUMASI);
    if (!fresh.ok) throw new Error(fresh.message);
    const newOnly = configOf({ ENVIRONMENT: "development", SESSION_SECRET: NEW }).auth;
    expect((await requireBusiness(withCookie(fresh.setCookie), await deps(clock, newOnly))).tenant.businessId).toBe(KUMASI);
    // Once the old key is dropped its cookies are refused (an unknown kid: nothing in them is trusted, so /login).
    expect(await redirected(requireSession(withCookie(setCookie), await deps(clock, newOnly)))).toMatchObject({ location: "/login" });
  });

  it("requireBusiness gives the tenant, and sends a user who lost access back to /select-business", async () => {
    const clock = new Clock();
    const { session } = await verified(clock, KOFI);
    expect(await chooseBusiness(new Request(ORIGIN), await deps(clock), session, ACCRA)).toEqual({
      ok: false,
      message: "You do not have access to this business.",
    });
    const chosen = await chooseBusiness(new Request(ORIGIN), await deps(clock), session, KUMASI);
    if (!chosen.ok) throw new Error(chosen.message);
    expect(chosen.session).toMatchObject({ stage: "business_chosen", activeBusiness: KUMASI });
    expect((await requireBusiness(withCookie(chosen.setCookie), await deps(clock))).tenant).toMatchObject({
      businessId: KUMASI,
      userId: "usr_kofi_boateng",
      role: "Administrator",
    });
    const db = await portal().db();
    await db.prepare("UPDATE memberships SET status = 'deactivated' WHERE business_id = ? AND user_id = 'usr_kofi_boateng'").bind(KUMASI).run();
    try {
      expect(await redirected(requireBusiness(withCookie(chosen.setCookie), await deps(clock)))).toEqual({ location: "/select-business", setCookie: null });
    } finally {
      await db.prepare("UPDATE memberships SET status = 'active' WHERE business_id = ? AND user_id = 'usr_kofi_boateng'").bind(KUMASI).run();
    }
  });
});

describe("logout and sign out everywhere", () => {
  it("logout revokes the session, clears the cookie and is audited", async () => {
    const clock = new Clock();
    const { setCookie, session } = await verified(clock, AMA);
    const out = await logout(withCookie(setCookie), await deps(clock));
    expect(out.setCookie).toBe("__Host-pp_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
    expect(await redirected(requireSession(withCookie(setCookie), await deps(clock)))).toMatchObject({ location: "/login-option" });
    const db = await portal().db();
    expect(await db.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'auth.logout' AND entity_id = ?").bind(session.sid).first("n")).toBe(1);
  });

  it("sign out everywhere refuses every session of the user at its next request, and no one else's", async () => {
    const clock = new Clock();
    const phone = await verified(clock, AMA, "microsoft");
    const laptop = await verified(clock, AMA, "google");
    const chosen = await chooseBusiness(new Request(ORIGIN), await deps(clock), laptop.session, KUMASI);
    if (!chosen.ok) throw new Error(chosen.message);
    const someoneElse = await verified(clock, KOFI);
    const result = await signOutEverywhere(withCookie(phone.setCookie), await deps(clock), phone.session);
    expect(result.revoked).toBeGreaterThanOrEqual(2);
    for (const cookie of [phone.setCookie, laptop.setCookie, chosen.setCookie]) {
      expect(await redirected(requireSession(withCookie(cookie), await deps(clock)))).toMatchObject({
        location: "/login",
        setCookie: expect.stringMatching(/Max-Age=0/) as string,
      });
    }
    expect((await requireSession(withCookie(someoneElse.setCookie), await deps(clock))).email).toBe(KOFI);
    const db = await portal().db();
    expect(await db.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = 'usr_ama_mensah' AND revoked_at IS NULL").first("n")).toBe(0);
    expect(await db.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'auth.sign_out_everywhere' AND actor_id = 'usr_ama_mensah'").first("n")).toBe(
      1,
    );
  });
});

describe("the stored return URL outlives the session (SPEC section 2)", () => {
  const RETURN_COOKIE = /^__Host-pp_return=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/;

  it("a login stores its channel's return URL in a signed, HttpOnly cookie that lives weeks, not the session's minutes", async () => {
    const started = await identified(new Clock(), AMA, "userUniqueEmail");
    expect(started.returnCookie).toMatch(RETURN_COOKIE);
    expect(RETURN_URL_TTL_MS).toBeGreaterThan(SESSION_TTL_MS * 2);
    const local = await startLogin(new Request("http://localhost:8787/login"), await deps(new Clock()), { email: AMA, channel: "google" });
    if (!local.ok) throw new Error(local.message);
    expect(local.returnCookie).toMatch(/^pp_return=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
  });

  it.each([
    ["userUniqueEmail", "/login-option"],
    ["microsoft", "/login"],
    ["google", "/login"],
  ] as const)("expired: once the browser has dropped the session cookie, a %s user goes to %s", async (channel, returnUrl) => {
    const clock = new Clock();
    const { setCookie, returnCookie, session } = await verified(clock, AMA, channel);
    // The cookie outlives the token a while (decision 026), so the sign-in page can say why the session ended.
    expect(setCookie).toContain(`Max-Age=${(SESSION_TTL_MS + EXPIRED_COOKIE_GRACE_MS) / 1000}`);
    const later = new Clock(session.tokenExpiration + EXPIRED_COOKIE_GRACE_MS + 60_000);
    // The session cookie's Max-Age has run out: the browser sends the return-URL cookie alone.
    const away = await redirected(requireSession(withCookies([returnCookie]), await deps(later)));
    expect(away).toEqual({ location: returnUrl, setCookie: null });
    // Had it still been sent, the expired token says the same, and why.
    expect(await redirected(requireSession(withCookies([setCookie, returnCookie]), await deps(later)))).toMatchObject({
      location: `${returnUrl}?ended=absolute`,
    });
  });

  it("without a stored return URL (or after it expires) the way is /login", async () => {
    const clock = new Clock();
    const { returnCookie } = await identified(clock, AMA, "userUniqueEmail");
    expect(await redirected(requireSession(new Request(ORIGIN), await deps(clock)))).toEqual({ location: "/login", setCookie: null });
    const weeksLater = new Clock(clock.ms + RETURN_URL_TTL_MS + 1000);
    expect(await redirected(requireSession(withCookies([returnCookie]), await deps(weeksLater)))).toMatchObject({ location: "/login" });
  });

  it("revoked or signed out: the return URL stays, so the next visit goes to /login-option, then and later", async () => {
    const clock = new Clock();
    const { setCookie, returnCookie } = await verified(clock, AMA);
    const out = await logout(withCookies([setCookie, returnCookie]), await deps(clock));
    // Logout clears the session cookie and nothing else (SPEC section 4 does not list the return URL).
    expect(out.setCookie).toMatch(/^__Host-pp_session=;/);
    expect(await redirected(requireSession(withCookies([setCookie, returnCookie]), await deps(clock)))).toMatchObject({ location: "/login-option" });
    expect(await redirected(requireSession(withCookies([returnCookie]), await deps(clock)))).toEqual({ location: "/login-option", setCookie: null });
    // A session cookie nothing in can be trusted is cleared; the return URL still counts.
    expect(await redirected(requireSession(withCookies(["__Host-pp_session=not-a-jwt", returnCookie]), await deps(clock)))).toMatchObject({
      location: "/login-option",
      setCookie: expect.stringMatching(/^__Host-pp_session=;.*Max-Age=0/) as string,
    });
  });

  it("a forged, altered or borrowed return cookie is ignored: /login, never another address", async () => {
    const clock = new Clock();
    const work = await identified(clock, AMA, "microsoft");
    const token = work.returnCookie.split(";")[0]!.slice("__Host-pp_return=".length);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    expect(claims.returnUrl).toBe("/login");
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const stranger = configOf({ ENVIRONMENT: "development", SESSION_SECRET: "x".repeat(40) }).auth;
    const unique = await identified(clock, AMA, "userUniqueEmail");
    const forgeries = [
      // The payload changed to the other page, the signature kept.
      `${header}.${encode({ ...claims, returnUrl: "/login-option" })}.${signature}`,
      // An open redirect, unsigned.
      `${encode({ alg: "none", typ: "JWT" })}.${encode({ ...claims, returnUrl: "https://evil.example/login" })}.`,
      // Signed, but with another portal's key.
      (await returnUrlCookie(new Request(ORIGIN), stranger, "/login-option", clock.ms)).split(";")[0]!.split("=")[1]!,
      // The portal's own session token (it carries returnUrl "/login-option") is not a return cookie.
      unique.setCookie.split(";")[0]!.split("=")[1]!,
      // Signed with a key this test made up under the portal's kid.
      await new SignJWT({ returnUrl: "https://evil.example" })
        .setProtectedHeader({ alg: "HS256", kid: JSON.parse(Buffer.from(header, "base64url").toString()).kid as string })
        .sign(new TextEncoder().encode("guess")),
      "/login-option",
      "https://evil.example",
    ];
    for (const forged of forgeries) {
      expect(await redirected(requireSession(withCookies([`__Host-pp_return=${forged}`]), await deps(clock))), forged).toEqual({
        location: "/login",
        setCookie: null,
      });
    }
    // The genuine one of the work account is honoured as it is.
    expect(await redirected(requireSession(withCookies([work.returnCookie]), await deps(clock)))).toMatchObject({ location: "/login" });
    expect(await redirected(requireSession(withCookies([unique.returnCookie]), await deps(clock)))).toMatchObject({ location: "/login-option" });
  });

  it("key rotation: a return cookie signed with the previous key still counts", async () => {
    const clock = new Clock();
    const { returnCookie } = await identified(clock, AMA, "userUniqueEmail");
    const rotated = configOf({ ENVIRONMENT: "development", SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: OLD }).auth;
    expect(await redirected(requireSession(withCookies([returnCookie]), await deps(clock, rotated)))).toMatchObject({ location: "/login-option" });
    const newOnly = configOf({ ENVIRONMENT: "development", SESSION_SECRET: NEW }).auth;
    expect(await redirected(requireSession(withCookies([returnCookie]), await deps(clock, newOnly)))).toMatchObject({ location: "/login" });
  });
});

describe("requireSameOrigin", () => {
  async function status(init: RequestInit): Promise<number> {
    try {
      requireSameOrigin(new Request(`${ORIGIN}/logout`, init));
      return 200;
    } catch (error) {
      return (error as { init?: { status?: number } }).init?.status ?? -1;
    }
  }

  it("refuses a state-changing request from another origin with 403, allows the site's own and safe methods", async () => {
    expect(await status({ method: "POST", headers: { Origin: "https://evil.example" } })).toBe(403);
    expect(await status({ method: "POST", headers: { "Sec-Fetch-Site": "cross-site", Origin: ORIGIN } })).toBe(403);
    expect(await status({ method: "POST", headers: { "Sec-Fetch-Site": "same-site" } })).toBe(403);
    expect(await status({ method: "DELETE" })).toBe(403);
    expect(await status({ method: "POST", headers: { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" } })).toBe(200);
    expect(await status({ method: "POST", headers: { Origin: ORIGIN } })).toBe(200);
    expect(await status({ method: "GET", headers: { Origin: "https://evil.example" } })).toBe(200);
  });
});

// One-time codes against real D1 in workerd, where their conditional UPDATEs and hourly counts really race: every rule
// and limit, the SMS gateway adapter against a local fake gateway, and the dev outbox page. The functions run here in
// node against the portal's D1; clocks are injected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthDeps } from "#server/auth/deps";
import { maskPhone } from "#app/lib/forms/phone";
import { OTP, codeHmac } from "#server/auth/one-time-codes";
import { OTP_MESSAGES, requestOtp, verifyOtp } from "#server/auth/otp";
import type { SessionData } from "#server/auth/session";
import { startLogin } from "#server/auth/sign-in";
import { SmsDeliveryError, devOutbox, httpSmsGateway, type SmsMessage, type SmsPort } from "#server/sms/sms";
import { configOf } from "#server/env";
import { startFakeSmsGateway, type FakeSmsGateway } from "../support/fake-sms-gateway";
import { startPortal, type Portal } from "../support/portal";
import { TEMPLATE_STATE } from "../support/state";
import { META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { NOT_A_NOTICE } from "../support/sms-texts";

const portal = usePortal();
const config = configOf({ ENVIRONMENT: "development" }).auth;
const PAGE = "https://portal.example.com/authenticate";
let serial = 0;

/** A fresh user (so limits never carry over between tests) with its own phone numbers. */
async function newUser(phoneCount = 1): Promise<{ email: string; userId: string; phones: string[] }> {
  serial += 1;
  const db = await portal().db();
  const userId = `usr_otp_${serial}`;
  const email = `otp.${serial}@example.com`;
  const phones = Array.from({ length: phoneCount }, (_, i) => `23324${String(serial).padStart(5, "0")}${i}${i}`.slice(0, 12));
  await db.batch([
    db
      .prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'unspecified', ?)")
      .bind(userId, email, `Otp User ${serial}`, new Date().toISOString()),
    ...phones.map((msisdn) =>
      db.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(userId, msisdn, new Date().toISOString()),
    ),
  ]);
  return { email, userId, phones };
}

class Clock {
  constructor(public ms = Date.now()) {}
  advance(ms: number) {
    this.ms += ms;
  }
}

function capture(): SmsPort & { sent: SmsMessage[]; lastCode(): string } {
  const sent: SmsMessage[] = [];
  return {
    kind: "dev-outbox",
    sent,
    send: async (message) => {
      sent.push(message);
    },
    lastCode() {
      const match = /\b(\d{6})\b/.exec(sent.at(-1)?.body ?? "");
      if (!match) throw new Error("no code sent");
      return match[1]!;
    },
  };
}

async function deps(clock: Clock): Promise<AuthDeps> {
  return { db: portal().core(), businessDb: (businessId, shard) => ({ businessId, db: portal().database(shard) }), config, meta: META, now: () => clock.ms };
}

async function login(clock: Clock, email: string): Promise<SessionData> {
  const started = await startLogin(new Request(PAGE), await deps(clock), { email, channel: "userUniqueEmail" });
  if (!started.ok) throw new Error(started.message);
  return started.session;
}

async function send(clock: Clock, session: SessionData, msisdn: string, sms: SmsPort) {
  return requestOtp(new Request(PAGE), await deps(clock), session, { msisdn, masked: maskPhone(msisdn) }, sms);
}

async function verify(clock: Clock, session: SessionData, code: string) {
  return verifyOtp(new Request(PAGE), await deps(clock), session, code);
}

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

/** A new person, signed in, with a code sent to their first phone. */
async function codeSent() {
  const clock = new Clock();
  const user = await newUser();
  const session = await login(clock, user.email);
  const sms = capture();
  const sent = await send(clock, session, user.phones[0]!, sms);
  if (!sent.ok) throw new Error(sent.message);
  return { clock, user, session, sms, sent };
}

async function audit(userId: string, action: string) {
  const db = await portal().db();
  const { results } = await db
    .prepare("SELECT business_id, entity, entity_id, after_json, ip, request_id FROM audit_log WHERE actor_id = ? AND action = ? ORDER BY id")
    .bind(userId, action)
    .all();
  return results;
}

describe("sending a code", () => {
  it("sends 6 digits, stores only their HMAC bound to the session, and audits the send", async () => {
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const sms = capture();
    const sent = await send(clock, session, user.phones[0]!, sms);
    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    const code = sms.lastCode();
    expect(sms.sent).toEqual([{ to: user.phones[0], body: expect.stringContaining(code) as string }]);
    expect(sent.session.selectedPhoneNumber).toBe(user.phones[0]);
    const db = await portal().db();
    const row = await db.prepare("SELECT * FROM otp_challenges WHERE id = ?").bind(sent.challengeId).first<Record<string, unknown>>();
    expect(row).toMatchObject({ session_id: session.sid, user_id: user.userId, msisdn: user.phones[0], attempts: 0, consumed_at: null });
    expect(row!.code_hmac).toBe(await codeHmac(config.otpSecret, sent.challengeId, code));
    expect(row!.code_hmac).toMatch(/^[0-9a-f]{64}$/);
    for (const value of Object.values(row!)) expect(String(value)).not.toContain(code);
    expect(Date.parse(String(row!.expires_at)) - Date.parse(String(row!.created_at))).toBe(5 * 60_000);
    const sends = await audit(user.userId, "auth.otp.sent");
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ business_id: null, entity: "otp_challenge", entity_id: sent.challengeId, ip: META.ip, request_id: META.requestId });
    expect(String(sends[0]!.after_json)).not.toContain(code);
    expect(String(sends[0]!.after_json)).not.toContain(user.phones[0]);
    expect(JSON.parse(String(sends[0]!.after_json))).toMatchObject({ to: maskPhone(user.phones[0]!) });
    // A caller that forgot to mask is stopped before anything is written.
    await expect(requestOtp(new Request(PAGE), await deps(clock), session, { msisdn: user.phones[0]!, masked: user.phones[0]! }, sms)).rejects.toThrow(
      /masked/,
    );
  });

  it("refuses a phone number that is not linked to the account", async () => {
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const sms = capture();
    expect(await send(clock, session, "233209999999", sms)).toMatchObject({ ok: false, reason: "notLinked", message: OTP_MESSAGES.notLinked });
    expect(sms.sent).toHaveLength(0);
  });

  it("refuses a resend within the 60 s cooldown, then replaces the old code", async () => {
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const sms = capture();
    expect((await send(clock, session, user.phones[0]!, sms)).ok).toBe(true);
    const first = sms.lastCode();
    clock.advance(59_000);
    expect(await send(clock, session, user.phones[0]!, sms)).toMatchObject({
      ok: false,
      reason: "cooldown",
      message: OTP_MESSAGES.cooldown(1),
      retryAfterSeconds: 1,
    });
    expect(sms.sent).toHaveLength(1);
    clock.advance(1_000);
    expect((await send(clock, session, user.phones[0]!, sms)).ok).toBe(true);
    const second = sms.lastCode();
    if (first !== second) expect(await verify(clock, session, first)).toMatchObject({ ok: false, reason: "wrong" });
    expect((await verify(clock, session, second)).ok).toBe(true);
  });

  it("sends at most 5 codes per phone number an hour, exactly, under concurrent requests", async () => {
    const clock = new Clock();
    const user = await newUser();
    const sessions = await Promise.all(Array.from({ length: 12 }, () => login(clock, user.email)));
    const sms = capture();
    const results = await Promise.all(sessions.map((session) => send(clock, session, user.phones[0]!, sms)));
    expect(results.filter((r) => r.ok)).toHaveLength(OTP.phoneSendsPerWindow);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r).toMatchObject({ reason: "phoneLimit", message: OTP_MESSAGES.phoneLimit(60) });
    expect(sms.sent).toHaveLength(5);
    const db = await portal().db();
    expect(await db.prepare("SELECT sends FROM otp_counters WHERE scope = 'phone' AND key = ?").bind(user.phones[0]).first("sends")).toBe(5);
    expect(await db.prepare("SELECT count(*) AS n FROM otp_challenges WHERE msisdn = ?").bind(user.phones[0]).first("n")).toBe(5);
    // A minute before the hour is up: still refused; at the hour: a new window.
    clock.advance(OTP.windowMs - 60_000);
    const late = await login(clock, user.email);
    expect(await send(clock, late, user.phones[0]!, sms)).toMatchObject({ ok: false, reason: "phoneLimit", message: OTP_MESSAGES.phoneLimit(1) });
    clock.advance(60_000);
    expect((await send(clock, late, user.phones[0]!, sms)).ok).toBe(true);
  });

  it("sends at most 10 codes per account an hour, exactly, under concurrent requests", async () => {
    const clock = new Clock();
    const user = await newUser(3);
    const sessions = await Promise.all(Array.from({ length: 15 }, () => login(clock, user.email)));
    const sms = capture();
    const results = await Promise.all(sessions.map((session, i) => send(clock, session, user.phones[i % 3]!, sms)));
    expect(results.filter((r) => r.ok)).toHaveLength(OTP.accountSendsPerWindow);
    for (const r of results.filter((r) => !r.ok)) expect(r).toMatchObject({ reason: "accountLimit", message: OTP_MESSAGES.accountLimit(60) });
    expect(sms.sent).toHaveLength(10);
    const db = await portal().db();
    expect(await db.prepare("SELECT sends FROM otp_counters WHERE scope = 'account' AND key = ?").bind(user.userId).first("sends")).toBe(10);
  });

  it("refuses to send when no SMS port exists (production without a gateway)", async () => {
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    expect(await send(clock, session, user.phones[0]!, null as unknown as SmsPort)).toMatchObject({ ok: false, reason: "noSms" });
  });
});

describe("verifying a code", () => {
  it("the right code verifies the session once: a new token with the otp token, the row moves to verified", async () => {
    const { clock, user, session, sms, sent } = await codeSent();
    clock.advance(10_000);
    const verified = await verify(clock, sent.session, sms.lastCode());
    expect(verified).toMatchObject({
      ok: true,
      session: { stage: "verified", otpToken: sent.challengeId, selectedPhoneNumber: user.phones[0], email: user.email },
    });
    if (!verified.ok) return;
    // 12 hours, and 12 more in which the expired token still tells the sign-in page why (decision 026).
    expect(verified.setCookie).toMatch(/^__Host-pp_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400; Secure$/);
    const db = await portal().db();
    expect(await db.prepare("SELECT stage FROM sessions WHERE id = ?").bind(session.sid).first("stage")).toBe("verified");
    expect(await audit(user.userId, "auth.otp.verified")).toHaveLength(1);
    // Single use: the same code again (with the earlier token) is refused.
    expect(await verify(clock, sent.session, sms.lastCode())).toMatchObject({ ok: false, reason: "used", message: OTP_MESSAGES.used });
  });

  it("two concurrent requests with the right code: exactly one verifies", async () => {
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const sms = capture();
    expect((await send(clock, session, user.phones[0]!, sms)).ok).toBe(true);
    const results = await Promise.all(Array.from({ length: 4 }, () => verify(clock, session, sms.lastCode())));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok)) expect(r).toMatchObject({ reason: "used" });
  });

  it("is valid for 5 minutes and no longer", async () => {
    const clock = new Clock();
    const user = await newUser();
    const sms = capture();
    const early = await login(clock, user.email);
    expect((await send(clock, early, user.phones[0]!, sms)).ok).toBe(true);
    clock.advance(OTP.ttlMs - 1);
    expect((await verify(clock, early, sms.lastCode())).ok).toBe(true);
    const late = await login(clock, user.email);
    expect((await send(clock, late, user.phones[0]!, sms)).ok).toBe(true);
    clock.advance(OTP.ttlMs);
    expect(await verify(clock, late, sms.lastCode())).toMatchObject({ ok: false, reason: "expired", message: OTP_MESSAGES.expired });
  });

  it("allows 5 tries per code, then refuses even the right code, and audits each failure and the lockout", async () => {
    const { clock, user, session, sms, sent } = await codeSent();
    const wrong = wrongOf(sms.lastCode());
    for (let left = 4; left >= 1; left -= 1)
      expect(await verify(clock, session, wrong)).toMatchObject({ ok: false, reason: "wrong", message: OTP_MESSAGES.wrong(left) });
    expect(await verify(clock, session, wrong)).toMatchObject({ ok: false, reason: "noTriesLeft", message: OTP_MESSAGES.noTriesLeft });
    expect(await verify(clock, session, sms.lastCode())).toMatchObject({ ok: false, reason: "noTriesLeft" });
    const db = await portal().db();
    expect(await db.prepare("SELECT attempts FROM otp_challenges WHERE id = ?").bind(sent.challengeId).first("attempts")).toBe(5);
    expect(await audit(user.userId, "auth.otp.failure")).toHaveLength(5);
    const lockouts = await audit(user.userId, "auth.otp.lockout");
    expect(lockouts).toHaveLength(1);
    expect(JSON.parse(String(lockouts[0]!.after_json))).toEqual({ scope: "code", tries: 5 });
  });

  it("is bound to the session that asked for it", async () => {
    const clock = new Clock();
    const user = await newUser();
    const asker = await login(clock, user.email);
    const other = await login(clock, user.email);
    const sms = capture();
    const sent = await send(clock, asker, user.phones[0]!, sms);
    if (!sent.ok) throw new Error(sent.message);
    expect(await verify(clock, other, sms.lastCode())).toMatchObject({ ok: false, reason: "noCode", message: OTP_MESSAGES.noCode });
    const db = await portal().db();
    expect(await db.prepare("SELECT attempts FROM otp_challenges WHERE id = ?").bind(sent.challengeId).first("attempts")).toBe(0);
    expect((await verify(clock, asker, sms.lastCode())).ok).toBe(true);
  });

  it("refuses a code that is not 6 digits without using a try", async () => {
    const { clock, session, sent } = await codeSent();
    for (const typed of ["12345", "1234567", "abcdef", ""]) expect(await verify(clock, session, typed)).toMatchObject({ ok: false, reason: "malformed" });
    const db = await portal().db();
    expect(await db.prepare("SELECT attempts FROM otp_challenges WHERE id = ?").bind(sent.challengeId).first("attempts")).toBe(0);
  });

  it("locks the account for the rest of the hour after 20 wrong codes, sends and checks refused", async () => {
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const sms = capture();
    let last: Awaited<ReturnType<typeof verify>> | undefined;
    for (let code = 0; code < 4; code += 1) {
      expect((await send(clock, session, user.phones[0]!, sms)).ok).toBe(true);
      for (let i = 0; i < 5; i += 1) last = await verify(clock, session, wrongOf(sms.lastCode()));
      clock.advance(OTP.resendCooldownMs);
    }
    expect(last).toMatchObject({ ok: false, reason: "lockedOut" });
    expect(await send(clock, session, user.phones[0]!, sms)).toMatchObject({ ok: false, reason: "lockedOut", message: OTP_MESSAGES.lockedOut(56) });
    expect(sms.sent).toHaveLength(4);
    const db = await portal().db();
    expect(await db.prepare("SELECT failures FROM otp_counters WHERE scope = 'account' AND key = ?").bind(user.userId).first("failures")).toBe(20);
    const lockouts = (await audit(user.userId, "auth.otp.lockout")).map((row) => JSON.parse(String(row.after_json)) as { scope: string });
    expect(lockouts.filter((l) => l.scope === "account")).toHaveLength(1);
    clock.advance(OTP.windowMs);
    expect((await send(clock, session, user.phones[0]!, sms)).ok).toBe(true);
  });
});

describe("the SMS gateway adapter against a local fake gateway", () => {
  let gateway: FakeSmsGateway;
  beforeAll(async () => {
    gateway = await startFakeSmsGateway();
  });
  afterAll(() => gateway?.close());

  it("posts the code as JSON with the bearer token; the code is nowhere in D1", async () => {
    gateway.mode = "up";
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const sms = httpSmsGateway({ url: gateway.url, token: "gateway-token-123" });
    const before = gateway.requests.length;
    const sent = await send(clock, session, user.phones[0]!, sms);
    expect(sent.ok).toBe(true);
    expect(gateway.requests.slice(before)).toEqual([
      {
        method: "POST",
        authorization: "Bearer gateway-token-123",
        contentType: "application/json",
        body: { to: user.phones[0], body: expect.stringMatching(/\b\d{6}\b/) as string },
      },
    ]);
    const code = /\b(\d{6})\b/.exec((gateway.requests.at(-1)!.body as { body: string }).body)![1]!;
    const db = await portal().db();
    expect(await db.prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE} AND to_msisdn = ?`).bind(user.phones[0]).first("n")).toBe(0);
    expect(await db.prepare("SELECT count(*) AS n FROM audit_log WHERE after_json LIKE ?").bind(`%${code}%`).first("n")).toBe(0);
    expect((await verify(clock, session, code)).ok).toBe(true);
  });

  it("a failing gateway: the code is discarded, the failure audited, and a retry is not held up", async () => {
    gateway.mode = "down";
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const sms = httpSmsGateway({ url: gateway.url, token: "gateway-token-123" });
    await expect(sms.send({ to: user.phones[0]!, body: "x" })).rejects.toThrow(new SmsDeliveryError("SMS gateway answered 503"));
    expect(await send(clock, session, user.phones[0]!, sms)).toMatchObject({ ok: false, reason: "deliveryFailed", message: OTP_MESSAGES.deliveryFailed });
    const db = await portal().db();
    expect(await db.prepare("SELECT count(*) AS n FROM otp_challenges WHERE session_id = ?").bind(session.sid).first("n")).toBe(0);
    expect(await audit(user.userId, "auth.otp.send_failed")).toHaveLength(1);
    gateway.mode = "up";
    expect((await send(clock, session, user.phones[0]!, sms)).ok).toBe(true);
  });

  it("an unreachable or silent gateway is a delivery error", async () => {
    const closed = await startFakeSmsGateway();
    const url = closed.url;
    await closed.close();
    await expect(httpSmsGateway({ url, token: "t" }).send({ to: "233244000000", body: "x" })).rejects.toBeInstanceOf(SmsDeliveryError);
    gateway.mode = "hang";
    await expect(httpSmsGateway({ url: gateway.url, token: "t", timeoutMs: 200 }).send({ to: "233244000000", body: "x" })).rejects.toBeInstanceOf(
      SmsDeliveryError,
    );
    gateway.mode = "up";
  });
});

describe("/__dev/outbox", () => {
  it("lists the dev outbox newest first, as JSON and as HTML", async () => {
    const db = await portal().db();
    const outbox = devOutbox(db, () => Date.parse("2026-05-01T10:00:00.000Z"));
    await outbox.send({ to: "233244000001", body: "Your Partners Portal code is 111111." });
    await devOutbox(db, () => Date.parse("2026-05-01T10:01:00.000Z")).send({ to: "233244000002", body: "Your Partners Portal code is 222222." });
    const response = await portal().fetch("/__dev/outbox", { headers: { Accept: "application/json" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    const listing = await response.json<{ total: number; messages: { to: string; body: string; createdAt: string }[] }>();
    expect(listing.messages.slice(0, 2)).toEqual([
      { to: "233244000002", body: "Your Partners Portal code is 222222.", createdAt: "2026-05-01T10:01:00.000Z" },
      { to: "233244000001", body: "Your Partners Portal code is 111111.", createdAt: "2026-05-01T10:00:00.000Z" },
    ]);
    expect(listing.total).toBeGreaterThanOrEqual(2);
    const html = await portal().fetch("/__dev/outbox");
    expect(html.status).toBe(200);
    expect(html.headers.get("Content-Type")).toMatch(/text\/html/);
    const text = await html.text();
    expect(text).toContain("<h1>Dev outbox</h1>");
    expect(text.indexOf("222222")).toBeGreaterThan(-1);
    expect(text.indexOf("222222")).toBeLessThan(text.indexOf("111111"));
  });

  it("a code sent through the dev outbox port shows there", async () => {
    const clock = new Clock();
    const user = await newUser();
    const session = await login(clock, user.email);
    const db = await portal().db();
    expect(
      (
        await send(
          clock,
          session,
          user.phones[0]!,
          devOutbox(db, () => clock.ms),
        )
      ).ok,
    ).toBe(true);
    const listing = await (
      await portal().fetch("/__dev/outbox?limit=1", { headers: { Accept: "application/json" } })
    ).json<{ messages: { to: string; body: string }[] }>();
    expect(listing.messages).toHaveLength(1);
    expect(listing.messages[0]).toMatchObject({ to: user.phones[0], body: expect.stringMatching(/\b\d{6}\b/) as string });
  });

  it("is a 404 in production, as HTML and as JSON", async () => {
    const production: Portal = await startPortal({ template: TEMPLATE_STATE, vars: { ENVIRONMENT: "production", SESSION_SECRET: "p".repeat(40) } });
    try {
      const html = await production.fetch("/__dev/outbox");
      expect(html.status).toBe(404);
      expect(await html.text()).toContain("Page Not Found: /__dev/outbox");
      const json = await production.fetch("/__dev/outbox", { headers: { Accept: "application/json" } });
      expect(json.status).toBe(404);
      expect(await json.json()).toEqual({ message: "Page Not Found: /__dev/outbox" });
    } finally {
      await production.dispose();
    }
  });
});

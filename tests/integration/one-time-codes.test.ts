// The rules every one-time code keeps, whatever it is for (functions/auth/one-time-codes.ts), run against each purpose
// through that purpose's own functions: signing in, a fresh check, and proving a new phone. One table, so a purpose
// that starts to keep its own copy of a rule, and lets it drift, fails here. The functions run in node against the
// portal's D1; clocks are injected.
import { describe, expect, it } from "vitest";
import { maskPhone } from "#app/lib/forms/phone";
import type { AuthDeps } from "#server/auth/deps";
import { CHECK_MESSAGES, sendCheckCode, verifyCheckCode } from "#server/auth/fresh-check";
import type { VerifiedSession } from "#server/auth/guards";
import { OTP, SEND_BUDGETS, type SendBudget } from "#server/auth/one-time-codes";
import { OTP_MESSAGES, requestOtp, verifyOtp } from "#server/auth/otp";
import { confirmPhoneProof, sendPhoneProof } from "#server/auth/phones";
import { SESSION_TTL_MS, type SessionData } from "#server/auth/session";
import { startLogin } from "#server/auth/sign-in";
import { configOf } from "#server/env";
import { SmsDeliveryError, type SmsMessage, type SmsPort } from "#server/sms/sms";
import { KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const config = configOf({ ENVIRONMENT: "development" }).auth;
const PAGE = "https://portal.example.com/authenticate";

class Clock {
  constructor(public ms = Date.now()) {}
  advance(ms: number) {
    this.ms += ms;
  }
}

/** A port that keeps what it sends, or fails like a gateway that is down. */
function phoneNetwork(): SmsPort & { sent: SmsMessage[]; down: boolean; lastCode(): string } {
  const network = {
    kind: "gateway" as const,
    sent: [] as SmsMessage[],
    down: false,
    async send(message: SmsMessage) {
      if (network.down) throw new SmsDeliveryError("SMS gateway answered 503");
      network.sent.push(message);
    },
    lastCode() {
      const match = /\b(\d{6})\b/.exec(network.sent.at(-1)?.body ?? "");
      if (!match) throw new Error("no code sent");
      return match[1]!;
    },
  };
  return network;
}

function depsOf(clock: Clock): AuthDeps {
  return { db: portal().core(), businessDb: (businessId, shard) => ({ businessId, db: portal().database(shard) }), config, meta: META, now: () => clock.ms };
}

type Answer = { ok: true } | { ok: false; message: string; retryAfterSeconds?: number };

/** One session of the person, asking for codes of one purpose. */
interface Asking {
  sessionId: string;
  /** Asks for a code to the person's `index`th number for this purpose. */
  send(sms: SmsPort, index?: number): Promise<Answer>;
  verify(typed: string, index?: number): Promise<Answer>;
}

interface Person {
  userId: string;
  /** What the person's first code is for, as its audit entries name it (sign-in's name nothing). */
  binding?: string;
  /** A new session of the same person (limits are per phone and per account, the cooldown per session). */
  newSession(): Promise<Asking>;
}

interface Purpose {
  name: string;
  messages: { lockedOut(minutes: number): string; phoneLimit(minutes: number): string; accountLimit(minutes: number): string };
  audit: { sent: string; sendFailed: string; failure: string; lockout: string };
  /** The hourly codes it sends from: sign-in's, or the checks' own. */
  budget: SendBudget;
  person(clock: Clock): Promise<Person>;
}

let serial = 0;

/** A new person (so limits never carry over between tests) with three linked numbers, and three not linked yet. */
async function newPerson(): Promise<{ userId: string; email: string; linked: string[]; unlinked: string[] }> {
  serial += 1;
  const userId = `usr_codes_${serial}`;
  const email = `codes.${serial}@example.com`;
  const number = (kind: number, i: number) => `2332${kind}${String(serial).padStart(5, "0")}${i}${i}`.slice(0, 12);
  const linked = [0, 1, 2].map((i) => number(6, i));
  const unlinked = [0, 1, 2].map((i) => number(7, i));
  const db = portal().core();
  const at = new Date().toISOString();
  await db.batch([
    db.prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'unspecified', ?)").bind(userId, email, `Codes ${serial}`, at),
    ...linked.map((msisdn) => db.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(userId, msisdn, at)),
  ]);
  return { userId, email, linked, unlinked };
}

/** A session in a business, as the guards hand it to a check (a row the engine's guard reads, and its token). */
async function sessionInBusiness(clock: Clock, userId: string, email: string, linked: string[]): Promise<VerifiedSession> {
  const sid = crypto.randomUUID();
  const at = new Date(clock.ms).toISOString();
  await portal()
    .core()
    .prepare(
      `INSERT INTO sessions (id, user_id, channel, stage, business_id, ip, user_agent, created_at, expires_at, last_active_at)
       VALUES (?, ?, 'userUniqueEmail', 'business_chosen', ?, NULL, 'test', ?, ?, ?)`,
    )
    .bind(sid, userId, KUMASI, at, new Date(clock.ms + SESSION_TTL_MS).toISOString(), at)
    .run();
  return {
    sid,
    sub: userId,
    email,
    authenticationChannel: "userUniqueEmail",
    stage: "business_chosen",
    tokenExpiration: clock.ms + SESSION_TTL_MS,
    returnUrl: "/login-option",
    otpToken: `otp_${sid}`,
    selectedPhoneNumber: linked[0]!,
    linkedNumbers: linked,
    activeBusiness: KUMASI,
  };
}

const phone = (msisdn: string) => ({ msisdn, masked: maskPhone(msisdn) });

const PURPOSES: Purpose[] = [
  {
    name: "signing in",
    messages: OTP_MESSAGES,
    audit: { sent: "auth.otp.sent", sendFailed: "auth.otp.send_failed", failure: "auth.otp.failure", lockout: "auth.otp.lockout" },
    budget: SEND_BUDGETS.signIn,
    async person(clock) {
      const { userId, email, linked } = await newPerson();
      return {
        userId,
        async newSession() {
          const started = await startLogin(new Request(PAGE), depsOf(clock), { email, channel: "userUniqueEmail" });
          if (!started.ok) throw new Error(started.message);
          const session: SessionData = started.session;
          return {
            sessionId: session.sid,
            send: (sms, index = 0) => requestOtp(new Request(PAGE), depsOf(clock), session, phone(linked[index]!), sms),
            verify: (typed) => verifyOtp(new Request(PAGE), depsOf(clock), session, typed),
          };
        },
      };
    },
  },
  {
    name: "a fresh check",
    messages: CHECK_MESSAGES,
    audit: { sent: "auth.check.code_sent", sendFailed: "auth.check.code_send_failed", failure: "auth.check.code_failure", lockout: "auth.check.code_lockout" },
    budget: SEND_BUDGETS.check,
    async person(clock) {
      const { userId, email, linked } = await newPerson();
      const binding = `decide:req_codes_${serial}`;
      return {
        userId,
        binding,
        async newSession() {
          const session = await sessionInBusiness(clock, userId, email, linked);
          return {
            sessionId: session.sid,
            send: (sms, index = 0) => sendCheckCode(depsOf(clock), session, KUMASI, binding, phone(linked[index]!), sms),
            verify: (typed) => verifyCheckCode(depsOf(clock), session, KUMASI, binding, typed),
          };
        },
      };
    },
  },
  {
    name: "proving a new phone",
    messages: CHECK_MESSAGES,
    audit: { sent: "auth.check.code_sent", sendFailed: "auth.check.code_send_failed", failure: "auth.check.code_failure", lockout: "auth.check.code_lockout" },
    // A new number is not the person's yet: its proof keeps sign-in's tight budget per number.
    budget: SEND_BUDGETS.signIn,
    async person(clock) {
      const { userId, email, linked, unlinked } = await newPerson();
      return {
        userId,
        binding: `prove-phone:${unlinked[0]}`,
        async newSession() {
          const session = await sessionInBusiness(clock, userId, email, linked);
          // The code a person types back is for the number they last asked for.
          let asked = 0;
          return {
            sessionId: session.sid,
            send: (sms, index = 0) => {
              asked = index;
              return sendPhoneProof(depsOf(clock), session, KUMASI, phone(unlinked[index]!), sms);
            },
            verify: (typed) => confirmPhoneProof(depsOf(clock), session, KUMASI, phone(unlinked[asked]!), typed),
          };
        },
      };
    },
  },
];

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function audited(userId: string, action: string): Promise<{ entity: string; after: Record<string, unknown> }[]> {
  const { results } = await portal()
    .core()
    .prepare("SELECT entity, after_json FROM audit_log WHERE actor_id = ? AND action = ? ORDER BY id")
    .bind(userId, action)
    .all<{ entity: string; after_json: string | null }>();
  return results.map((row) => ({ entity: row.entity, after: JSON.parse(row.after_json ?? "null") as Record<string, unknown> }));
}

async function codesOf(sessionId: string): Promise<{ attempts: number }[]> {
  return (await portal().core().prepare("SELECT attempts FROM otp_challenges WHERE session_id = ?").bind(sessionId).all<{ attempts: number }>()).results;
}

/** A new person of the purpose with one session, a clock of their own and a phone network. */
async function asker(purpose: Purpose) {
  const clock = new Clock();
  const person = await purpose.person(clock);
  return { clock, person, asking: await person.newSession(), sms: phoneNetwork() };
}

describe.each(PURPOSES)("one-time codes for $name", (purpose) => {
  it("a wrong code uses one of 5 tries, says how many are left, and is audited", async () => {
    const { person, asking, sms } = await asker(purpose);
    expect((await asking.send(sms)).ok).toBe(true);
    expect(await asking.verify(wrongOf(sms.lastCode()))).toMatchObject({ ok: false, message: "That code is not right. 4 tries left." });
    expect(await codesOf(asking.sessionId)).toEqual([{ attempts: 1 }]);
    const failures = await audited(person.userId, purpose.audit.failure);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.after).toMatchObject({ attempt: 1 });
    // Not 6 digits: refused without using a try.
    expect(await asking.verify("12345")).toMatchObject({ ok: false, message: "Enter the 6-digit code from the text message." });
    expect(await codesOf(asking.sessionId)).toEqual([{ attempts: 1 }]);
    expect((await asking.verify(sms.lastCode())).ok).toBe(true);
    expect(await asking.verify(sms.lastCode())).toMatchObject({ ok: false });
  });

  it("a code is good for 5 minutes and no longer", async () => {
    const { clock, person, sms } = await asker(purpose);
    const early = await person.newSession();
    expect((await early.send(sms)).ok).toBe(true);
    clock.advance(OTP.ttlMs - 1);
    expect((await early.verify(sms.lastCode())).ok).toBe(true);
    const late = await person.newSession();
    expect((await late.send(sms, 1)).ok).toBe(true);
    clock.advance(OTP.ttlMs);
    expect(await late.verify(sms.lastCode())).toMatchObject({ ok: false, message: "This code has expired. Ask for a new one." });
  });

  it("after 5 wrong tries even the right code is refused, and the code's lockout is audited once", async () => {
    const { person, asking, sms } = await asker(purpose);
    expect((await asking.send(sms)).ok).toBe(true);
    const wrong = wrongOf(sms.lastCode());
    for (let left = 4; left >= 1; left -= 1) expect(await asking.verify(wrong)).toMatchObject({ ok: false, message: OTP_MESSAGES.wrong(left) });
    const noTriesLeft = "Too many wrong tries for this code. Ask for a new one.";
    expect(await asking.verify(wrong)).toMatchObject({ ok: false, message: noTriesLeft });
    expect(await asking.verify(sms.lastCode())).toMatchObject({ ok: false, message: noTriesLeft });
    expect(await codesOf(asking.sessionId)).toEqual([{ attempts: 5 }]);
    expect(await audited(person.userId, purpose.audit.failure)).toHaveLength(5);
    expect((await audited(person.userId, purpose.audit.lockout)).map((entry) => entry.after)).toEqual([{ scope: "code", tries: 5 }]);
  });

  it("20 wrong codes in an hour lock the person's codes for the rest of the hour, audited once", async () => {
    const { clock, person, asking, sms } = await asker(purpose);
    let last: Answer | undefined;
    for (let code = 0; code < 4; code += 1) {
      expect((await asking.send(sms, code % 3)).ok).toBe(true);
      for (let i = 0; i < 5; i += 1) last = await asking.verify(wrongOf(sms.lastCode()));
      clock.advance(OTP.resendCooldownMs);
    }
    expect(last).toEqual({ ok: false, reason: "lockedOut", message: purpose.messages.lockedOut(57), retryAfterSeconds: 57 * 60 });
    expect(await asking.send(sms)).toMatchObject({ ok: false, message: purpose.messages.lockedOut(56) });
    expect(await asking.verify("123456")).toMatchObject({ ok: false, message: purpose.messages.lockedOut(56) });
    expect(sms.sent).toHaveLength(4);
    const accountLockouts = (await audited(person.userId, purpose.audit.lockout)).filter((entry) => entry.after.scope === "account");
    expect(accountLockouts).toEqual([{ entity: "user", after: { scope: "account", failures: 20 } }]);
    clock.advance(OTP.windowMs);
    expect((await asking.send(sms)).ok).toBe(true);
  });

  it("a new code waits 60 s after the last one in the session, and then replaces it", async () => {
    const { clock, asking, sms } = await asker(purpose);
    expect((await asking.send(sms)).ok).toBe(true);
    const first = sms.lastCode();
    clock.advance(OTP.resendCooldownMs - 1_000);
    expect(await asking.send(sms)).toMatchObject({ ok: false, message: "Please wait 1 seconds before asking for a new code.", retryAfterSeconds: 1 });
    expect(sms.sent).toHaveLength(1);
    clock.advance(1_000);
    expect((await asking.send(sms)).ok).toBe(true);
    const second = sms.lastCode();
    if (first !== second) expect(await asking.verify(first)).toMatchObject({ ok: false, message: OTP_MESSAGES.wrong(4) });
    expect((await asking.verify(second)).ok).toBe(true);
  });

  it("at most its budget's codes an hour to one phone and for one account", async () => {
    const { person, sms } = await asker(purpose);
    const { perPhone, perAccount } = purpose.budget;
    const sends = async (count: number, index: (i: number) => number) => {
      const answers: Answer[] = [];
      for (let i = 0; i < count; i += 1) answers.push(await (await person.newSession()).send(sms, index(i)));
      return answers;
    };
    const toOne = await sends(perPhone + 1, () => 0);
    expect(toOne.filter((answer) => answer.ok)).toHaveLength(perPhone);
    expect(toOne.at(-1)).toMatchObject({ ok: false, message: purpose.messages.phoneLimit(60), retryAfterSeconds: 3600 });
    const toOthers = await sends(perAccount - perPhone + 1, (i) => 1 + (i % 2));
    expect(toOthers.filter((answer) => answer.ok)).toHaveLength(perAccount - perPhone);
    expect(toOthers.at(-1)).toMatchObject({ ok: false, message: purpose.messages.accountLimit(60), retryAfterSeconds: 3600 });
    expect(sms.sent).toHaveLength(perAccount);
  });

  it("a code that could not be sent is removed, audited, and does not hold up the next one", async () => {
    const { person, asking, sms } = await asker(purpose);
    sms.down = true;
    expect(await asking.send(sms)).toMatchObject({ ok: false, message: "We could not send the code. Please try again in a moment." });
    expect(await codesOf(asking.sessionId)).toEqual([]);
    const failed = await audited(person.userId, purpose.audit.sendFailed);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ entity: "otp_challenge", after: { via: "gateway", error: "SMS gateway answered 503" } });
    expect(String(failed[0]!.after.to)).toMatch(/^233\*+\d{4}$/);
    expect(failed[0]!.after.binding).toBe(person.binding);
    sms.down = false;
    expect((await asking.send(sms)).ok).toBe(true);
    expect((await asking.verify(sms.lastCode())).ok).toBe(true);
  });
});

// A fresh check before what matters (decision 027), through the built Worker: an action without a check made for
// exactly it in the last 5 minutes, in this session, is refused (428) and changes nothing; a check made for one
// request does nothing for another; a check is used once; a refused action gives it back; codes sent for a check are
// bound to it and, when the gateway does not take one, audited as at sign-in; a business may ask for passkeys for every
// decision; the check endpoint's limits answer 429.
import { afterAll, describe, expect, it } from "vitest";
import { requestChange } from "#server/approvals/approvals.db";
import type { ChangeValues } from "#server/approvals/change-kinds";
import { startFakeSmsGateway, type FakeSmsGateway } from "../support/fake-sms-gateway";
import { checkBindings, checkUsed, mintFreshCheck, sessionOf } from "../support/fresh-check";
import { actionDataOf } from "../support/html";
import { AUTH_LIMITS } from "#server/auth/limits";
import { signedInCookie } from "../support/sign-in";
import { ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { NOT_A_NOTICE } from "../support/sms-texts";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com";
const ABENA = "abena.darko@example.com";

let serial = 0;
function newMerchant(): ChangeValues {
  serial += 1;
  const n = String(serial).padStart(4, "0");
  return {
    code: `MER-F${n}`,
    name: `Ɔkomfo Ɛnam Foods ${n}`,
    trading_name: `Ɔkomfo Ɛnam ${n}`,
    tin: `C${String(7_100_000_000 + serial)}`,
    sector: "Retail",
    town: "Kumasi",
    region: "Ashanti",
    address: "12 Adum Road",
    contact_name: "Ama Ɔkomfo",
    contact_phone: "233244000333",
    contact_email: "okomfo@example.com",
  };
}

const esiAsks = () => requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
const core = () => portal().core();

function post(path: string, form: Record<string, string>, cookie: { Cookie: string }, address = "198.51.100.7") {
  return portal().fetch(path, {
    method: "POST",
    headers: {
      Origin: portal().url,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": address,
      ...cookie,
    },
    body: new URLSearchParams(form).toString(),
  });
}

function check(body: Record<string, string>, cookie: { Cookie: string }, address = "198.51.100.7") {
  return portal().fetch("/auth/check", {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", "CF-Connecting-IP": address, ...cookie },
    body: JSON.stringify(body),
  });
}

interface Asked {
  binding: string;
  purpose: string;
  passkeyOnly: boolean;
  fields: Record<string, string>;
  action: string;
}

/** The check a 428 page asks for (the action's data in the document rendered after it). */
async function askedFor(response: Response): Promise<Asked> {
  expect(response.status).toBe(428);
  const data = Object.values(actionDataOf(await response.text())) as ({ check?: Asked } | null)[];
  const asked = data.find((value) => value?.check)?.check;
  if (!asked) throw new Error("The page asked for no check");
  return asked;
}

async function statusOf(id: string): Promise<string | undefined> {
  return (
    await (await portal().db()).prepare("SELECT status FROM approval_requests WHERE id = ? AND business_id = ?").bind(id, KUMASI).first<{ status: string }>()
  )?.status;
}

/** The newest code the development outbox "sent" to a number ending with `tail`. */
async function lastCode(): Promise<string> {
  const row = await core().prepare(`SELECT body FROM dev_outbox WHERE ${NOT_A_NOTICE} ORDER BY id DESC LIMIT 1`).first<{ body: string }>();
  const code = /\b(\d{6})\b/.exec(row?.body ?? "")?.[1];
  if (!code) throw new Error(`No code in the outbox: ${row?.body}`);
  return code;
}

describe("deciding a request needs a fresh check made for it", () => {
  it("without a check: 428 with what the dialog needs, and the request stays pending", async () => {
    const id = await esiAsks();
    const kofi = await signedInCookie(portal(), KOFI);
    const asked = await askedFor(await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi));
    expect(asked).toMatchObject({ binding: `decide:${id}`, purpose: "decide this request", passkeyOnly: false, fields: { intent: "approve" } });
    expect(asked.action).toBe(`/approvals/merchant/${id}`);
    expect(await statusOf(id)).toBe("pending");
  });

  it("a check for this request: approved, and the check is used up (the next decision asks again)", async () => {
    const id = await esiAsks();
    const kofi = await signedInCookie(portal(), KOFI);
    const minted = await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(id));
    const response = await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi);
    expect(response.status).toBe(302);
    expect(await statusOf(id)).toBe("approved");
    expect(await checkUsed(core(), minted)).toBe(true);
    const audit = await core()
      .prepare("SELECT action, after_json FROM audit_log WHERE entity = 'fresh_check' AND entity_id = ? AND business_id = ?")
      .bind(minted.id, KUMASI)
      .all<{ action: string; after_json: string }>();
    expect(audit.results.map((row) => [row.action, JSON.parse(row.after_json)])).toEqual([["auth.check.used", { binding: `decide:${id}` }]]);
  });

  it("a check made for one request does nothing for another", async () => {
    const [one, other] = [await esiAsks(), await esiAsks()];
    const kofi = await signedInCookie(portal(), KOFI);
    const minted = await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(one));
    const response = await post(`/approvals/merchant/${other}`, { intent: "reject", reason: "Wrong town" }, kofi);
    expect(response.status).toBe(428);
    expect(await statusOf(other)).toBe("pending");
    expect(await checkUsed(core(), minted)).toBe(false);
  });

  it("a check older than 5 minutes, or made in another session of the same person, does not do", async () => {
    const id = await esiAsks();
    const kofi = await signedInCookie(portal(), KOFI);
    await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(id), { ageMs: 5 * 60_000 + 1_000 });
    expect((await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi)).status).toBe(428);
    const otherSession = await signedInCookie(portal(), KOFI);
    await mintFreshCheck(core(), otherSession, KUMASI, checkBindings.decision(id));
    expect((await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi)).status).toBe(428);
    expect(await statusOf(id)).toBe("pending");
  });

  it("a decision refused by a rule gives the check back", async () => {
    const db = await portal().db();
    const merchant = await db
      .prepare(
        `SELECT id FROM merchants m WHERE business_id = ? AND status = 'active'
           AND NOT EXISTS (SELECT 1 FROM approval_requests r WHERE r.business_id = m.business_id AND r.target_id = m.id AND r.status = 'pending') LIMIT 1`,
      )
      .bind(KUMASI)
      .first<{ id: string }>();
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "update", targetId: merchant!.id, after: { town: "Tamale" } });
    // The merchant changes after the request was made: approving it is refused (stale).
    await db.prepare("UPDATE merchants SET version = version + 1 WHERE id = ? AND business_id = ?").bind(merchant!.id, KUMASI).run();
    const kofi = await signedInCookie(portal(), KOFI);
    const minted = await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(id));
    const response = await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi);
    expect(response.status).toBe(400);
    expect(await statusOf(id)).toBe("stale");
    expect(await checkUsed(core(), minted)).toBe(false);
  });
});

describe("checking by a code sent by SMS", () => {
  it("a code sent for one request makes a check for that request only, once", async () => {
    const [one, other] = [await esiAsks(), await esiAsks()];
    const kofi = await signedInCookie(portal(), KOFI);
    const offer = await portal().fetch(`/auth/check?binding=${encodeURIComponent(`decide:${one}`)}`, { headers: kofi });
    expect(await offer.json()).toEqual({
      purpose: "decide this request",
      refusal: null,
      passkeyOnly: false,
      passkey: false,
      authenticator: false,
      phone: expect.stringMatching(/^233\*+\d{4}$/),
      codes: { left: expect.any(Number), perHour: 30 },
    });
    const sent = await check({ intent: "send-code", binding: `decide:${one}` }, kofi);
    expect(sent.status).toBe(200);
    const code = await lastCode();
    // The code of the first request does nothing for the second: there is no code for it.
    const wrongBinding = await check({ intent: "code", binding: `decide:${other}`, code }, kofi);
    expect(wrongBinding.status).toBe(400);
    expect(await wrongBinding.json()).toEqual({ message: "Ask for a code first." });
    expect((await check({ intent: "code", binding: `decide:${one}`, code }, kofi)).status).toBe(200);
    // Used: the same code again is refused.
    expect(await (await check({ intent: "code", binding: `decide:${one}`, code }, kofi)).json()).toEqual({
      message: "This code has already been used. Ask for a new one.",
    });
    expect((await post(`/approvals/merchant/${other}`, { intent: "approve" }, kofi)).status).toBe(428);
    expect((await post(`/approvals/merchant/${one}`, { intent: "approve" }, kofi)).status).toBe(302);
    expect(await statusOf(one)).toBe("approved");
    const made = await core()
      .prepare("SELECT action, after_json FROM audit_log WHERE action = 'auth.check.passed' AND actor_id = 'usr_kofi_boateng' ORDER BY id DESC LIMIT 1")
      .first<{ after_json: string }>();
    expect(JSON.parse(made!.after_json)).toEqual({ binding: `decide:${one}`, method: "sms" });
  });

  it("a wrong code says how many tries are left, and a malformed binding is refused", async () => {
    const id = await esiAsks();
    const kofi = await signedInCookie(portal(), KOFI);
    await check({ intent: "send-code", binding: `decide:${id}` }, kofi, "198.51.100.8");
    const code = await lastCode();
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await (await check({ intent: "code", binding: `decide:${id}`, code: wrong }, kofi, "198.51.100.8")).json()).toEqual({
      message: "That code is not right. 4 tries left.",
    });
    const odd = await check({ intent: "send-code", binding: "delete-everything:now" }, kofi, "198.51.100.8");
    expect(odd.status).toBe(400);
  });
});

describe("a business that asks for passkeys for every decision", () => {
  it("refuses a check by code for a decision", async () => {
    const id = await esiAsks();
    const kofi = await signedInCookie(portal(), KOFI);
    const db = await portal().db();
    await db
      .prepare(
        "INSERT INTO business_policies (id, business_id, decisions_need_passkey, status, created_at, updated_at, version) VALUES (?, ?, 1, 'active', ?, ?, 1) ON CONFLICT (id) DO UPDATE SET decisions_need_passkey = 1",
      )
      .bind(KUMASI, KUMASI, new Date().toISOString(), new Date().toISOString())
      .run();
    try {
      const sms = await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(id), { method: "sms" });
      expect((await askedFor(await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi))).passkeyOnly).toBe(true);
      expect(await checkUsed(core(), sms)).toBe(false);
      const sendCode = await check({ intent: "send-code", binding: `decide:${id}` }, kofi, "198.51.100.9");
      expect(sendCode.status).toBe(403);
      expect(await sendCode.json()).toEqual({ message: "This business asks for a passkey for every decision: a code does not do." });
      await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(id), { method: "passkey" });
      expect((await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi)).status).toBe(302);
    } finally {
      await db.prepare("UPDATE business_policies SET decisions_need_passkey = 0 WHERE id = ? AND business_id = ?").bind(KUMASI, KUMASI).run();
    }
  });
});

describe("the policy itself changes only through an approval", () => {
  it("a Super Administrator asks, an Administrator may not ask but approves (with a check); then a code no longer does for a decision", async () => {
    const ama = await signedInCookie(portal(), "ama.mensah@example.com");
    const kofi = await signedInCookie(portal(), KOFI);
    const db = await portal().db();
    const ask = (cookie: { Cookie: string }, wanted: string) =>
      post("/settings?tab=business", { intent: "ask-security-policy", decisionsNeedPasskey: wanted }, cookie);
    try {
      expect((await ask(kofi, "1")).status).toBe(403);
      expect((await ask(ama, "1")).status).toBe(302);
      const request = await db
        .prepare("SELECT id, after_json FROM approval_requests WHERE business_id = ? AND kind = 'security_policy' AND status = 'pending'")
        .bind(KUMASI)
        .first<{ id: string; after_json: string }>();
      expect(JSON.parse(request!.after_json)).toEqual({ decisions_need_passkey: 1 });
      // Nothing applies before approval.
      const page = await portal().fetch("/settings?tab=business", { headers: kofi });
      expect(await page.text()).toContain("A change is waiting for approval");
      expect((await ask(ama, "1")).status).toBe(400);
      // The Super Administrator who asked cannot decide it; the Administrator decides it under a check.
      expect((await post(`/approvals/security-policy/${request!.id}`, { intent: "approve" }, ama)).status).toBe(403);
      await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(request!.id));
      expect((await post(`/approvals/security-policy/${request!.id}`, { intent: "approve" }, kofi)).status).toBe(302);
      const policy = await db
        .prepare("SELECT decisions_need_passkey FROM business_policies WHERE business_id = ?")
        .bind(KUMASI)
        .first<{ decisions_need_passkey: number }>();
      expect(policy!.decisions_need_passkey).toBe(1);
      const id = await esiAsks();
      await mintFreshCheck(core(), kofi, KUMASI, checkBindings.decision(id), { method: "sms" });
      expect((await askedFor(await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi))).passkeyOnly).toBe(true);
    } finally {
      await db
        .prepare("UPDATE approval_requests SET status = 'stale' WHERE business_id = ? AND kind = 'security_policy' AND status = 'pending'")
        .bind(KUMASI)
        .run();
      await db.prepare("UPDATE business_policies SET decisions_need_passkey = 0 WHERE id = ? AND business_id = ?").bind(KUMASI, KUMASI).run();
    }
  });
});

describe("asking for money and making keys need a check too", () => {
  it("a transfer asked without a check is 428, and nothing is asked", async () => {
    const abena = await signedInCookie(portal(), ABENA);
    const db = await portal().db();
    const merchant = await db.prepare("SELECT id FROM merchants WHERE business_id = ? AND status = 'active' LIMIT 1").bind(KUMASI).first<{ id: string }>();
    const account = await db
      .prepare("SELECT id FROM settlement_accounts WHERE business_id = ? AND merchant_id = ? LIMIT 1")
      .bind(KUMASI, merchant!.id)
      .first<{ id: string }>();
    const form = { intent: "transfer", from: merchant!.id, to: `sa:${account!.id}`, amount: "1.00", idempotencyKey: crypto.randomUUID() };
    const before = await db.prepare("SELECT COUNT(*) AS n FROM transfers WHERE business_id = ?").bind(KUMASI).first<{ n: number }>();
    const response = await post(`/money/merchant-funds?merchant=${merchant!.id}`, form, abena);
    expect((await askedFor(response)).binding).toBe(checkBindings.transfer(merchant!.id, "sa", account!.id, 100));
    const after = await db.prepare("SELECT COUNT(*) AS n FROM transfers WHERE business_id = ?").bind(KUMASI).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
    // A check for GHS 1.00 does not allow GHS 2.00.
    await mintFreshCheck(core(), abena, KUMASI, checkBindings.transfer(merchant!.id, "sa", account!.id, 100));
    expect((await post(`/money/merchant-funds?merchant=${merchant!.id}`, { ...form, amount: "2.00" }, abena)).status).toBe(428);
  });

  it("making an API key without a check is 428 and makes no key; with one, the key is shown once", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const db = await portal().db();
    const count = async () => (await db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE business_id = ?").bind(KUMASI).first<{ n: number }>())!.n;
    const before = await count();
    const form = { intent: "create-key", name: "Till Ɛ 🧾" };
    const { binding } = await askedFor(await post("/settings?tab=developers", form, kofi));
    expect(await count()).toBe(before);
    expect(binding).toMatch(/^api-key:create:[0-9a-f]{32}$/);
    await mintFreshCheck(core(), kofi, KUMASI, binding);
    const made = await post("/settings?tab=developers", form, kofi);
    expect(made.status).toBe(200);
    expect(await count()).toBe(before + 1);
  });
});

describe("limits of the check endpoint", () => {
  it("typing codes: past the checks' own 60 in 10 minutes for one account is 429 with Retry-After", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const address = "203.0.113.77";
    const { max, name } = AUTH_LIMITS.checkCodeVerifyPerAccount;
    // The window starts empty: this file's other tests typed Kofi's codes too.
    await portal()
      .core()
      .prepare("DELETE FROM rate_windows WHERE client = ?")
      .bind(`${name}:account:${sessionOf(kofi).sub}`)
      .run();
    let last: Response | null = null;
    for (let i = 0; i <= max; i += 1) {
      last = await check({ intent: i % 2 ? "code" : "totp", binding: "decide:nothing-here", code: "12345" }, kofi, address);
      // Sign-in's 20 typed codes are no part of them.
      if (i < max) expect(last.status, `code ${i + 1}`).toBe(400);
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(500);
    expect((await last!.json<{ message: string }>()).message).toMatch(/^Too many attempts\. Try again in 10 minutes\.$/);
  });
});

// Last in the file: a second portal points the tenants of tests/support/tenants.ts at itself until the file ends.
describe("a check code the SMS gateway does not take", () => {
  let gateway: FakeSmsGateway | undefined;
  const withGateway = usePortal(async () => {
    gateway = await startFakeSmsGateway();
    return { vars: { SMS_GATEWAY_URL: gateway.url, SMS_GATEWAY_TOKEN: "gateway-token-123" } };
  });
  afterAll(() => gateway?.close());

  it("is removed and audited as at sign-in, and the next one is not held up", async () => {
    const binding = "decide:req_gateway_down";
    const kofi = await signedInCookie(withGateway(), KOFI);
    const sendCode = () =>
      withGateway().fetch("/auth/check", {
        method: "POST",
        headers: {
          Origin: withGateway().url,
          "Sec-Fetch-Site": "same-origin",
          "Content-Type": "application/json",
          "CF-Connecting-IP": "198.51.100.10",
          ...kofi,
        },
        body: JSON.stringify({ intent: "send-code", binding }),
      });
    gateway!.mode = "down";
    const refused = await sendCode();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: "We could not send the code. Please try again in a moment." });
    const { sid } = sessionOf(kofi);
    const codes = () => withGateway().core().prepare("SELECT count(*) AS n FROM otp_challenges WHERE session_id = ?").bind(sid).first<number>("n");
    expect(await codes()).toBe(0);
    const failed = await withGateway()
      .core()
      .prepare("SELECT business_id, entity, after_json FROM audit_log WHERE action = 'auth.check.code_send_failed' AND actor_id = 'usr_kofi_boateng'")
      .all<{ business_id: string; entity: string; after_json: string }>();
    expect(failed.results.map((row) => ({ ...row, after_json: JSON.parse(row.after_json) as unknown }))).toEqual([
      {
        business_id: KUMASI,
        entity: "otp_challenge",
        after_json: {
          to: expect.stringMatching(/^233\*+\d{4}$/) as string,
          via: "gateway",
          binding,
          refusal: "unavailable",
          error: "SMS gateway answered 503",
        },
      },
    ]);
    gateway!.mode = "up";
    const sent = await sendCode();
    expect(sent.status).toBe(200);
    expect(await codes()).toBe(1);
  });
});

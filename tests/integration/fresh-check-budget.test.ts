// A checker's whole day by SMS, through the built Worker: fresh checks send codes from a budget of their own
// (functions/auth/one-time-codes.ts SEND_BUDGETS), so a sign-in and a day of decisions never use up each other's codes,
// the check budget running out is refused with its numbers, and nobody is sent a code for a decision they may not
// take (their own request, a role that decides nothing, a request already decided).
import { describe, expect, it } from "vitest";
import { requestChange } from "#server/approvals/approvals.db";
import type { ChangeValues } from "#server/approvals/change-kinds";
import { batchBinding, CHECK_MESSAGES } from "#server/auth/fresh-check";
import { SEND_BUDGETS } from "#server/auth/one-time-codes";
import { OTP_MESSAGES } from "#server/auth/otp";
import { mintFreshCheck } from "../support/fresh-check";
import { actionDataOf, textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { NOT_A_NOTICE } from "../support/sms-texts";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com";
const AMA = "ama.mensah@example.com";
const ABENA = "abena.darko@example.com";
const CHECK = SEND_BUDGETS.check;

let serial = 0;
/** A fresh address, so the endpoints' per-address limits never stand in for the budgets under test. */
function freshIp(): string {
  serial += 1;
  return `198.51.${Math.floor(serial / 250) + 20}.${(serial % 250) + 1}`;
}

function newMerchant(): ChangeValues {
  serial += 1;
  const n = String(serial).padStart(4, "0");
  return {
    code: `MER-B${n}`,
    name: `Ɔbaa Yaa Foods ${n}`,
    trading_name: `Ɔbaa Yaa ${n}`,
    tin: `C${String(7_300_000_000 + serial)}`,
    sector: "Retail",
    town: "Kumasi",
    region: "Ashanti",
    address: "7 Kejetia Road",
    contact_name: "Yaa Ɔbaa",
    contact_phone: "233244000555",
    contact_email: "obaa@example.com",
  };
}

const esiAsks = () => requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
const core = () => portal().core();

function post(path: string, form: [string, string][], headers: Record<string, string>) {
  return portal().fetch(path, {
    method: "POST",
    headers: {
      Origin: portal().url,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": freshIp(),
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

function check(body: Record<string, unknown>, cookie: { Cookie: string }) {
  return portal().fetch("/auth/check", {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", "CF-Connecting-IP": freshIp(), ...cookie },
    body: JSON.stringify(body),
  });
}

/** What the dialog is offered for `binding` (with `&ids=` after it for a bulk decision's). */
async function offer(binding: string, cookie: { Cookie: string }) {
  const [bound, ids] = binding.split("&ids=");
  const answer = await portal().fetch(`/auth/check?binding=${encodeURIComponent(bound!)}${ids ? `&ids=${ids}` : ""}`, { headers: cookie });
  expect(answer.status).toBe(200);
  return answer.json<{ refusal: string | null; codes: { left: number; perHour: number } | null; phone: string | null }>();
}

/** The binding a 428 page asks a check for. */
async function askedBinding(response: Response): Promise<string> {
  expect(response.status).toBe(428);
  const data = Object.values(actionDataOf(await response.text())) as ({ check?: { binding: string } } | null)[];
  const binding = data.find((value) => value?.check)?.check?.binding;
  if (!binding) throw new Error("The page asked for no check");
  return binding;
}

async function outboxSize(): Promise<number> {
  return (await core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<{ n: number }>())!.n;
}

async function lastCode(): Promise<string> {
  const row = await core().prepare(`SELECT body FROM dev_outbox WHERE ${NOT_A_NOTICE} ORDER BY id DESC LIMIT 1`).first<{ body: string }>();
  const code = /\b(\d{6})\b/.exec(row?.body ?? "")?.[1];
  if (!code) throw new Error(`No code in the outbox: ${row?.body}`);
  return code;
}

/** A check made by a code texted for `binding` (and a bulk decision's ids): sent, typed, taken. */
async function checkBySms(binding: string, cookie: { Cookie: string }, ids?: string[]): Promise<void> {
  const covers = ids ? { ids } : {};
  const sent = await check({ intent: "send-code", binding, ...covers }, cookie);
  expect(sent.status, `code for ${binding}`).toBe(200);
  expect((await check({ intent: "code", binding, ...covers, code: await lastCode() }, cookie)).status).toBe(200);
}

/** One sign-in code asked for by `email` from a new login: where /authenticate sent them, or its refusal's text, and the login's cookie. */
async function signInCode(email: string): Promise<{ sent: boolean; text: string; cookie: { Cookie: string } }> {
  const started = await post("/login-option", [["email", email]], {});
  expect(started.headers.get("Location")).toBe("/authenticate");
  const cookie = started.headers
    .getSetCookie()
    .find((header) => header.startsWith("pp_session=ey"))!
    .split(";")[0]!;
  const asked = await post("/authenticate", [["phone", "0"]], { Cookie: cookie });
  const sent = asked.headers.get("Location") === "/authenticate/verify";
  const next = asked.headers
    .getSetCookie()
    .find((header) => header.startsWith("pp_session=ey"))
    ?.split(";")[0];
  return { sent, text: asked.status === 302 ? "" : textOf(await asked.text()), cookie: { Cookie: next ?? cookie } };
}

async function statuses(ids: string[]): Promise<string[]> {
  const db = await portal().db();
  const rows = await Promise.all(
    ids.map((id) => db.prepare("SELECT status FROM approval_requests WHERE id = ? AND business_id = ?").bind(id, KUMASI).first<{ status: string }>()),
  );
  return rows.map((row) => row?.status ?? "missing");
}

describe("a checker's day by SMS", () => {
  it("signing in, then 37 requests decided by SMS in the hour (25 alone, 12 in one bulk decision): no lockout, and sign-in keeps its own codes", async () => {
    // Kofi signs in with a code: one of sign-in's 5 an hour to his phone, typed in.
    const signIn = await signInCode(KOFI);
    expect(signIn.sent).toBe(true);
    expect(
      (
        await post(
          "/authenticate/verify",
          [
            ["intent", "verify"],
            ["code", await lastCode()],
          ],
          signIn.cookie,
        )
      ).headers.get("Location"),
    ).toBe("/select-business");
    const kofi = await signedInCookie(portal(), KOFI);
    const alone = [];
    // 25 codes typed in a few minutes: more than sign-in's 20 typed in 10 minutes, which checks no longer share.
    for (let i = 0; i < 25; i += 1) alone.push(await esiAsks());
    for (const id of alone) {
      const binding = await askedBinding(await post(`/approvals/merchant/${id}`, [["intent", "approve"]], kofi));
      await checkBySms(binding, kofi);
      expect((await post(`/approvals/merchant/${id}`, [["intent", "approve"]], kofi)).status).toBe(302);
    }
    const batch = [];
    for (let i = 0; i < 12; i += 1) batch.push(await esiAsks());
    const chosen: [string, string][] = [["intent", "approve-selected"], ...batch.map((id): [string, string] => ["ids", id])];
    const batchBinding = await askedBinding(await post("/approvals", chosen, kofi));
    expect(batchBinding).toMatch(/^decide:batch:/);
    await checkBySms(batchBinding, kofi, batch);
    // Decided (the queue shows what was done), with no second check.
    expect([200, 302]).toContain((await post("/approvals", chosen, kofi)).status);
    expect(await statuses([...alone, ...batch])).toEqual(Array(37).fill("approved"));

    // 26 codes for checks: the dialog says what is left of the checks' budget.
    expect((await offer(`decide:${await esiAsks()}`, kofi)).codes).toEqual({ left: CHECK.perPhone - 26, perHour: CHECK.perPhone });
    // Sign-in still has its other 4 codes to his phone, and then its own limit says no; its typed codes are its own too.
    for (let i = 1; i < SEND_BUDGETS.signIn.perPhone; i += 1) {
      const again = await signInCode(KOFI);
      expect(again.sent, `sign-in code ${i + 1}`).toBe(true);
      const typed = await post(
        "/authenticate/verify",
        [
          ["intent", "verify"],
          ["code", await lastCode()],
        ],
        again.cookie,
      );
      expect(typed.headers.get("Location"), `sign-in ${i + 1}`).toBe("/select-business");
    }
    const refused = await signInCode(KOFI);
    expect(refused.sent).toBe(false);
    expect(refused.text).toContain(OTP_MESSAGES.phoneLimit(60));
    // Sign-in's codes used up do not stop a check.
    const next = await esiAsks();
    await checkBySms(await askedBinding(await post(`/approvals/merchant/${next}`, [["intent", "approve"]], kofi)), kofi);
    expect((await post(`/approvals/merchant/${next}`, [["intent", "approve"]], kofi)).status).toBe(302);
  }, 120_000);

  it("the checks' budget running out is refused with its numbers, and does not stop a sign-in", async () => {
    const ama = await signedInCookie(portal(), AMA);
    for (let i = 0; i < CHECK.perPhone; i += 1) expect((await check({ intent: "send-code", binding: `decide:req_budget_${i}` }, ama)).status).toBe(200);
    const before = await outboxSize();
    const refused = await check({ intent: "send-code", binding: "decide:req_budget_last" }, ama);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(3500);
    expect(await refused.json()).toEqual({ message: CHECK_MESSAGES.phoneLimit(60), codes: { left: 0, perHour: CHECK.perPhone } });
    expect(await outboxSize()).toBe(before);
    expect((await offer("decide:req_budget_next", ama)).codes).toEqual({ left: 0, perHour: CHECK.perPhone });
    // Her sign-in has its own codes.
    expect((await signInCode(AMA)).sent).toBe(true);
  });
});

describe("no code for a decision the person may not take", () => {
  it("their own request, a role that decides nothing, a request already decided: refused with the reason, nothing sent", async () => {
    const own = await requestChange(KOFI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    const kofi = await signedInCookie(portal(), KOFI);
    const abena = await signedInCookie(portal(), ABENA);
    const theirs = await esiAsks();
    const decided = await esiAsks();
    // Decided under a check made as tests make one (Kofi's codes for the hour are the other tests').
    await mintFreshCheck(core(), kofi, KUMASI, `decide:${decided}`);
    expect((await post(`/approvals/merchant/${decided}`, [["intent", "approve"]], kofi)).status).toBe(302);

    const cases: [string, { Cookie: string }, string, string[]?][] = [
      [`decide:${own}`, kofi, "You cannot decide your own request."],
      [`decide:${theirs}`, abena, "Only a Super Administrator or an Administrator can decide requests."],
      [await batchBinding([theirs]), abena, "Only a Super Administrator or an Administrator can decide requests.", [theirs]],
      [await batchBinding([decided, own]), kofi, "None of the requests you chose can be decided by you.", [decided, own]],
      [`decide:${decided}`, kofi, "This request is already approved."],
    ];
    const before = await outboxSize();
    for (const [binding, cookie, reason, ids] of cases) {
      expect((await offer(ids ? `${binding}&ids=${ids.join(",")}` : binding, cookie)).refusal, binding).toBe(reason);
      for (const intent of ["send-code", "passkey-options"]) {
        const answer = await check({ intent, binding, ...(ids ? { ids } : {}) }, cookie);
        expect(answer.status, `${intent} ${binding}`).toBe(403);
        expect(await answer.json()).toEqual({ message: reason, refused: true });
      }
    }
    expect(await outboxSize()).toBe(before);
    const sent = await core()
      .prepare("SELECT count(*) AS n FROM otp_challenges WHERE binding IN (?, ?, ?)")
      .bind(`decide:${own}`, `decide:${theirs}`, `decide:${decided}`)
      .first<{ n: number }>();
    expect(sent!.n).toBe(0);
    // A request Kofi may decide is offered as before.
    expect(await offer(`decide:${theirs}`, kofi)).toMatchObject({ refusal: null, phone: expect.stringMatching(/^233\*+\d{4}$/) });
  });
});

describe("one check for a bulk decision names its requests and decides exactly those", () => {
  const chosen = (intent: string, ids: string[]): [string, string][] => [["intent", intent], ...ids.map((id): [string, string] => ["ids", id])];

  it("the dialog's offer lists them with any that will be refused; the check made for them decides no other choice, part or superset", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const theirs = [await esiAsks(), await esiAsks(), await esiAsks()];
    const own = await requestChange(KOFI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    const ids = [...theirs, own];
    const asked = await post("/approvals", chosen("approve-selected", ids), kofi);
    const binding = await askedBinding(asked.clone());
    const data = Object.values(actionDataOf(await asked.text())) as ({ check?: { covers?: string[] } } | null)[];
    expect(data.find((value) => value?.check)?.check?.covers).toEqual([...ids].sort());

    const offered = await (
      await portal().fetch(`/auth/check?binding=${encodeURIComponent(binding)}&ids=${ids.join(",")}`, { headers: kofi })
    ).json<{
      refusal: string | null;
      requests: { id: string; title: string; refusal: string | null }[];
    }>();
    expect(offered.refusal).toBeNull();
    expect(offered.requests).toHaveLength(4);
    expect(offered.requests.find((request) => request.id === own)).toEqual({
      id: own,
      title: expect.stringMatching(/^Ɔbaa Yaa Foods /),
      refusal: "You cannot decide your own request.",
    });
    expect(offered.requests.filter((request) => request.refusal === null).map((request) => request.id)).toEqual([...theirs].sort());
    expect(offered.requests.every((request) => /^Ɔbaa Yaa Foods \d{4}$/.test(request.title))).toBe(true);

    // The ids must be the ones the binding is for: another choice is refused and nothing is sent.
    const before = await outboxSize();
    for (const other of [theirs, [...ids, await esiAsks()], [theirs[0]!]]) {
      expect((await portal().fetch(`/auth/check?binding=${encodeURIComponent(binding)}&ids=${other.join(",")}`, { headers: kofi })).status).toBe(400);
      const refused = await check({ intent: "send-code", binding, ids: other }, kofi);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ message: "That check is not for these requests. Choose them again and decide." });
    }
    expect((await check({ intent: "send-code", binding }, kofi)).status).toBe(400);
    expect(await outboxSize()).toBe(before);

    // The check by SMS for them: the audit log names the requests it covered.
    expect((await check({ intent: "send-code", binding, ids }, kofi)).status).toBe(200);
    expect((await check({ intent: "code", binding, ids, code: await lastCode() }, kofi)).status).toBe(200);
    const passed = await core()
      .prepare("SELECT after_json FROM audit_log WHERE action = 'auth.check.passed' AND actor_id = 'usr_kofi_boateng' ORDER BY id DESC LIMIT 1")
      .first<{ after_json: string }>();
    expect(JSON.parse(passed!.after_json)).toEqual({ binding, method: "sms", requests: [...ids].sort() });

    // Made for these four, it decides neither a part of them nor more than them.
    const extra = await esiAsks();
    for (const other of [theirs, [...ids, extra], [theirs[0]!, extra]])
      expect((await post("/approvals", chosen("approve-selected", other), kofi)).status).toBe(428);
    expect(await statuses([...theirs, extra])).toEqual(["pending", "pending", "pending", "pending"]);
    // Exactly them: decided, his own named as refused.
    const decided = await post("/approvals", chosen("approve-selected", ids), kofi);
    expect(decided.status).toBe(200);
    expect(textOf(await decided.text())).toContain("Approved 3 requests; 1 could not be decided:");
    expect(await statuses([...theirs, own, extra])).toEqual(["approved", "approved", "approved", "pending", "pending"]);
  });

  it("at most 25 requests a check, said before anything is decided; a choice of only ones the person may not decide is refused before a code", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const many = [];
    for (let i = 0; i < 26; i += 1) many.push(await esiAsks());
    const tooMany = await post("/approvals", chosen("approve-selected", many), kofi);
    expect(tooMany.status).toBe(400);
    expect(textOf(await tooMany.text())).toContain("Choose at most 25 requests at a time: one check covers up to 25.");
    expect(await statuses(many)).toEqual(Array(26).fill("pending"));
    const tooManyAsked = await portal().fetch(`/auth/check?binding=${encodeURIComponent(await batchBinding(many))}&ids=${many.join(",")}`, { headers: kofi });
    expect(tooManyAsked.status).toBe(400);
    expect(await tooManyAsked.json()).toEqual({ message: "Choose at most 25 requests at a time: one check covers up to 25." });
    // Twenty-five do.
    expect((await post("/approvals", chosen("approve-selected", many.slice(0, 25)), kofi)).status).toBe(428);

    const own = [0, 1].map(() => requestChange(KOFI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() }));
    const mine = await Promise.all(own);
    const binding = await batchBinding(mine);
    const offered = await (
      await portal().fetch(`/auth/check?binding=${encodeURIComponent(binding)}&ids=${mine.join(",")}`, { headers: kofi })
    ).json<{
      refusal: string | null;
    }>();
    expect(offered.refusal).toBe("None of the requests you chose can be decided by you.");
    const before = await outboxSize();
    const refused = await check({ intent: "send-code", binding, ids: mine }, kofi);
    expect(refused.status).toBe(403);
    expect(await outboxSize()).toBe(before);
  });
});

// An authenticator app as a person's own factor for fresh checks (decision 049), through the built Worker: setting one
// up needs a check by what the person already has and a current code typed back (a wrong one refused); it then makes
// checks for a decision with nothing sent; a code's time step is taken once; wrong codes count in the account's
// wrong-code lock shared with SMS codes; no one else, in this business or another, can confirm or use one; removing it
// needs a check, and both are audited.
import { describe, expect, it } from "vitest";
import { requestChange } from "#server/approvals/approvals.db";
import type { ChangeValues } from "#server/approvals/change-kinds";
import { appCode, wrongCode } from "../support/authenticator-app";
import { checkBindings, mintFreshCheck, sessionOf } from "../support/fresh-check";
import { actionDataOf, textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { NOT_A_NOTICE } from "../support/sms-texts";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com";
const AMA = "ama.mensah@example.com";
const core = () => portal().core();

let serial = 0;
function newMerchant(): ChangeValues {
  serial += 1;
  const n = String(serial).padStart(4, "0");
  return {
    code: `MER-T${n}`,
    name: `Ɔbaapa Totp Foods ${n}`,
    trading_name: `Ɔbaapa Totp ${n}`,
    tin: `C${String(7_300_000_000 + serial)}`,
    sector: "Retail",
    town: "Kumasi",
    region: "Ashanti",
    address: "3 Adum Road",
    contact_name: "Ama Ɔbaapa",
    contact_phone: "233244000444",
    contact_email: "obaapa@example.com",
  };
}

function headers(cookie: { Cookie: string }, type: string) {
  return { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": type, "CF-Connecting-IP": "198.51.100.40", ...cookie };
}

const post = (path: string, form: Record<string, string>, cookie: { Cookie: string }) =>
  portal().fetch(path, { method: "POST", headers: headers(cookie, "application/x-www-form-urlencoded"), body: new URLSearchParams(form).toString() });

const check = (body: Record<string, string>, cookie: { Cookie: string }) =>
  portal().fetch("/auth/check", { method: "POST", headers: headers(cookie, "application/json"), body: JSON.stringify(body) });

const SECURITY = "/settings?tab=security";

interface Form {
  enrolment: { id: string; secret: string; qr: { size: number; d: string } } | null;
  error: string | null;
}

async function formOf(response: Response): Promise<Form> {
  const data = Object.values(actionDataOf(await response.text())) as ({ authenticatorForm?: Form } | null)[];
  const form = data.find((value) => value?.authenticatorForm)?.authenticatorForm;
  if (!form) throw new Error("No authenticator answer on the page");
  return form;
}

/** Starts setting one up under a check (as the dialog would make it): the one shown, once. */
async function start(cookie: { Cookie: string }, businessId = KUMASI) {
  await mintFreshCheck(core(), cookie, businessId, checkBindings.addAuthenticator());
  const response = await post(SECURITY, { intent: "add-authenticator" }, cookie);
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const { enrolment } = await formOf(response);
  if (!enrolment) throw new Error("Nothing to set up");
  return enrolment;
}

/** Sets one up: its key, and the code that confirmed it (its time step is then taken). */
async function enrolled(cookie: { Cookie: string }): Promise<{ secret: string; code: string }> {
  const enrolment = await start(cookie);
  const code = appCode(enrolment.secret);
  const confirmed = await post(SECURITY, { intent: "confirm-authenticator", enrolment: enrolment.id, code }, cookie);
  expect(confirmed.status).toBe(302);
  return { secret: enrolment.secret, code };
}

const outboxCount = async () => (await core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<number>("n")) ?? 0;

async function statusOf(id: string): Promise<string | undefined> {
  const db = await portal().db();
  return (await db.prepare("SELECT status FROM approval_requests WHERE id = ? AND business_id = ?").bind(id, KUMASI).first<{ status: string }>())?.status;
}

async function auditOf(userId: string, action: string) {
  const { results } = await core()
    .prepare("SELECT entity_id, business_id, after_json FROM audit_log WHERE actor_id = ? AND action = ? ORDER BY rowid")
    .bind(userId, action)
    .all<{ entity_id: string; business_id: string | null; after_json: string }>();
  return results;
}

/** Wrong-code lock state is the account's for the hour: each test that fills it empties it again. */
const clearLock = (userId: string) => core().prepare("DELETE FROM otp_counters WHERE scope = 'account' AND key = ?").bind(userId).run();

describe("setting up an authenticator app", () => {
  it("asks for a check first, shows the QR code and the key once, and a wrong first code is refused", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    expect((await post(SECURITY, { intent: "add-authenticator" }, kofi)).status).toBe(428);
    const enrolment = await start(kofi);
    expect(enrolment.secret).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    expect(enrolment.qr.size).toBeGreaterThan(21);
    // The secret is never stored as it is.
    const row = await core().prepare("SELECT secret_sealed FROM authenticator_apps WHERE id = ?").bind(enrolment.id).first<{ secret_sealed: string }>();
    expect(row?.secret_sealed).not.toContain(enrolment.secret.replace(/ /g, ""));
    const refused = await post(SECURITY, { intent: "confirm-authenticator", enrolment: enrolment.id, code: wrongCode(enrolment.secret) }, kofi);
    expect(refused.status).toBe(400);
    const answer = await formOf(refused);
    expect(answer.error).toBe("That code is not right. Enter the code your authenticator app shows now.");
    // Shown again (not set up yet), and nothing checks with it.
    expect(answer.enrolment?.secret).toBe(enrolment.secret);
    const confirmed = await post(SECURITY, { intent: "confirm-authenticator", enrolment: enrolment.id, code: appCode(enrolment.secret) }, kofi);
    expect(confirmed.status).toBe(302);
    const page = await (await portal().fetch(SECURITY, { headers: kofi })).text();
    expect(page).toContain('data-testid="authenticator"');
    // Never shown again.
    expect(page).not.toContain(enrolment.secret);
    const { sub } = sessionOf(kofi);
    expect((await auditOf(sub, "auth.totp.added")).map((entry) => [entry.entity_id, entry.business_id])).toEqual([[enrolment.id, KUMASI]]);
    // One at a time.
    await mintFreshCheck(core(), kofi, KUMASI, checkBindings.addAuthenticator());
    expect((await formOf(await post(SECURITY, { intent: "add-authenticator" }, kofi))).error).toBe(
      "An authenticator app is already set up. Remove it first to set up another.",
    );
  });

  it("is the person's own: no one else, in another business, can confirm or use it", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const ama = await signedInCookie(portal(), AMA, ACCRA);
    await core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ?").bind(new Date().toISOString(), sessionOf(kofi).sub).run();
    const enrolment = await start(kofi);
    // Ama (an Administrator of another business) has Kofi's enrolment and a right code: nothing is linked to anyone.
    const stolen = await post(SECURITY, { intent: "confirm-authenticator", enrolment: enrolment.id, code: appCode(enrolment.secret) }, ama);
    expect(stolen.status).toBe(400);
    const linked = await core()
      .prepare("SELECT count(*) AS n FROM authenticator_apps WHERE confirmed_at IS NOT NULL AND removed_at IS NULL AND user_id IN (?, ?)")
      .bind(sessionOf(kofi).sub, sessionOf(ama).sub)
      .first<number>("n");
    expect(linked).toBe(0);
    // Another session of Kofi's own (a stolen cookie of another sign-in) cannot either: only the session that set it up.
    const otherSession = await signedInCookie(portal(), KOFI);
    expect((await post(SECURITY, { intent: "confirm-authenticator", enrolment: enrolment.id, code: appCode(enrolment.secret) }, otherSession)).status).toBe(
      400,
    );
    // Ama's checks know no authenticator app.
    const asked = await check({ intent: "totp", binding: "decide:req_none", code: appCode(enrolment.secret) }, ama);
    expect(asked.status).toBe(400);
    expect((await asked.json<{ message: string }>()).message).toBe("You have no authenticator app set up: add one in Settings → Security, or use another way.");
    await clearLock(sessionOf(ama).sub);
  });
});

describe("a check by the authenticator app", () => {
  it("approves a decision with nothing sent, and a code's time step is taken once", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    await core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ?").bind(new Date().toISOString(), sessionOf(kofi).sub).run();
    const { secret, code } = await enrolled(kofi);
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    const binding = checkBindings.decision(id);
    const offer = await (await portal().fetch(`/auth/check?binding=${encodeURIComponent(binding)}`, { headers: kofi })).json<Record<string, unknown>>();
    expect(offer).toMatchObject({ authenticator: true });
    const sent = await outboxCount();
    // The step the set-up took is not taken again: the next step's code (within the window) is.
    const sameStep = await check({ intent: "totp", binding, code }, kofi);
    expect(sameStep.status).toBe(400);
    expect((await sameStep.json<{ message: string }>()).message).toBe("That code was already used. Wait for the next one in your authenticator app.");
    const next = appCode(secret, Date.now() + 30_000);
    expect((await check({ intent: "totp", binding, code: next }, kofi)).status).toBe(200);
    expect((await post(`/approvals/merchant/${id}`, { intent: "approve" }, kofi)).status).toBe(302);
    expect(await statusOf(id)).toBe("approved");
    expect(await outboxCount()).toBe(sent);
    const method = await core()
      .prepare("SELECT method, proof_id FROM fresh_checks WHERE binding = ? ORDER BY created_at DESC LIMIT 1")
      .bind(binding)
      .first<{ method: string; proof_id: string }>();
    expect(method?.method).toBe("totp");
    // The same code again, for another request, in the same step: refused.
    const other = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
    const replay = await check({ intent: "totp", binding: checkBindings.decision(other), code: next }, kofi);
    expect(replay.status).toBe(400);
    expect((await post(`/approvals/merchant/${other}`, { intent: "approve" }, kofi)).status).toBe(428);
  });

  it("counts wrong codes in the account's wrong-code lock, which then refuses every code", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const { sub } = sessionOf(kofi);
    await core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ?").bind(new Date().toISOString(), sub).run();
    const { secret } = await enrolled(kofi);
    await clearLock(sub);
    const binding = checkBindings.decision("req_lock");
    const wrong = await check({ intent: "totp", binding, code: wrongCode(secret) }, kofi);
    expect(wrong.status).toBe(400);
    expect(await core().prepare("SELECT failures FROM otp_counters WHERE scope = 'account' AND key = ?").bind(sub).first<number>("failures")).toBe(1);
    // 18 more wrong codes (by text message or by app, they are one count), then one more by the app: locked.
    await core().prepare("UPDATE otp_counters SET failures = 19 WHERE scope = 'account' AND key = ?").bind(sub).run();
    const last = await check({ intent: "totp", binding, code: wrongCode(secret) }, kofi);
    expect(last.status).toBe(429);
    expect((await last.json<{ message: string }>()).message).toMatch(/^Too many wrong codes\. Checks by code are locked for \d+ minutes\.$/);
    expect(await auditOf(sub, "auth.check.code_lockout")).toHaveLength(1);
    // Locked: the right code does not do either, and no text message is sent.
    const right = await check({ intent: "totp", binding, code: appCode(secret, Date.now() + 30_000) }, kofi);
    expect(right.status).toBe(429);
    const sms = await check({ intent: "send-code", binding }, kofi);
    expect(sms.status).toBe(429);
    await clearLock(sub);
  });
});

describe("removing the authenticator app", () => {
  it("needs a check, is audited, and its codes check nothing after", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const { sub } = sessionOf(kofi);
    await core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ?").bind(new Date().toISOString(), sub).run();
    const { secret } = await enrolled(kofi);
    expect((await post(SECURITY, { intent: "remove-authenticator" }, kofi)).status).toBe(428);
    await mintFreshCheck(core(), kofi, KUMASI, checkBindings.removeAuthenticator());
    expect((await post(SECURITY, { intent: "remove-authenticator" }, kofi)).status).toBe(302);
    const removed = await auditOf(sub, "auth.totp.removed");
    expect(removed.at(-1)?.business_id).toBe(KUMASI);
    const page = await (await portal().fetch(SECURITY, { headers: kofi })).text();
    expect(page).not.toContain('data-testid="authenticator"');
    expect(page).toContain("Set up an authenticator app");
    const after = await check({ intent: "totp", binding: checkBindings.decision("req_after"), code: appCode(secret, Date.now() + 30_000) }, kofi);
    expect(after.status).toBe(400);
    await clearLock(sub);
  });

  it("signs the person's other sessions out, as removing a passkey does; this one stays, and a second removal ends nothing", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const { sub } = sessionOf(kofi);
    await core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ?").bind(new Date().toISOString(), sub).run();
    await enrolled(kofi);
    // Two other sign-ins of his (a phone, a laptop), and Ama's, which is not his to end.
    const phone = await signedInCookie(portal(), KOFI);
    const laptop = await signedInCookie(portal(), KOFI);
    const ama = await signedInCookie(portal(), AMA, ACCRA);
    await mintFreshCheck(core(), kofi, KUMASI, checkBindings.removeAuthenticator());
    const removed = await post(SECURITY, { intent: "remove-authenticator" }, kofi);
    expect(removed.status).toBe(302);
    // The flash the redirect carries, read on the tab it goes back to.
    const flash = removed.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
    const page = await portal().fetch(SECURITY, { headers: { Cookie: [kofi.Cookie, ...flash].join("; ") } });
    expect(page.status).toBe(200);
    // His two, and any other this file's tests left open.
    expect(await page.text()).toMatch(/The authenticator app is removed\. Your \d+ other sessions were signed out\./);
    for (const other of [phone, laptop]) expect((await portal().fetch(SECURITY, { headers: other, redirect: "manual" })).status).toBe(302);
    expect((await portal().fetch("/settings?tab=security", { headers: ama })).status).toBe(200);
    const revoked = await auditOf(sub, "auth.sessions_revoked");
    expect(JSON.parse(revoked.at(-1)!.after_json)).toEqual({ reason: "authenticator_removed", kept: sessionOf(kofi).sid });
    // Nothing left to remove: no session is ended again.
    await mintFreshCheck(core(), kofi, KUMASI, checkBindings.removeAuthenticator());
    expect((await post(SECURITY, { intent: "remove-authenticator" }, kofi)).status).toBe(404);
    expect(await auditOf(sub, "auth.sessions_revoked")).toHaveLength(revoked.length);
  });
});

describe("signing in with the app", () => {
  /** A new login by email: the identified session's cookie, at the code step's door (/authenticate). */
  async function login(email: string): Promise<{ Cookie: string }> {
    const started = await portal().fetch("/login-option", {
      method: "POST",
      headers: { ...headers({ Cookie: "" }, "application/x-www-form-urlencoded"), "CF-Connecting-IP": "198.51.100.41" },
      body: new URLSearchParams({ email }).toString(),
      redirect: "manual",
    });
    expect(started.headers.get("Location")).toBe("/authenticate");
    const cookie = started.headers
      .getSetCookie()
      .find((header) => header.startsWith("pp_session=ey"))!
      .split(";")[0]!;
    return { Cookie: cookie };
  }
  const byApp = (code: string, cookie: { Cookie: string }) =>
    portal().fetch("/authenticate/verify?with=app", {
      method: "POST",
      headers: headers(cookie, "application/x-www-form-urlencoded"),
      body: new URLSearchParams({ intent: "app", code }).toString(),
      redirect: "manual",
    });

  it("gives the app's code at the code step instead of a text message: nothing sent, a step signs in once, wrong codes counted", async () => {
    const kofi = await signedInCookie(portal(), KOFI);
    const { sub } = sessionOf(kofi);
    await core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = ?").bind(new Date().toISOString(), sub).run();
    const { secret, code: enrolCode } = await enrolled(kofi);
    await clearLock(sub);
    const sentBefore = await outboxCount();

    const identified = await login(KOFI);
    const choice = await (await portal().fetch("/authenticate", { headers: identified })).text();
    expect(choice).toContain("How do you want to sign in?");
    expect(choice).toContain('href="/authenticate/verify?with=app"');
    const step = await portal().fetch("/authenticate/verify?with=app", { headers: identified, redirect: "manual" });
    expect(step.status).toBe(200);
    expect(await step.text()).toContain("Code from your authenticator app");

    const wrong = await byApp(wrongCode(secret), identified);
    expect(wrong.status).toBe(400);
    expect(textOf(await wrong.text())).toContain("That code is not right. Enter the code your authenticator app shows now.");
    expect(await core().prepare("SELECT failures FROM otp_counters WHERE scope = 'account' AND key = ?").bind(sub).first<number>("failures")).toBe(1);
    // The set-up took its step: that code does not sign in.
    expect(textOf(await (await byApp(enrolCode, identified)).text())).toContain("That code was already used. Wait for the next one in your authenticator app.");

    const next = appCode(secret, Date.now() + 30_000);
    const signedIn = await byApp(next.replace(/^(\d{3})/, "$1 "), identified);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/select-business");
    const verified = signedIn.headers
      .getSetCookie()
      .find((header) => header.startsWith("pp_session=ey"))!
      .split(";")[0]!;
    expect((await portal().fetch("/select-business", { headers: { Cookie: verified } })).status).toBe(200);
    expect(await outboxCount()).toBe(sentBefore);
    expect(await auditOf(sub, "auth.totp.signed_in")).toHaveLength(1);

    // Its step is taken: the same code signs nobody in again, nor checks a decision.
    const again = await login(KOFI);
    expect(textOf(await (await byApp(next, again)).text())).toContain("That code was already used.");
    expect((await check({ intent: "totp", binding: checkBindings.decision("req_after_sign_in"), code: next }, kofi)).status).toBe(400);

    // The wrong-code lock every code shares refuses sign-in by the app too, in sign-in's words.
    await core().prepare("UPDATE otp_counters SET failures = 20 WHERE scope = 'account' AND key = ?").bind(sub).run();
    const locked = await byApp(appCode(secret, Date.now() + 60_000), again);
    expect(textOf(await locked.text())).toMatch(/Too many wrong codes\. Sign-in is locked for \d+ minutes\./);
    await clearLock(sub);
  });

  it("is offered only to a person who has set the app up", async () => {
    const identified = await login(AMA);
    await core().prepare("UPDATE authenticator_apps SET removed_at = ? WHERE user_id = 'usr_ama_mensah'").bind(new Date().toISOString()).run();
    expect(await (await portal().fetch("/authenticate", { headers: identified })).text()).not.toContain("Use your authenticator app");
    const step = await portal().fetch("/authenticate/verify?with=app", { headers: identified, redirect: "manual" });
    expect(step.status).toBe(302);
    expect(step.headers.get("Location")).toBe("/authenticate");
    // A code sent for it anyway signs nobody in: the step sends them back to choose a way.
    const posted = await byApp("123456", identified);
    expect(posted.headers.get("Location")).toBe("/authenticate");
    expect((await portal().fetch("/select-business", { headers: identified, redirect: "manual" })).status).toBe(302);
  });
});

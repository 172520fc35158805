// Decision 029: one business must never add a way to sign in to a person's account. Kofi (Kumasi Fresh
// Foods) invites the email of someone who already has an account elsewhere, with a phone the attacker holds; Ama
// approves. The invitation still makes the person an employee of Kumasi, but the attacker's phone is at most Kumasi's
// own contact number for that membership: sign-in (the core database) never offers it, no code is sent to it, and no
// other business's view of the person (name, phones) changes. A phone becomes a way to sign in only when its owner
// proves it (Settings → Security, a code to that phone while signed in): that is tested here too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskPhone } from "#app/lib/forms/phone";
import type { AuthDeps } from "#server/auth/deps";
import { requestOtp } from "#server/auth/otp";
import { startLogin } from "#server/auth/sign-in";
import type { SmsMessage, SmsPort } from "#server/sms/sms";
import { configOf } from "#server/env";
import { sendChecked } from "../support/fresh-check";
import { loaderDataOf, textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { NOT_A_NOTICE } from "../support/sms-texts";

const portal = usePortal();
const config = configOf({ ENVIRONMENT: "development" }).auth;
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods: the maker
const AMA = "ama.mensah@example.com"; // Super Administrator there: the checker
const YAW = { id: "usr_yaw_asante", email: "yaw.asante@example.com", name: "Yaw Asante", phone: "233277001122" }; // Viewer, Accra Mobile Pay

function deps(): AuthDeps {
  return { db: portal().core(), businessDb: (businessId, shard) => ({ businessId, db: portal().database(shard) }), config, meta: META, now: () => Date.now() };
}

function capture(): SmsPort & { sent: SmsMessage[] } {
  const sent: SmsMessage[] = [];
  return { kind: "dev-outbox", sent, send: async (message) => void sent.push(message) };
}

async function postAs(email: string, businessId: string, path: string, form: Record<string, string>): Promise<Response> {
  const cookie = await signedInCookie(portal(), email, businessId);
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(path, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

/** Kofi invites `email` with `phone` as a Viewer of Kumasi, Ama approves; the approval's answer. */
async function kofiInvitesAmaApproves(email: string, phone: string, name: string): Promise<{ requestId: string; approval: Response }> {
  const invited = await postAs(KOFI, KUMASI, "/settings?tab=team", { intent: "invite", name, email, phone, gender: "male", role: "Viewer" });
  expect(invited.status, await invited.clone().text()).toBeLessThan(400);
  const request = await portal()
    .businessDb(KUMASI)
    .prepare(
      "SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND status = 'pending' AND action = 'create' AND json_extract(after_json, '$.email') = ?",
    )
    .bind(KUMASI, email)
    .first<{ id: string }>();
  expect(request, "the invitation waits for approval").not.toBeNull();
  const approval = await postAs(AMA, KUMASI, `/approvals/employee/${request!.id}`, { intent: "approve" });
  return { requestId: request!.id, approval };
}

async function phonesOf(db: D1Database, userId: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT msisdn FROM user_phones WHERE user_id = ? ORDER BY msisdn").bind(userId).all<{ msisdn: string }>();
  return results.map((row) => row.msisdn);
}

async function nameOf(db: D1Database, userId: string): Promise<string | null> {
  return (await db.prepare("SELECT name FROM users WHERE id = ?").bind(userId).first<{ name: string }>())?.name ?? null;
}

/** What the attacker gets when signing in as the victim and asking for a code to the attacker's phone. */
async function attackerAsksForCode(email: string, attackerPhone: string) {
  const started = await startLogin(new Request("https://portal.example.com/login"), deps(), { email, channel: "userUniqueEmail" });
  if (!started.ok) throw new Error(started.message);
  const sms = capture();
  // The attacker posts the number even if the page does not offer it.
  const forged = { ...started.session, linkedNumbers: [...started.session.linkedNumbers, attackerPhone] };
  const answer = await requestOtp(
    new Request("https://portal.example.com/authenticate"),
    deps(),
    forged,
    { msisdn: attackerPhone, masked: maskPhone(attackerPhone) },
    sms,
  );
  return { offered: started.session.linkedNumbers, answer, sent: sms.sent };
}

describe("inviting a person who already has an account", () => {
  it("never links the inviting business's phone to the account: the attacker gets no code, Yaw's own sign-in and Accra's view are unchanged", async () => {
    const attacker = "233559990001";
    const accraBefore = { phones: await phonesOf(portal().businessDb(ACCRA), YAW.id), name: await nameOf(portal().businessDb(ACCRA), YAW.id) };
    const { approval } = await kofiInvitesAmaApproves(YAW.email, attacker, "Yaw A. (Kumasi)");
    expect(approval.status, "the invitation itself is approved").toBeLessThan(400);

    // The invitation did what it is for: Yaw is a Viewer of Kumasi now, as sign-in lists it.
    const member = await portal().core().prepare("SELECT role, status FROM memberships WHERE business_id = ? AND user_id = ?").bind(KUMASI, YAW.id).first();
    expect(member).toEqual({ role: "Viewer", status: "active" });

    // Sign-in (the core database) knows only Yaw's own number; the attacker's is not a way in.
    expect(await phonesOf(portal().core(), YAW.id)).toEqual([YAW.phone]);
    const attack = await attackerAsksForCode(YAW.email, attacker);
    expect(attack.offered).toEqual([YAW.phone]);
    expect(attack.answer).toMatchObject({ ok: false, reason: "notLinked" });
    expect(attack.sent).toEqual([]);

    // Yaw's own sign-in is as it was: a code to his own phone.
    const own = capture();
    const started = await startLogin(new Request("https://portal.example.com/login"), deps(), { email: YAW.email, channel: "userUniqueEmail" });
    if (!started.ok) throw new Error(started.message);
    const sent = await requestOtp(
      new Request("https://portal.example.com/authenticate"),
      deps(),
      started.session,
      { msisdn: YAW.phone, masked: maskPhone(YAW.phone) },
      own,
    );
    expect(sent.ok).toBe(true);
    expect(own.sent.map((m) => m.to)).toEqual([YAW.phone]);

    // No business changed another's view of him: Accra's copy, the core's, and even Kumasi's read his own name and number.
    expect({ phones: await phonesOf(portal().businessDb(ACCRA), YAW.id), name: await nameOf(portal().businessDb(ACCRA), YAW.id) }).toEqual(accraBefore);
    expect(await nameOf(portal().core(), YAW.id)).toBe(YAW.name);
    expect(await nameOf(portal().businessDb(KUMASI), YAW.id)).toBe(YAW.name);
    expect(await phonesOf(portal().businessDb(KUMASI), YAW.id)).not.toContain(attacker);
    // What Kofi typed is Kumasi's own contact number for the membership, nothing more.
    const contact = await portal()
      .businessDb(KUMASI)
      .prepare("SELECT contact_phone FROM memberships WHERE business_id = ? AND user_id = ?")
      .bind(KUMASI, YAW.id)
      .first<{ contact_phone: string | null }>();
    expect(contact?.contact_phone).toBe(attacker);
  });

  it("the same attack on a Super Administrator of another business fails the same way", async () => {
    // Accra gets a Super Administrator of its own (the tiny seed has none), on its database and in the core one.
    const victim = { id: "usr_serwaa_owusu_ansah", email: "serwaa.ansah@example.com", phone: "233244000777" };
    const at = new Date().toISOString();
    for (const db of [portal().core(), portal().businessDb(ACCRA)]) {
      await db.batch([
        db
          .prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, 'Serwaa Owusu-Ansah', 'female', ?)")
          .bind(victim.id, victim.email, at),
        db.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(victim.id, victim.phone, at),
        db
          .prepare(
            "INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version) VALUES (?, ?, 'Super Administrator', 'active', ?, ?, 1)",
          )
          .bind(ACCRA, victim.id, at, at),
      ]);
    }
    const attacker = "233559990002";
    const { approval } = await kofiInvitesAmaApproves(victim.email, attacker, "Serwaa");
    expect(approval.status).toBeLessThan(400);
    expect(await phonesOf(portal().core(), victim.id)).toEqual([victim.phone]);
    expect(await phonesOf(portal().businessDb(ACCRA), victim.id)).toEqual([victim.phone]);
    const attack = await attackerAsksForCode(victim.email, attacker);
    expect(attack.offered).toEqual([victim.phone]);
    expect(attack.answer).toMatchObject({ ok: false, reason: "notLinked" });
    expect(attack.sent).toEqual([]);
    // Still Accra's Super Administrator, nothing else changed there.
    const role = await portal()
      .core()
      .prepare("SELECT role FROM memberships WHERE business_id = ? AND user_id = ?")
      .bind(ACCRA, victim.id)
      .first<string>("role");
    expect(role).toBe("Super Administrator");
  });

  it("an email that got an account after the invitation was made is not given the invited phone: the request is stale", async () => {
    const email = "kwame.nkansah@example.com";
    const invited = await postAs(KOFI, KUMASI, "/settings?tab=team", {
      intent: "invite",
      name: "Kwame",
      email,
      phone: "233559990003",
      gender: "male",
      role: "Viewer",
    });
    expect(invited.status).toBeLessThan(400);
    // Meanwhile another business's invitation made the account (as its approval copies it to the core).
    const at = new Date().toISOString();
    await portal()
      .core()
      .batch([
        portal()
          .core()
          .prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES ('usr_kwame_elsewhere', ?, 'Kwame Nkansah', 'male', ?)")
          .bind(email, at),
        portal().core().prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES ('usr_kwame_elsewhere', '233244000888', ?)").bind(at),
      ]);
    const request = await portal()
      .businessDb(KUMASI)
      .prepare(
        "SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND status = 'pending' AND json_extract(after_json, '$.email') = ?",
      )
      .bind(KUMASI, email)
      .first<{ id: string }>();
    const approval = await postAs(AMA, KUMASI, `/approvals/employee/${request!.id}`, { intent: "approve" });
    expect(approval.status).toBe(400);
    const status = await portal().businessDb(KUMASI).prepare("SELECT status FROM approval_requests WHERE id = ?").bind(request!.id).first<string>("status");
    expect(status).toBe("stale");
    expect(await phonesOf(portal().core(), "usr_kwame_elsewhere")).toEqual(["233244000888"]);
  });
});

describe("what the inviting business sees of the person", () => {
  // A local number as people write it (024 555 0191), from the 233 form.
  const written = (msisdn: string) => `0${msisdn.slice(3, 5)} ${msisdn.slice(5, 8)} ${msisdn.slice(8)}`;
  const msisdn = fc
    .tuple(fc.constantFrom("24", "54", "55", "20", "50", "27", "26"), fc.stringMatching(/^[0-9]{7}$/))
    .map(([network, rest]) => `233${network}${rest}`);
  let n = 0;

  /** Kofi asks that the person take another role; the request's page. */
  async function roleChangePage(userId: string, role = "Operations"): Promise<string> {
    const asked = await postAs(KOFI, KUMASI, "/settings?tab=team", { intent: "change-role", userId, role });
    expect(asked.status, await asked.clone().text()).toBeLessThan(400);
    const request = await portal()
      .businessDb(KUMASI)
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND action = 'update' AND target_id = ? AND status = 'pending'")
      .bind(KUMASI, userId)
      .first<{ id: string }>();
    return `/approvals/employee/${request!.id}`;
  }

  it("is the number it typed (its contact phone), never the person's sign-in phones: Team tab and request page", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(msisdn, { minLength: 2, maxLength: 4, selector: (p) => p.slice(-4) }), async ([typed, ...own]) => {
        // Someone who signs in with numbers of their own (another business's person).
        n++;
        // The clock in base 36: thirteen decimal digits in a row can pass Luhn, and the form reader refuses a card number
        // in any field (decision 031), the email too.
        const stamp = Date.now().toString(36);
        const person = { id: `usr_contact_${n}_${stamp}`, email: `contact.${n}.${stamp}@example.com` };
        const at = new Date().toISOString();
        const core = portal().core();
        await core.batch([
          core
            .prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'female', ?)")
            .bind(person.id, person.email, `Aba Ɛsi ${n}`, at),
          ...own.map((phone) => core.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?)").bind(person.id, phone, at)),
        ]);
        const { requestId, approval } = await kofiInvitesAmaApproves(person.email, written(typed!), "Aba");
        expect(approval.status, await approval.clone().text()).toBeLessThan(400);
        // Their own numbers are still theirs to sign in with, and the typed one is not among them (decision 029).
        expect(await phonesOf(core, person.id)).toEqual([...own].sort());

        const seen = async (path: string) => {
          const html = await (await portal().fetch(path, { headers: await signedInCookie(portal(), KOFI, KUMASI) })).text();
          for (const phone of own) expect(html, path).not.toContain(phone);
          return html;
        };
        // The Team tab lists 25 by name, and the people this file adds may push the new one past the first page.
        type TeamPage = { team: { employees: { email: string; phone: string | null }[]; hasNext: boolean } };
        let listed: { phone: string | null } | undefined;
        for (let page = 1; !listed; page++) {
          const { team } = loaderDataOf(await seen(`/settings?tab=team&page=${page}`))["routes/settings"] as TeamPage;
          listed = team.employees.find((e) => e.email === person.email);
          if (!listed && !team.hasNext) break;
        }
        // Masks show the last four digits, which the generated numbers keep apart.
        expect(listed?.phone).toBe(maskPhone(typed!));
        // The invitation's page shows what was typed; a later request's page (a role change) the contact phone, masked.
        expect(textOf(await seen(`/approvals/employee/${requestId}`))).toContain(typed!.slice(-4));
        const roleChange = await roleChangePage(person.id);
        expect(await seen(roleChange)).toContain(maskPhone(typed!));
      }),
      { numRuns: 5 },
    );
  }, 120_000);

  it("is no number at all for a membership from before contact phones (migration 0025), never the person's own", async () => {
    const esi = "usr_esi_owusu"; // Operations, Kumasi Fresh Foods
    // Memberships made before migration 0025 have no contact phone; the person's numbers are still theirs alone.
    await portal().businessDb(KUMASI).prepare("UPDATE memberships SET contact_phone = NULL WHERE business_id = ? AND user_id = ?").bind(KUMASI, esi).run();
    const cookie = await signedInCookie(portal(), KOFI, KUMASI);
    const html = await (await portal().fetch("/settings?tab=team", { headers: cookie })).text();
    const team = loaderDataOf(html)["routes/settings"] as { team: { employees: { userId: string; phone: string | null }[] } };
    expect(team.team.employees.find((e) => e.userId === esi)).toMatchObject({ phone: null });
    const own = await phonesOf(portal().businessDb(KUMASI), esi);
    expect(own.length).toBeGreaterThan(0);
    const page = await (await portal().fetch(await roleChangePage(esi, "Viewer"), { headers: cookie })).text();
    for (const phone of own) expect(page).not.toContain(maskPhone(phone));
  });
});

describe("inviting a new person", () => {
  it("makes the account with the invited phone as its first way to sign in (that is how invitation works)", async () => {
    const email = "efua.mensah.new@example.com";
    const phone = "233559990004";
    const { approval } = await kofiInvitesAmaApproves(email, phone, "Efua Mensah");
    expect(approval.status).toBeLessThan(400);
    const user = await portal().core().prepare("SELECT id, name FROM users WHERE email = ?").bind(email).first<{ id: string; name: string }>();
    expect(user?.name).toBe("Efua Mensah");
    expect(await phonesOf(portal().core(), user!.id)).toEqual([phone]);
    const started = await startLogin(new Request("https://portal.example.com/login"), deps(), { email, channel: "userUniqueEmail" });
    expect(started.ok && started.session.linkedNumbers).toEqual([phone]);
  });
});

describe("adding a phone number (Settings → Security)", () => {
  const ABENA = { id: "usr_abena_darko", email: "abena.darko@example.com", phone: "233554443332" }; // Finance, Kumasi

  async function securityPost(cookie: { Cookie: string }, form: Record<string, string>, checked = true): Promise<Response> {
    const send = () =>
      portal().fetch("/settings?tab=security", {
        method: "POST",
        redirect: "manual",
        headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
        body: new URLSearchParams(form).toString(),
      });
    return checked ? sendChecked(portal().core(), cookie, send) : send();
  }

  async function codesTo(msisdn: string): Promise<string[]> {
    const { results } = await portal()
      .core()
      .prepare(`SELECT body FROM dev_outbox WHERE ${NOT_A_NOTICE} AND to_msisdn = ? ORDER BY id`)
      .bind(msisdn)
      .all<{ body: string }>();
    return results.map((row) => /\b(\d{6})\b/.exec(row.body)?.[1] ?? "");
  }

  it("links a number only once a code sent to it comes back, in the core database and in each business's copy", async () => {
    const cookie = await signedInCookie(portal(), ABENA.email, KUMASI);
    const added = "233559990031";
    // Without a check by what Abena already has, nothing is sent: 428 asks for one.
    const unchecked = await securityPost(cookie, { intent: "add-phone", phone: "055 999 0031" }, false);
    expect(unchecked.status).toBe(428);
    expect(await codesTo(added)).toEqual([]);

    const sent = await securityPost(cookie, { intent: "add-phone", phone: "055 999 0031" });
    expect(sent.status).toBe(200);
    const [code] = await codesTo(added);
    expect(code).toMatch(/^\d{6}$/);
    // Sent, not linked: an unproven number is no way in.
    expect(await phonesOf(portal().core(), ABENA.id)).toEqual([ABENA.phone]);

    const wrong = await securityPost(cookie, { intent: "confirm-phone", phone: added, code: String((Number(code) + 1) % 1_000_000).padStart(6, "0") });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("That code is not right.");
    expect(await phonesOf(portal().core(), ABENA.id)).toEqual([ABENA.phone]);

    const right = await securityPost(cookie, { intent: "confirm-phone", phone: added, code: code! });
    expect(right.status).toBe(302);
    expect(await phonesOf(portal().core(), ABENA.id)).toEqual([added, ABENA.phone].sort());
    expect(await phonesOf(portal().businessDb(KUMASI), ABENA.id)).toEqual([added, ABENA.phone].sort());
    const how = await portal()
      .core()
      .prepare("SELECT linked_by FROM user_phones WHERE user_id = ? AND msisdn = ?")
      .bind(ABENA.id, added)
      .first<string>("linked_by");
    expect(how).toBe("owner");
    const started = await startLogin(new Request("https://portal.example.com/login"), deps(), { email: ABENA.email, channel: "userUniqueEmail" });
    expect(started.ok && [...started.session.linkedNumbers].sort()).toEqual([added, ABENA.phone].sort());
    const audit = await portal()
      .core()
      .prepare("SELECT after_json FROM audit_log WHERE action = 'auth.phone.linked' AND entity_id = ?")
      .bind(ABENA.id)
      .first<string>("after_json");
    expect(audit).toContain("233*****0031");
    expect(audit).not.toContain(added);
  });

  it("a code to the person's old phone, or a check made elsewhere, never links a new one", async () => {
    const cookie = await signedInCookie(portal(), ESI_EMAIL, KUMASI);
    const target = "233559990032";
    // /auth/check never sends (or takes) the code that proves a new phone.
    const forged = await portal().fetch("/auth/check", {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", ...cookie },
      body: JSON.stringify({ intent: "send-code", binding: `prove-phone:${target}` }),
    });
    expect(forged.status).toBe(400);
    // A code for the check before sending (to Esi's own phone) does not prove the new one.
    const viaCheck = await portal().fetch("/auth/check", {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json", ...cookie },
      body: JSON.stringify({ intent: "send-code", binding: `phone:add:${target}` }),
    });
    expect(viaCheck.status).toBe(200);
    const [ownCode] = await codesTo(ESI_PHONE);
    const confirmed = await securityPost(cookie, { intent: "confirm-phone", phone: target, code: ownCode! });
    expect(confirmed.status).toBe(400);
    expect(await confirmed.text()).toContain("Ask for a code first.");
    expect(await codesTo(target)).toEqual([]);
    expect(await phonesOf(portal().core(), "usr_esi_owusu")).toEqual([ESI_PHONE]);
  });
});

const ESI_EMAIL = "esi.owusu@example.com";
const ESI_PHONE = "233201112223";

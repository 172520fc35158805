// /settings' tabs and its Team tab through the built Worker: each tab loads only
// what it shows, the Team tab is for roles that view employees, and inviting,
// changing a role and deactivating go to maker-checker, refused (with nothing
// written) when the form is bad, the email taken, the role not grantable, the
// target oneself, another business's, or the poster's role cannot ask.
import { describe, expect, it } from "vitest";
import { PHONE_MESSAGE } from "#app/lib/forms/phone";
import { loaderDataOf, textOf, titleOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods
const AMA = "ama.mensah@example.com"; // Super Administrator there
const ESI = "esi.owusu@example.com"; // Operations there
const YAW = "yaw.asante@example.com"; // Viewer, Accra Mobile Pay

async function post(form: Record<string, string>, email = KOFI, businessId = KUMASI) {
  return portal().fetch("/settings?tab=team", {
    method: "POST",
    headers: {
      Origin: portal().url,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/x-www-form-urlencoded",
      ...(await signedInCookie(portal(), email, businessId)),
    },
    body: new URLSearchParams(form).toString(),
  });
}

async function get(path: string, email = KOFI, businessId = KUMASI) {
  return portal().fetch(path, { headers: await signedInCookie(portal(), email, businessId) });
}

/** Everything a refused request could have left behind: requests, audit rows, memberships. */
async function written(): Promise<string> {
  const db = await portal().db();
  const counts = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM approval_requests) AS requests, (SELECT COUNT(*) FROM audit_log) AS audit,
              (SELECT group_concat(business_id || user_id || role || status || version) FROM memberships) AS memberships`,
    )
    .first();
  return JSON.stringify(counts);
}

async function pendingFor(targetId: string) {
  const db = await portal().db();
  return db
    .prepare("SELECT action, after_json, maker_id FROM approval_requests WHERE kind = 'employee' AND status = 'pending' AND target_id = ?")
    .bind(targetId)
    .first<{ action: string; after_json: string; maker_id: string }>();
}

const GOOD_INVITE = { intent: "invite", name: "Efua Addo", email: "Efua.Addo@Example.com ", phone: "024 555 0101", gender: "female", role: "Operations" };

function settingsData(html: string) {
  return loaderDataOf(html)["routes/settings"] as Record<string, unknown>;
}

describe("/settings tabs", () => {
  it("loads only the chosen tab's data", async () => {
    const profile = settingsData(await (await get("/settings")).text());
    expect(profile.tab).toBe("profile");
    expect(Object.keys(profile).sort()).toEqual(["canSeeAudit", "canSeeDevelopers", "canSeeTeam", "emailChoices", "tab", "user"]);

    const business = settingsData(await (await get("/settings?tab=business")).text());
    expect(Object.keys(business).sort()).toEqual(["business", "canSeeAudit", "canSeeDevelopers", "canSeeTeam", "policy", "tab"]);

    const security = settingsData(await (await get("/settings?tab=security")).text());
    expect(Object.keys(security).sort()).toEqual(["authenticator", "canSeeAudit", "canSeeDevelopers", "canSeeTeam", "passkeys", "phones", "sessions", "tab"]);

    const team = settingsData(await (await get("/settings?tab=team")).text());
    expect(Object.keys(team).sort()).toEqual(["canSeeAudit", "canSeeDevelopers", "canSeeTeam", "tab", "team"]);
  });

  it("an unknown tab is a 404 with the full path", async () => {
    const response = await get("/settings?tab=payroll");
    expect(response.status).toBe(404);
    expect(textOf(await response.text())).toContain("Page Not Found: /settings?tab=payroll");
  });

  it("the Team tab is hidden from, and refused to, a role without view:employee", async () => {
    const page = await get("/settings", ESI);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('href="/settings?tab=team"');
    expect(html).toContain('href="/settings?tab=security"');
    expect(settingsData(html).canSeeTeam).toBe(false);

    const team = await get("/settings?tab=team", ESI);
    expect(team.status).toBe(403);
    const refused = await team.text();
    // SPEC allows the error pages only two titles; the heading is what says a refusal happened.
    expect(titleOf(refused)).toBe("Internal Server Error");
    expect(/<h1\b[^>]*>([^<]*)<\/h1>/.exec(refused)?.[1]).toBe("You don&#x27;t have access to this page");
    const text = textOf(refused);
    expect(text).not.toContain("Abena Darko");
    expect((await get("/settings?tab=team", YAW, ACCRA)).status).toBe(403);
  });

  it("the Team tab lists the business's employees with masked phones, and no one else's", async () => {
    const response = await get("/settings?tab=team");
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = textOf(html);
    for (const name of ["Ama Mensah", "Kofi Boateng", "Esi Owusu", "Abena Darko"]) expect(text).toContain(name);
    expect(text).not.toContain("Yaw Asante");
    // Phones leave the server masked.
    expect(html).not.toContain("233554443332");
    expect(text).toMatch(/233\*+3332/);
    // The seeded invitation waits for approval and is shown as such.
    expect(text).toContain("Invitations waiting for approval");
    expect(text).toContain("Adwoa Sarpong");
    const team = settingsData(html).team as { grantable: string[]; employees: { name: string; self: boolean; actionable: boolean }[] };
    expect(team.grantable).not.toContain("Super Administrator");
    const kofi = team.employees.find((e) => e.name === "Kofi Boateng");
    expect(kofi).toMatchObject({ self: true, actionable: false });
    // An Administrator cannot take away what he could not grant.
    expect(team.employees.find((e) => e.name === "Ama Mensah")?.actionable).toBe(false);
    expect(team.employees.find((e) => e.name === "Esi Owusu")?.actionable).toBe(true);
  });
});

describe("Team actions", () => {
  it("a bad invitation is 400 with an error by each field, the typed values kept, and nothing written", async () => {
    const before = await written();
    const response = await post({ intent: "invite", name: "  ", email: "efua@example", phone: "12345", gender: "other", role: "Boss" });
    expect(response.status).toBe(400);
    const html = await response.text();
    const text = textOf(html);
    expect(text).toContain("Enter the person's full name.");
    expect(text).toContain("Enter an email address like name@example.com.");
    expect(text).toContain(PHONE_MESSAGE);
    expect(text).toContain("Choose a gender, or Not given.");
    expect(text).toContain("Choose a role.");
    expect(html).toMatch(/id="invite-email"[^>]*aria-invalid="true"/);
    expect(html).toMatch(/id="invite-phone"[^>]*value="12345"|value="12345"[^>]*id="invite-phone"/);
    expect(await written()).toBe(before);
  });

  it("a phone that passes SPEC section 5's rule but is not a Ghana mobile number is refused", async () => {
    const before = await written();
    const response = await post({ ...GOOD_INVITE, phone: "123456789012" });
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain(PHONE_MESSAGE);
    expect(await written()).toBe(before);
  });

  it("an email that already belongs to an employee, or waits in an invitation, is refused by the email field", async () => {
    const before = await written();
    const taken = await post({ ...GOOD_INVITE, email: " ESI.OWUSU@example.com" });
    expect(taken.status).toBe(400);
    expect(textOf(await taken.text())).toContain("This email already belongs to an employee of this business.");
    const invited = await post({ ...GOOD_INVITE, email: "adwoa.sarpong@example.com" });
    expect(invited.status).toBe(400);
    expect(textOf(await invited.text())).toContain("An invitation for this email is already waiting for approval.");
    expect(await written()).toBe(before);
  });

  it("an Administrator cannot grant Super Administrator: by invitation or by role change", async () => {
    const before = await written();
    const invite = await post({ ...GOOD_INVITE, role: "Super Administrator" });
    expect(invite.status).toBe(400);
    expect(textOf(await invite.text())).toContain("Your role cannot grant Super Administrator.");
    const change = await post({ intent: "change-role", userId: "usr_esi_owusu", role: "Super Administrator" });
    expect(change.status).toBe(400);
    expect(textOf(await change.text())).toContain("Your role cannot grant Super Administrator.");
    // Nor demote or deactivate a Super Administrator.
    expect((await post({ intent: "deactivate", userId: "usr_ama_mensah" })).status).toBe(400);
    expect((await post({ intent: "change-role", userId: "usr_ama_mensah", role: "Viewer" })).status).toBe(400);
    expect(await written()).toBe(before);
  });

  it("nobody changes their own role or deactivates themselves", async () => {
    const before = await written();
    const change = await post({ intent: "change-role", userId: "usr_kofi_boateng", role: "Viewer" });
    expect(change.status).toBe(400);
    expect(textOf(await change.text())).toContain("You cannot change your own role or access.");
    expect((await post({ intent: "deactivate", userId: "usr_kofi_boateng" })).status).toBe(400);
    // A Super Administrator neither.
    expect((await post({ intent: "change-role", userId: "usr_ama_mensah", role: "Viewer" }, AMA)).status).toBe(400);
    expect(await written()).toBe(before);
  });

  it("another business's employee, or an unknown id, is a 404 and nothing is written", async () => {
    const before = await written();
    const other = await post({ intent: "change-role", userId: "usr_yaw_asante", role: "Viewer" });
    expect(other.status).toBe(404);
    expect(textOf(await other.text())).toContain("Page Not Found: /settings?tab=team");
    expect((await post({ intent: "deactivate", userId: "usr_yaw_asante" })).status).toBe(404);
    expect((await post({ intent: "deactivate", userId: "usr_nobody" })).status).toBe(404);
    expect(await written()).toBe(before);
  });

  it("a role without request:employee gets 403 for every action, and nothing is written", async () => {
    const before = await written();
    const forms: Record<string, string>[] = [
      GOOD_INVITE,
      { intent: "change-role", userId: "usr_abena_darko", role: "Viewer" },
      { intent: "deactivate", userId: "usr_abena_darko" },
    ];
    for (const form of forms) {
      expect((await post(form, ESI)).status, form.intent).toBe(403);
    }
    expect((await post(GOOD_INVITE, YAW, ACCRA)).status).toBe(403);
    expect(await written()).toBe(before);
  });

  it("an invitation goes to approval: a pending request with the normalized email and phone, and no employee yet", async () => {
    const response = await post(GOOD_INVITE);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings?tab=team");
    const db = await portal().db();
    const request = await db
      .prepare(
        "SELECT maker_id, after_json FROM approval_requests WHERE kind = 'employee' AND action = 'create' AND status = 'pending' AND json_extract(after_json, '$.email') = ?",
      )
      .bind("efua.addo@example.com")
      .first<{ maker_id: string; after_json: string }>();
    expect(request?.maker_id).toBe("usr_kofi_boateng");
    expect(JSON.parse(request!.after_json)).toEqual({
      email: "efua.addo@example.com",
      name: "Efua Addo",
      gender: "female",
      phone: "233245550101",
      role: "Operations",
    });
    expect(await db.prepare("SELECT 1 FROM users WHERE email = 'efua.addo@example.com'").first()).toBeNull();
    // The list shows it waiting, and a second invitation for the same email is refused.
    expect(textOf(await (await get("/settings?tab=team")).text())).toContain("Efua Addo");
    expect((await post(GOOD_INVITE)).status).toBe(400);
  });

  it("a role change and a deactivation go to approval and show on the employee's row", async () => {
    const change = await post({ intent: "change-role", userId: "usr_esi_owusu", role: "Finance" });
    expect(change.status).toBe(302);
    expect(await pendingFor("usr_esi_owusu")).toMatchObject({
      action: "update",
      after_json: JSON.stringify({ role: "Finance" }),
      maker_id: "usr_kofi_boateng",
    });
    const deactivate = await post({ intent: "deactivate", userId: "usr_abena_darko" });
    expect(deactivate.status).toBe(302);
    expect(await pendingFor("usr_abena_darko")).toMatchObject({ action: "deactivate" });
    // Nothing changed yet.
    const roles = await (
      await portal().db()
    )
      .prepare("SELECT role, status FROM memberships WHERE business_id = ? AND user_id IN ('usr_esi_owusu', 'usr_abena_darko') ORDER BY user_id")
      .bind(KUMASI)
      .all();
    expect(roles.results).toEqual([
      { role: "Finance", status: "active" },
      { role: "Operations", status: "active" },
    ]);
    const text = textOf(await (await get("/settings?tab=team")).text());
    expect(text).toContain("Role change to Finance waiting for approval");
    expect(text).toContain("Deactivation waiting for approval");
    // A second request on the same employee is refused while the first waits.
    const again = await post({ intent: "change-role", userId: "usr_esi_owusu", role: "Viewer" });
    expect(again.status).toBe(400);
    expect(textOf(await again.text())).toContain("already has a pending request");
  });
});

describe("Team tab pages", () => {
  const many = usePortal();

  it("pages the employees by name with the SPEC pager, the trail in the URL, the tab kept", async () => {
    const db = await many().db();
    const at = "2026-11-01T00:00:00.000Z";
    const statements = Array.from({ length: 30 }, (_, i) => {
      const n = String(i).padStart(2, "0");
      return [
        db
          .prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES (?, ?, ?, 'unspecified', ?)")
          .bind(`usr_page_${n}`, `page.${n}@example.com`, `Zz Paged ${n}`, at),
        db
          .prepare("INSERT INTO memberships (business_id, user_id, role, status, created_at) VALUES (?, ?, 'Viewer', 'invited', ?)")
          .bind(KUMASI, `usr_page_${n}`, at),
      ];
    }).flat();
    await db.batch(statements);
    const headers = await signedInCookie(many(), KOFI, KUMASI);
    const first = await many().fetch("/settings?tab=team", { headers });
    const html = await first.text();
    expect(textOf(html)).toMatch(/Showing 1\s*–\s*25 of 34 employees/);
    expect(textOf(html)).toContain("Invited");
    const next =
      /href="(\/settings\?tab=team&amp;page=2&amp;trail=[\w-]+)"[^>]*rel="next"|rel="next"[^>]*href="(\/settings\?tab=team&amp;page=2&amp;trail=[\w-]+)"/.exec(
        html,
      );
    expect(next, "a Next link that keeps the tab").not.toBeNull();
    const second = textOf(await (await many().fetch((next![1] ?? next![2]!).replace(/&amp;/g, "&"), { headers })).text());
    expect(second).toMatch(/Showing 26\s*–\s*34 of 34 employees/);
    expect(second).toContain("Zz Paged 29");
    expect(second).not.toContain("Abena Darko");
  });
});

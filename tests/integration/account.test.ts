// Signing out, and /settings' Security actions, through the built Worker:
// who may do what, bad input, and another person's session ids.
import { describe, expect, it } from "vitest";
import { textOf } from "../support/html";
import { mintSession, signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const AMA = "ama.mensah@example.com";
const KOFI = "kofi.boateng@example.com";

function post(path: string, form: Record<string, string>, cookie: { Cookie: string } | Record<string, never> = {}) {
  return portal().fetch(path, {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
    body: new URLSearchParams(form).toString(),
  });
}

async function revokedAt(sid: string): Promise<string | null> {
  const row = await (await portal().db()).prepare("SELECT revoked_at FROM sessions WHERE id = ?").bind(sid).first<{ revoked_at: string | null }>();
  return row?.revoked_at ?? null;
}

async function auditCount(action: string, entityId: string): Promise<number> {
  const row = await (
    await portal().db()
  )
    .prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = ? AND entity_id = ?")
    .bind(action, entityId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("POST /logout", () => {
  it("revokes the session, clears the cookie, audits it and lands on the channel's sign-in page", async () => {
    const session = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const response = await post("/logout", {}, { Cookie: session.cookieHeader });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login-option");
    expect(response.headers.get("Set-Cookie")).toMatch(/^pp_session=;.*Max-Age=0/);
    expect(await revokedAt(session.sid)).not.toBeNull();
    expect(await auditCount("auth.logout", session.sid)).toBe(1);
    // The old cookie is refused from now on.
    const again = await portal().fetch("/settings", { headers: { Cookie: session.cookieHeader } });
    expect(again.status).toBe(302);
  });

  it("signed out it still answers with the sign-in page", async () => {
    const response = await post("/logout", {});
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
  });

  it("a cross-site post signs nobody out", async () => {
    const session = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const response = await portal().fetch("/logout", { method: "POST", headers: { Origin: "https://evil.example", Cookie: session.cookieHeader } });
    expect(response.status).toBe(403);
    expect(await revokedAt(session.sid)).toBeNull();
  });

  it("a GET does not sign out: 404 signed in, /login signed out", async () => {
    const session = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const response = await portal().fetch("/logout", { headers: { Cookie: session.cookieHeader } });
    expect(response.status).toBe(404);
    expect(await revokedAt(session.sid)).toBeNull();
    const signedOut = await portal().fetch("/logout");
    expect(signedOut.headers.get("Location")).toBe("/login");
  });
});

describe("/settings", () => {
  it("needs a session and a business", async () => {
    expect((await portal().fetch("/settings")).headers.get("Location")).toBe("/login");
    const noBusiness = await portal().fetch("/settings", { headers: await signedInCookie(portal(), AMA, null) });
    expect(noBusiness.headers.get("Location")).toBe("/select-business");
  });

  it("shows the person, the business, and every session of theirs that stands, but nobody else's", async () => {
    const mine = await mintSession(await portal().db(), portal().url, AMA, ACCRA);
    await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    // Settings is in tabs, each loading only what it shows.
    const tab = async (name: string) => {
      const response = await portal().fetch(`/settings?tab=${name}`, { headers: { Cookie: mine.cookieHeader } });
      expect(response.status).toBe(200);
      return textOf(await response.text());
    };
    expect(await tab("profile")).toContain("Ama Mensah");
    expect(await tab("business")).toContain("Business identifier");
    const security = await tab("security");
    expect(security).toContain("This session");
    expect(security).toContain("Accra Mobile Pay");
    expect(security).not.toContain("Kofi Boateng");
  });

  it("refuses an unknown intent or a malformed session id with 400 and changes nothing", async () => {
    const session = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const forms: Record<string, string>[] = [{ intent: "delete-everything" }, { intent: "sign-out-session", sessionId: "not-a-uuid" }, {}];
    for (const form of forms) {
      const response = await post("/settings", form, { Cookie: session.cookieHeader });
      expect(response.status, JSON.stringify(form)).toBe(400);
    }
    expect(await revokedAt(session.sid)).toBeNull();
  });

  it("another person's session id is 'already ended' (404) and that session keeps working", async () => {
    const kofi = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const ama = await mintSession(await portal().db(), portal().url, AMA, KUMASI);
    const response = await post("/settings", { intent: "sign-out-session", sessionId: ama.sid }, { Cookie: kofi.cookieHeader });
    expect(response.status).toBe(404);
    expect(await revokedAt(ama.sid)).toBeNull();
    expect(await auditCount("auth.session_revoked", ama.sid)).toBe(0);
    expect((await portal().fetch("/settings", { headers: { Cookie: ama.cookieHeader } })).status).toBe(200);
  });

  it("signs out one other session of one's own, audited once, and not the current one", async () => {
    const here = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const there = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const current = await post("/settings", { intent: "sign-out-session", sessionId: here.sid }, { Cookie: here.cookieHeader });
    expect(current.status).toBe(400);
    expect(await revokedAt(here.sid)).toBeNull();

    const response = await post("/settings", { intent: "sign-out-session", sessionId: there.sid }, { Cookie: here.cookieHeader });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings?tab=security");
    expect(await revokedAt(there.sid)).not.toBeNull();
    expect(await auditCount("auth.session_revoked", there.sid)).toBe(1);
    // A second time it has already ended, and nothing more is audited.
    const twice = await post("/settings", { intent: "sign-out-session", sessionId: there.sid }, { Cookie: here.cookieHeader });
    expect(twice.status).toBe(404);
    expect(await auditCount("auth.session_revoked", there.sid)).toBe(1);
  });

  it("sign out everywhere revokes every session of the person and no one else's", async () => {
    const a = await mintSession(await portal().db(), portal().url, AMA, KUMASI);
    const b = await mintSession(await portal().db(), portal().url, AMA, ACCRA);
    const other = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const response = await post("/settings", { intent: "sign-out-everywhere" }, { Cookie: a.cookieHeader });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login-option");
    expect(response.headers.getSetCookie().some((cookie) => /^pp_session=;/.test(cookie))).toBe(true);
    expect(await revokedAt(a.sid)).not.toBeNull();
    expect(await revokedAt(b.sid)).not.toBeNull();
    expect(await revokedAt(other.sid)).toBeNull();
    // Refused at the very next request, long before 60 s.
    const later = await portal().fetch("/settings", { headers: { Cookie: b.cookieHeader } });
    expect(later.status).toBe(302);
    expect(later.headers.get("Location")).toBe("/login-option");
  });
});

describe("switching business from the top bar", () => {
  it("moves the session to another business of the person's, without a new sign-in", async () => {
    const session = await mintSession(await portal().db(), portal().url, AMA, KUMASI);
    const response = await post("/select-business", { businessId: ACCRA }, { Cookie: session.cookieHeader });
    expect(response.status).toBe(302);
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    const page = textOf(await (await portal().fetch("/settings", { headers: { Cookie: cookie } })).text());
    expect(page).toContain("Accra Mobile Pay");
  });

  it("refuses a business the person does not work for", async () => {
    const session = await mintSession(await portal().db(), portal().url, KOFI, KUMASI);
    const response = await post("/select-business", { businessId: ACCRA }, { Cookie: session.cookieHeader });
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain("You do not have access to this business.");
  });
});

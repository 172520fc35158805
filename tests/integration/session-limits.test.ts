// Session limits through the built Worker (decision 026): the idle and the 12-hour limit, what
// counts as activity, the sign-in page's message, coming back to the page after signing in again, and the sessions a
// changed role or a deactivation ends.
import { describe, expect, it } from "vitest";
import { SESSION_IDLE_MS, SESSION_TTL_MS } from "#server/auth/session";
import { textOf } from "../support/html";
import { mintSession, type MintTimes } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { sendChecked } from "../support/fresh-check";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com"; // Administrator, Kumasi Fresh Foods
const AMA = "ama.mensah@example.com"; // Super Administrator there
const ESI = "esi.owusu@example.com"; // Operations there
const ABENA = "abena.darko@example.com"; // Finance there
const MINUTE = 60_000;

async function minted(email: string, times: MintTimes = {}, businessId: string | null = KUMASI) {
  return mintSession(await portal().db(), portal().url, email, businessId, times);
}

function get(path: string, cookie: string, headers: Record<string, string> = {}) {
  return portal().fetch(path, { headers: { Cookie: cookie, ...headers } });
}

function post(path: string, form: Record<string, string>, cookie: string, headers: Record<string, string> = {}) {
  return portal().fetch(path, {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

/** The cookies a response sets, by name: the value ("" when cleared). */
function setCookies(response: Response): Record<string, string> {
  return Object.fromEntries(
    response.headers.getSetCookie().map((cookie) => {
      const pair = cookie.split(";")[0]!;
      return [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
    }),
  );
}

/** What the signed pp_resume cookie remembers (its payload; the signature is the Worker's business). */
function remembered(token: string | undefined): { path: string; business: string | null } | null {
  if (!token) return null;
  const { path, business } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { path: string; business: string | null };
  return { path, business };
}

async function lastActive(sid: string): Promise<string | null> {
  const row = await (await portal().db()).prepare("SELECT last_active_at FROM sessions WHERE id = ?").bind(sid).first<{ last_active_at: string | null }>();
  return row?.last_active_at ?? null;
}

describe("the idle limit", () => {
  it("30 minutes without activity: the sign-in page, saying so, with the page remembered", async () => {
    const session = await minted(KOFI, { createdAt: Date.now() - 2 * 60 * MINUTE, lastActiveAt: Date.now() - 31 * MINUTE });
    const response = await get("/merchants?status=active&q=%C6%90kua", session.cookieHeader);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login-option?ended=idle");
    const cookies = setCookies(response);
    expect(cookies.pp_session).toBe("");
    expect(remembered(cookies.pp_resume)).toEqual({ path: "/merchants?status=active&q=%C6%90kua", business: KUMASI });
    const page = textOf(await (await portal().fetch("/login-option?ended=idle")).text());
    expect(page).toContain("You were signed out after 30 minutes without activity.");
    // The same cookie stays refused: nothing about the refusal revived it.
    expect((await get("/merchants", session.cookieHeader)).headers.get("Location")).toBe("/login-option?ended=idle");
  });

  it("29 minutes idle still stands, and the page counts as activity (refreshed at most once a minute)", async () => {
    const session = await minted(KOFI, { createdAt: Date.now() - 60 * MINUTE, lastActiveAt: Date.now() - 29 * MINUTE });
    const before = Date.now();
    expect((await get("/merchants", session.cookieHeader)).status).toBe(200);
    const touched = await lastActive(session.sid);
    expect(Date.parse(touched!)).toBeGreaterThanOrEqual(before);
    // A second page within the minute writes nothing.
    expect((await get("/merchants", session.cookieHeader)).status).toBe(200);
    expect(await lastActive(session.sid)).toBe(touched);
  });

  it("a prefetch and the analytics relay do not keep a session alive", async () => {
    const idleSince = new Date(Date.now() - 10 * MINUTE).toISOString();
    const session = await minted(KOFI, { createdAt: Date.now() - 60 * MINUTE, lastActiveAt: Date.parse(idleSince) });
    expect((await get("/merchants", session.cookieHeader, { "Sec-Purpose": "prefetch" })).status).toBe(200);
    expect((await get("/merchants", session.cookieHeader, { Purpose: "prefetch" })).status).toBe(200);
    await portal().fetch("/api/events", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: portal().url, "Sec-Fetch-Site": "same-origin", Cookie: session.cookieHeader },
      body: JSON.stringify({}),
    });
    expect(await lastActive(session.sid)).toBe(idleSince);
  });
});

describe("the 12-hour limit", () => {
  it("12 hours after sign-in, however active: the sign-in page says a session lasts 12 hours", async () => {
    const session = await minted(KOFI, { createdAt: Date.now() - SESSION_TTL_MS, lastActiveAt: Date.now() - MINUTE });
    const response = await get("/merchants", session.cookieHeader);
    expect(response.headers.get("Location")).toBe("/login-option?ended=absolute");
    expect(remembered(setCookies(response).pp_resume)).toEqual({ path: "/merchants", business: KUMASI });
    const page = textOf(await (await portal().fetch("/login-option?ended=absolute")).text());
    expect(page).toContain("You were signed out: a session lasts 12 hours. Sign in again.");
  });

  it("counts from the start of sign-in, not from a later token: the row's created_at decides", async () => {
    // A token that would still run 10 minutes (a code typed late), on a session begun 12 hours ago.
    const session = await minted(KOFI, {
      createdAt: Date.now() - SESSION_TTL_MS - MINUTE,
      lastActiveAt: Date.now(),
      tokenExpiration: Date.now() + 10 * MINUTE,
    });
    expect((await get("/merchants", session.cookieHeader)).headers.get("Location")).toBe("/login-option?ended=absolute");
    const young = await minted(KOFI, { createdAt: Date.now() - SESSION_TTL_MS + 5 * MINUTE, lastActiveAt: Date.now() - SESSION_IDLE_MS + 5 * MINUTE });
    expect((await get("/merchants", young.cookieHeader)).status).toBe(200);
  });
});

describe("coming back to where the person was", () => {
  it("a form sent on an ended session remembers the form's page (a same-origin Referer), never the action or another site", async () => {
    const session = await minted(KOFI, { createdAt: Date.now() - 60 * MINUTE, lastActiveAt: Date.now() - 40 * MINUTE });
    const fromPage = await post("/merchants/add-merchant", { name: "x" }, session.cookieHeader, { Referer: `${portal().url}/merchants/add-merchant?step=2` });
    expect(fromPage.headers.get("Location")).toBe("/login-option?ended=idle");
    expect(remembered(setCookies(fromPage).pp_resume)?.path).toBe("/merchants/add-merchant?step=2");
    const otherSite = await post("/merchants/add-merchant?index", { name: "x" }, session.cookieHeader, { Referer: "https://evil.example/phish" });
    expect(remembered(setCookies(otherSite).pp_resume)?.path).toBe("/merchants/add-merchant");
  });

  it("signing in again to the same business goes back there; to another business, to /", async () => {
    const ended = await minted(AMA, { createdAt: Date.now() - 60 * MINUTE, lastActiveAt: Date.now() - 31 * MINUTE });
    const resume = `pp_resume=${setCookies(await get("/settings?tab=team", ended.cookieHeader)).pp_resume}`;
    const choose = async (businessId: string) => {
      const verified = await minted(AMA, {}, null);
      return post("/select-business", { businessId }, `${verified.cookieHeader}; ${resume}`);
    };
    const back = await choose(KUMASI);
    expect(back.headers.get("Location")).toBe("/settings?tab=team");
    // Used once: the cookie is cleared.
    expect(setCookies(back).pp_resume).toBe("");
    expect((await choose(ACCRA)).headers.get("Location")).toBe("/");
    // A forged cookie is ignored.
    const verified = await minted(AMA, {}, null);
    const forged = await post(
      "/select-business",
      { businessId: KUMASI },
      `${verified.cookieHeader}; pp_resume=${resume.split("=")[1]!.replace(/\.[^.]+$/, ".AAAA")}`,
    );
    expect(forged.headers.get("Location")).toBe("/");
  });
});

describe("a changed role or a deactivation ends the person's sessions", () => {
  async function approve(targetId: string, form: Record<string, string>) {
    const kofi = await minted(KOFI);
    expect((await post("/settings?tab=team", { ...form, userId: targetId }, kofi.cookieHeader)).status).toBe(302);
    const db = await portal().db();
    const request = await db
      .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'employee' AND target_id = ? AND status = 'pending'")
      .bind(KUMASI, targetId)
      .first<{ id: string }>();
    const ama = await minted(AMA);
    // Deciding needs a fresh check (decision 027): made as the dialog would.
    const decided = await sendChecked(portal().core(), ama.cookieHeader, () =>
      post(`/approvals/employee/${request!.id}`, { intent: "approve" }, ama.cookieHeader),
    );
    expect(decided.headers.get("Location")).toBe("/approvals");
  }

  it("approving Esi's role change sends her existing session to sign-in at once; others keep theirs", async () => {
    const esi = await minted(ESI);
    const kofi = await minted(KOFI);
    expect((await get("/merchants", esi.cookieHeader)).status).toBe(200);
    await approve("usr_esi_owusu", { intent: "change-role", role: "Finance" });
    const next = await get("/merchants", esi.cookieHeader);
    expect(next.status).toBe(302);
    expect(next.headers.get("Location")).toBe("/login-option");
    expect((await get("/merchants", kofi.cookieHeader)).status).toBe(200);
    const audit = await (
      await portal().db()
    )
      .prepare("SELECT actor_id, business_id FROM audit_log WHERE action = 'auth.sessions_ended' AND entity_id = 'usr_esi_owusu'")
      .first<{ actor_id: string; business_id: string }>();
    expect(audit).toEqual({ actor_id: "usr_ama_mensah", business_id: KUMASI });
  });

  it("approving Abena's deactivation does the same", async () => {
    const abena = await minted(ABENA);
    const esi = await minted(ESI);
    expect((await get("/merchants", abena.cookieHeader)).status).toBe(200);
    await approve("usr_abena_darko", { intent: "deactivate" });
    expect((await get("/merchants", abena.cookieHeader)).headers.get("Location")).toBe("/login-option");
    expect((await get("/merchants", esi.cookieHeader)).status).toBe(200);
  });
});

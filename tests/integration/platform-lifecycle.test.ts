// Suspend, reactivate and close a business (decision 039), each asked by one Platform Administrator and decided by
// another under a fresh check. Until then nothing changes. Suspended: the business's people are signed out and told why
// at sign-in, its own API keys are refused, its jobs wait; closed: its people read and change nothing; reactivated: as
// before. Its administrators are texted, and both audit chains keep it. Nobody outside the platform's staff can ask.
import { beforeAll, describe, expect, it } from "vitest";
import { sendChecked } from "../support/fresh-check";
import { textOf } from "../support/html";
import { makeKey } from "../support/partner-api";
import { ADJOA, askLifecycle, EFUA, KWAME, makeStaff, postForm } from "../support/platform";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { NOT_A_NOTICE } from "../support/sms-texts";

const portal = usePortal();
const core = () => portal().core();
const AMA = "ama.mensah@example.com";

type Cookie = { Cookie: string };
let efua: Cookie;
let kwame: Cookie;
let adjoa: Cookie;

beforeAll(async () => {
  for (const member of [EFUA, KWAME, ADJOA]) await makeStaff(core(), member);
  efua = await signedInCookie(portal(), EFUA.email, null);
  kwame = await signedInCookie(portal(), KWAME.email, null);
  adjoa = await signedInCookie(portal(), ADJOA.email, null);
});

const post = (path: string, form: Record<string, string>, cookie: Cookie) => postForm(portal(), path, form, cookie);

const get = (path: string, cookie: Cookie) => portal().fetch(path, { headers: cookie, redirect: "manual" });

const ask = (businessId: string, intent: "suspend" | "reactivate" | "close", reason: string, cookie = efua) =>
  askLifecycle(portal(), businessId, intent, reason, cookie);

const decide = (id: string, form: Record<string, string>, cookie = kwame) => sendChecked(core(), cookie, () => post(`/platform/requests/${id}`, form, cookie));

const standing = async (businessId: string) =>
  core()
    .prepare("SELECT d.lifecycle, b.status FROM business_shards d JOIN businesses b ON b.id = d.business_id WHERE d.business_id = ?")
    .bind(businessId)
    .first<{ lifecycle: string; status: string }>();

const apiAsk = (key: string) => portal().fetch("/api/v1/rejections", { headers: { Authorization: `Bearer ${key}` } });

describe("who may ask and decide", () => {
  it("refuses a business's people (404, as for no such page) and Platform Support (403) the asking", async () => {
    const kofi = await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI);
    expect((await post(`/platform/businesses/${ACCRA}/lifecycle`, { intent: "suspend", reason: "test" }, kofi)).status).toBe(404);
    expect((await post(`/platform/businesses/${ACCRA}/lifecycle`, { intent: "suspend", reason: "test" }, adjoa)).status).toBe(403);
    expect(await core().prepare("SELECT count(*) AS n FROM platform_requests").first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("refuses an empty reason and an unknown business by their fields and the 404, writing nothing", async () => {
    const empty = await post(`/platform/businesses/${ACCRA}/lifecycle`, { intent: "suspend", reason: "  " }, efua);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Say why");
    expect((await post("/platform/businesses/bus_nobody/lifecycle", { intent: "suspend", reason: "x" }, efua)).status).toBe(404);
    expect(await core().prepare("SELECT count(*) AS n FROM platform_requests").first<{ n: number }>()).toEqual({ n: 0 });
  });
});

describe("suspending Accra Mobile Pay", () => {
  let requestId: string;
  let amaInAccra: Cookie;
  let accraKey: string;

  beforeAll(async () => {
    amaInAccra = await signedInCookie(portal(), AMA, ACCRA);
    accraKey = await makeKey(portal(), ACCRA);
    requestId = await ask(ACCRA, "suspend", "Settlement account under review by the bank 🏦");
  });

  it("changes nothing while it waits, and asking again finds the same request", async () => {
    expect(await standing(ACCRA)).toEqual({ lifecycle: "active", status: "active" });
    expect((await get("/", amaInAccra)).status).toBe(200);
    expect(await ask(ACCRA, "suspend", "again", kwame)).toBe(requestId);
    // The page offers the waiting request, not a second one.
    const page = textOf(await (await get(`/platform/businesses/${ACCRA}/lifecycle`, efua)).text());
    expect(page).toMatch(/Suspend Accra Mobile Pay ?: waits for a decision\./);
    expect(page).not.toContain("Ask to suspend");
    expect(page).toContain("Ask to close");
    expect(await core().prepare("SELECT count(*) AS n FROM platform_requests WHERE status = 'pending'").first<{ n: number }>()).toEqual({ n: 1 });
  });

  it("is not decided by its maker (403) nor by Platform Support (403)", async () => {
    expect((await post(`/platform/requests/${requestId}`, { intent: "approve" }, efua)).status).toBe(403);
    expect((await post(`/platform/requests/${requestId}`, { intent: "approve" }, adjoa)).status).toBe(403);
    const page = textOf(await (await get(`/platform/requests/${requestId}`, efua)).text());
    expect(page).toContain("Suspend Accra Mobile Pay");
    expect(page).toContain("Settlement account under review by the bank 🏦");
    expect(page).toContain("another Platform Administrator must approve or reject it");
  });

  it("asks the checker for a fresh check, then suspends: people out, keys refused, administrators texted, both chains told", async () => {
    expect((await post(`/platform/requests/${requestId}`, { intent: "approve" }, kwame)).status).toBe(428);
    expect(await standing(ACCRA)).toEqual({ lifecycle: "active", status: "active" });
    const outboxBefore = (await core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<{ n: number }>())!.n;

    const done = await decide(requestId, { intent: "approve" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/platform/requests");
    expect(await standing(ACCRA)).toEqual({ lifecycle: "suspended", status: "suspended" });
    const shardRow = await (await portal().db()).prepare("SELECT status FROM businesses WHERE id = ?").bind(ACCRA).first<{ status: string }>();
    expect(shardRow).toEqual({ status: "suspended" });

    // The person working in it is signed out at the next page and, signing in again, told why it is not offered.
    const next = await get("/", amaInAccra);
    expect(next.status).toBe(302);
    expect(next.headers.get("Location")).toMatch(/^\/login/);
    const choice = textOf(await (await get("/select-business", await signedInCookie(portal(), AMA, null))).text());
    expect(choice).toContain("Accra Mobile Pay is suspended by the platform");
    // A fresh session minted straight into it (a stale cookie) is refused too.
    expect((await get("/", await signedInCookie(portal(), AMA, ACCRA))).status).toBe(302);
    // The business's own key: 403 "business suspended".
    const api = await apiAsk(accraKey);
    expect(api.status).toBe(403);
    expect(JSON.stringify(await api.json())).toMatch(/suspended/i);

    const texts = await core()
      .prepare(`SELECT to_msisdn, body FROM dev_outbox WHERE ${NOT_A_NOTICE} ORDER BY rowid DESC LIMIT 10`)
      .all<{ to_msisdn: string; body: string }>();
    const told = texts.results.filter((t) => t.body.includes("Accra Mobile Pay has been suspended"));
    expect(told.length).toBeGreaterThan(0);
    expect((await core().prepare(`SELECT count(*) AS n FROM dev_outbox WHERE ${NOT_A_NOTICE}`).first<{ n: number }>())!.n).toBe(outboxBefore + told.length);

    const platformChain = await core()
      .prepare("SELECT action FROM audit_log WHERE business_id IS NULL AND entity = 'platform_request' AND entity_id = ? ORDER BY id")
      .bind(requestId)
      .all<{ action: string }>();
    expect(platformChain.results.map((r) => r.action)).toEqual(["platform.request.made", "platform.request.approved"]);
    const businessChain = await (
      await portal().db()
    )
      .prepare("SELECT action, after_json FROM audit_log WHERE business_id = ? AND action = 'business.suspended'")
      .bind(ACCRA)
      .first<{ action: string; after_json: string }>();
    expect(JSON.parse(businessChain!.after_json)).toMatchObject({
      by: "platform",
      staff: KWAME.name,
      reason: "Settlement account under review by the bank 🏦",
    });
  });

  it("leaves the other business untouched", async () => {
    expect(await standing(KUMASI)).toEqual({ lifecycle: "active", status: "active" });
    expect((await get("/", await signedInCookie(portal(), "kofi.boateng@example.com", KUMASI))).status).toBe(200);
  });

  it("reactivates: its people can enter again and its key works", async () => {
    const id = await ask(ACCRA, "reactivate", "Bank cleared the account");
    expect((await decide(id, { intent: "approve" })).status).toBe(302);
    expect(await standing(ACCRA)).toEqual({ lifecycle: "active", status: "active" });
    expect((await get("/", await signedInCookie(portal(), AMA, ACCRA))).status).toBe(200);
    expect((await apiAsk(accraKey)).status).toBe(200);
  });
});

describe("closing a business", () => {
  it("is refused with a reason the maker reads, and a rejected request changes nothing", async () => {
    const id = await ask(ACCRA, "close", "Contract ended");
    const empty = await decide(id, { intent: "reject", reason: "" });
    expect(empty.status).toBe(400);
    const rejected = await decide(id, { intent: "reject", reason: "The contract runs to December" });
    expect(rejected.status).toBe(302);
    expect(await standing(ACCRA)).toEqual({ lifecycle: "active", status: "active" });
    const page = textOf(await (await get(`/platform/requests/${id}`, efua)).text());
    expect(page).toContain("The contract runs to December");
  });

  it("leaves it readable by its people, refuses every change they send, and refuses its key", async () => {
    const id = await ask(ACCRA, "close", "Contract ended 31 December");
    expect((await decide(id, { intent: "approve" })).status).toBe(302);
    expect(await standing(ACCRA)).toEqual({ lifecycle: "closed", status: "active" });
    const ama = await signedInCookie(portal(), AMA, ACCRA);
    expect((await get("/merchants", ama)).status).toBe(200);
    const change = await post("/merchants/add-merchant", { name: "Ɛkuo Traders" }, ama);
    expect(change.status).toBe(403);
    expect(textOf(await change.text())).toContain("closed by the platform");
    expect((await apiAsk(await makeKey(portal(), ACCRA))).status).toBe(403);
  });

  it("refuses to suspend a closed business before anything is asked", async () => {
    const answer = await post(`/platform/businesses/${ACCRA}/lifecycle`, { intent: "suspend", reason: "x" }, efua);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("A closed business cannot be suspended.");
  });
});

// /approvals and the request pages through the built Worker: the queue, who may
// decide, what a decision changes (and what a refused one leaves alone), and
// another business's or the wrong kind's ids.
import { describe, expect, it } from "vitest";
import { requestChange } from "#server/approvals/approvals.db";
import type { ChangeValues } from "#server/approvals/change-kinds";
import { getApprovalRequest } from "#server/approvals/change-requests.db";
import { getMerchant } from "#server/merchants/merchants.db";
import { loaderDataOf, textOf, titleOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, AMA_ACCRA, AMA_KUMASI, ESI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { sendChecked } from "../support/fresh-check";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com";
const AMA = "ama.mensah@example.com";
const ESI = "esi.owusu@example.com";
const ABENA = "abena.darko@example.com";
const YAW = "yaw.asante@example.com";

const DECISIONS: Record<string, string>[] = [{ intent: "approve" }, { intent: "reject", reason: "No." }];

let serial = 0;
function newMerchant(): ChangeValues {
  serial += 1;
  const n = String(serial).padStart(4, "0");
  return {
    code: `MER-S${n}`,
    name: `Akosua Textiles ${n}`,
    trading_name: `Akosua Textiles ${n}`,
    tin: `C${String(8_000_000_000 + serial)}`,
    sector: "Retail",
    town: "Kumasi",
    region: "Ashanti",
    address: "4 Kejetia Road",
    contact_name: "Akosua Mensah",
    contact_phone: "233244000222",
    contact_email: "akosua@example.com",
  };
}

/** A fresh merchant-create request made by Esi (Operations) in Kumasi Fresh Foods. */
async function esiAsks(): Promise<string> {
  return requestChange(ESI_KUMASI, META, { kind: "merchant", action: "create", after: newMerchant() });
}

async function as(email: string, businessId = KUMASI) {
  return signedInCookie(portal(), email, businessId);
}

function get(path: string, cookie: { Cookie: string }) {
  return portal().fetch(path, { headers: cookie });
}

/** Sent as the page sends it: with the fresh check it asks for made, as the dialog would (tests/support/fresh-check.ts). */
function post(path: string, form: Record<string, string>, cookie: { Cookie: string }) {
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(path, {
      method: "POST",
      headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
      body: new URLSearchParams(form).toString(),
    }),
  );
}

async function statusOf(id: string): Promise<string | undefined> {
  const row = await (await portal().db()).prepare("SELECT status FROM approval_requests WHERE id = ?").bind(id).first<{ status: string }>();
  return row?.status;
}

async function auditOf(id: string): Promise<{ action: string; actor_id: string }[]> {
  const { results } = await (
    await portal().db()
  )
    .prepare("SELECT action, actor_id FROM audit_log WHERE entity = 'approval_request' AND entity_id = ? ORDER BY id")
    .bind(id)
    .all<{ action: string; actor_id: string }>();
  return results;
}

async function seeded(kind: string, action: string, businessId = KUMASI): Promise<string> {
  const row = await (
    await portal().db()
  )
    .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = ? AND action = ? AND status = 'pending' ORDER BY made_at LIMIT 1")
    .bind(businessId, kind, action)
    .first<{ id: string }>();
  if (!row) throw new Error(`no seeded pending ${kind} ${action}`);
  return row.id;
}

type QueueData = {
  requests: { id: string; kind: string; action: string; subject: string | null; status: string; makerName: string }[];
  counts: Record<string, number>;
  total: number;
};

async function queue(query: string, email = KOFI, businessId = KUMASI): Promise<{ html: string; data: QueueData }> {
  const response = await get(query.startsWith("/") ? query : `/approvals${query}`, await as(email, businessId));
  expect(response.status).toBe(200);
  const html = await response.text();
  return { html, data: loaderDataOf(html)["routes/approvals"] as QueueData };
}

describe("/approvals", () => {
  it("lists the pending requests of every kind, newest first, named by what they concern, with counts per tab", async () => {
    const { html, data } = await queue("");
    expect(titleOf(html)).toContain("Approvals");
    expect(data.requests.length).toBeGreaterThanOrEqual(8);
    expect(new Set(data.requests.map((r) => r.kind))).toEqual(new Set(["merchant", "point_of_sale", "settlement_account", "employee"]));
    expect(data.requests.every((r) => r.status === "pending" && r.subject)).toBe(true);
    const db = await portal().db();
    const counted = await db
      .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND status = 'pending'")
      .bind(KUMASI)
      .first<number>("n");
    expect(data.total).toBe(counted);
    expect(Object.values(data.counts).reduce((a, b) => a + b, 0)).toBe(counted);
    // Updates are named from their targets: the seeded contact change names the merchant as it stands.
    const update = data.requests.find((r) => r.kind === "merchant" && r.action === "update")!;
    const target = (await getApprovalRequest(ESI_KUMASI, update.id))!.targetId;
    expect(update.subject).toBe((await getMerchant(ESI_KUMASI, target))!.name);
    const text = textOf(html);
    expect(text).toContain("Esi Owusu");
    expect(html).toContain(`href="/approvals/point-of-sale/${data.requests.find((r) => r.kind === "point_of_sale")!.id}"`);
  });

  it("a tab shows one kind; filters by status and maker narrow the list", async () => {
    const merchants = (await queue("?kind=point-of-sale")).data;
    expect(merchants.requests.length).toBeGreaterThan(0);
    expect(merchants.requests.every((r) => r.kind === "point_of_sale")).toBe(true);
    const byAma = (await queue("?maker=usr_ama_mensah")).data;
    expect(byAma.requests.length).toBeGreaterThan(0);
    expect(byAma.requests.every((r) => r.makerName === "Ama Mensah")).toBe(true);
    const rejected = await queue("?status=rejected&kind=employee");
    expect(rejected.data.requests).toEqual([]);
    expect(textOf(rejected.html)).toContain("Nothing waiting for a decision");
    // A value that does not fit is dropped: the default (pending) list shows.
    expect((await queue("?status=bogus")).data.requests.every((r) => r.status === "pending")).toBe(true);
  });

  it("pages by keyset: the pager's Next link opens the following requests, none repeated", async () => {
    for (let i = 0; i < 26; i += 1) await esiAsks();
    const first = await queue("?maker=usr_esi_owusu");
    expect(first.data.requests).toHaveLength(25);
    expect(first.data.total).toBeGreaterThan(25);
    const next = /<a[^>]*href="([^"]*)"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="([^"]*)"/.exec(first.html);
    const href = (next?.[1] ?? next?.[2])!.replace(/&amp;/g, "&");
    expect(href).toMatch(/^\/approvals\?.*page=2/);
    const second = await queue(href);
    expect(second.data.requests.length).toBe(first.data.total - 25);
    const seen = new Set(first.data.requests.map((r) => r.id));
    expect(second.data.requests.some((r) => seen.has(r.id))).toBe(false);
  });

  it("a transfer request shows under All, linked to the transfer request page, not to the other kinds' pages", async () => {
    const db = await portal().db();
    const id = "apr_test_transfer_0001";
    await db
      .prepare(
        "INSERT INTO approval_requests (id, business_id, kind, action, target_id, after_json, maker_id, made_at) VALUES (?, ?, 'transfer', 'create', 'trf_test_1', ?, 'usr_abena_darko', ?)",
      )
      .bind(id, KUMASI, JSON.stringify({ amount: 125_000 }), new Date().toISOString())
      .run();
    const { html, data } = await queue("");
    expect(data.requests.find((r) => r.id === id)).toMatchObject({ kind: "transfer", subject: null });
    expect(html).toContain(`href="/approvals/transfer/${id}"`);
    expect((await get(`/approvals/merchant/${id}`, await as(KOFI))).status).toBe(404);
    // Transfers have their own tab, counted like the others.
    const transfers = await queue("?kind=transfer");
    expect(transfers.data.requests.map((r) => r.id)).toEqual([id]);
    expect(transfers.data.counts.transfer).toBe(1);
    expect(textOf(transfers.html)).toMatch(/Transfers\s*1/);
    await db.prepare("UPDATE approval_requests SET status = 'stale' WHERE id = ?").bind(id).run();
  });

  it("a Viewer reads the queue (empty in Accra Mobile Pay); signed out goes to /login", async () => {
    const { html, data } = await queue("", YAW, ACCRA);
    expect(data.requests).toEqual([]);
    expect(textOf(html)).toContain("Nothing waiting for a decision");
    expect((await portal().fetch("/approvals")).headers.get("Location")).toBe("/login");
  });
});

describe("a request page", () => {
  it("shows a create's fields with their labels, the maker and the time, and Approve and Reject to a checker", async () => {
    const id = await esiAsks();
    const response = await get(`/approvals/merchant/${id}`, await as(KOFI));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toContain("Merchant Request");
    const text = textOf(html);
    for (const label of ["Trading name", "TIN", "Contact person", "Contact email", "Esi Owusu", "Akosua Textiles"]) expect(text).toContain(label);
    expect(text).toMatch(/Approve/);
    expect(html).toMatch(/<button[^>]*>Reject<\/button>/);
  });

  it("an update marks only the changed fields among the record's others; a deactivation shows the whole record", async () => {
    const update = await seeded("settlement_account", "update");
    const html = await (await get(`/approvals/settlement-account/${update}`, await as(KOFI))).text();
    expect(html.match(/data-changed="true"/g)).toHaveLength(1);
    expect(textOf(html)).toMatch(/Account name\s*Changed/);
    expect(textOf(html)).toContain("Account number");
    const closing = await seeded("point_of_sale", "deactivate");
    const page = await (await get(`/approvals/point-of-sale/${closing}`, await as(KOFI))).text();
    const text = textOf(page);
    for (const label of ["Merchant", "Name", "Town", "Region", "Address", "Contact phone"]) expect(text).toContain(label);
    expect(text).toMatch(/Status\s*Changed\s*Active\s*Inactive/);
  });

  it("an employee's role change shows the person with the role marked and their phone masked", async () => {
    const id = await requestChange(AMA_KUMASI, META, {
      kind: "employee",
      action: "update",
      targetId: "usr_esi_owusu",
      after: { role: "Finance" },
    });
    const response = await get(`/approvals/employee/${id}`, await as(KOFI));
    expect(titleOf(await response.clone().text())).toContain("Employee Request");
    const html = await response.text();
    expect(html.match(/data-changed="true"/g)).toHaveLength(1);
    const text = textOf(html);
    expect(text).toMatch(/Role\s*Changed\s*Operations\s*Finance/);
    expect(text).toContain("esi.owusu@example.com");
    expect(text).toMatch(/Phone\s*233\*+\d{4}/);
    expect((await queue("?kind=employee")).data.requests.find((r) => r.id === id)?.subject).toBe("Esi Owusu");
  });

  it("the maker sees no Approve or Reject on their own request", async () => {
    const id = await esiAsks();
    const html = await (await get(`/approvals/merchant/${id}`, await as(ESI))).text();
    expect(html).not.toMatch(/<button[^>]*>(Approve|Reject)<\/button>/);
    expect(textOf(html)).toContain("You made this request");
  });

  it("another business's request, the wrong kind in the URL and an unknown kind are the 404 page", async () => {
    const id = await esiAsks();
    const other = await get(`/approvals/merchant/${id}`, await as(AMA, ACCRA));
    expect(other.status).toBe(404);
    expect(textOf(await other.text())).toContain(`Page Not Found: /approvals/merchant/${id}`);
    const wrongKind = await get(`/approvals/employee/${id}?x=1`, await as(KOFI));
    expect(wrongKind.status).toBe(404);
    expect(textOf(await wrongKind.text())).toContain(`Page Not Found: /approvals/employee/${id}?x=1`);
    // An unknown id of a known kind fails the page's check: the page-level wording, with the query.
    const unknownId = await get(`/approvals/merchant/apr_nope?from=queue`, await as(KOFI));
    expect(unknownId.status).toBe(404);
    expect(textOf(await unknownId.text())).toContain("Page Not Found: /approvals/merchant/apr_nope?from=queue");
    // A kind that is none of the four is an unknown route (SPEC section 2), whatever the id, for a look and a post alike.
    for (const response of [
      await get(`/approvals/merchants/${id}?from=queue`, await as(KOFI)),
      await post(`/approvals/merchants/${id}`, { intent: "approve" }, await as(KOFI)),
    ]) {
      expect(response.status).toBe(404);
      const text = textOf(await response.text());
      expect(text).toContain(`Page not found: /approvals/merchants/${id}`);
      expect(text).not.toContain("Page Not Found: /approvals/merchants");
      expect(text).not.toContain("?from=queue");
    }
    // Posting a decision there changes nothing either.
    expect((await post(`/approvals/merchant/${id}`, { intent: "approve" }, await as(AMA, ACCRA))).status).toBe(404);
    expect((await post(`/approvals/employee/${id}`, { intent: "approve" }, await as(KOFI))).status).toBe(404);
    expect(await statusOf(id)).toBe("pending");
  });
});

describe("deciding", () => {
  it("approve: the change takes effect, the decision and the change are audited, and the checker lands on the queue with a notice", async () => {
    const id = await esiAsks();
    const response = await post(`/approvals/merchant/${id}`, { intent: "approve" }, await as(KOFI));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/approvals");
    expect(response.headers.get("Set-Cookie")).toMatch(/^pp_flash=/);
    const request = (await getApprovalRequest(ESI_KUMASI, id))!;
    expect(request).toMatchObject({ status: "approved", checkerId: "usr_kofi_boateng" });
    expect(await getMerchant(ESI_KUMASI, request.targetId)).toMatchObject({ status: "active", name: request.after.name });
    expect(await auditOf(id)).toEqual([
      { action: "request.create", actor_id: "usr_esi_owusu" },
      { action: "request.approve", actor_id: "usr_kofi_boateng" },
    ]);
  });

  it("reject needs a reason (400, shown next to the field, nothing changes); with one it is rejected and audited", async () => {
    const id = await esiAsks();
    for (const reason of [undefined, "", "   "]) {
      const refused = await post(`/approvals/merchant/${id}`, reason === undefined ? { intent: "reject" } : { intent: "reject", reason }, await as(KOFI));
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(html).toMatch(/id="reason-error"[^>]*>Give a reason for rejecting/);
      expect(html).toMatch(/aria-invalid="true"/);
    }
    expect(await statusOf(id)).toBe("pending");
    expect(await auditOf(id)).toHaveLength(1);
    const response = await post(`/approvals/merchant/${id}`, { intent: "reject", reason: "  The TIN belongs to another business.  " }, await as(AMA));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/approvals");
    const request = (await getApprovalRequest(ESI_KUMASI, id))!;
    expect(request).toMatchObject({ status: "rejected", checkerId: "usr_ama_mensah", reason: "The TIN belongs to another business." });
    expect(await getMerchant(ESI_KUMASI, request.targetId)).toBeNull();
    expect((await auditOf(id)).map((a) => a.action)).toEqual(["request.create", "request.reject"]);
  });

  it("a decided request is read-only: it shows the decision, and a second decision is refused", async () => {
    const id = await esiAsks();
    await post(`/approvals/merchant/${id}`, { intent: "reject", reason: "Wrong region." }, await as(KOFI));
    const html = await (await get(`/approvals/merchant/${id}`, await as(AMA))).text();
    expect(html).not.toMatch(/<button[^>]*>(Approve|Reject)<\/button>/);
    expect(textOf(html)).toMatch(/Decided by\s*Kofi Boateng/);
    expect(textOf(html)).toContain("Wrong region.");
    const again = await post(`/approvals/merchant/${id}`, { intent: "approve" }, await as(AMA));
    expect(again.status).toBe(400);
    expect(textOf(await again.text())).toContain("This request is already rejected.");
    expect(await statusOf(id)).toBe("rejected");
    expect((await auditOf(id)).map((a) => a.action)).toEqual(["request.create", "request.reject"]);
  });

  it("the maker cannot decide their own request: refused, and nothing changes", async () => {
    // Ama (Super Administrator) made the seeded employee invitation.
    const id = await seeded("employee", "create");
    for (const form of [{ intent: "approve" }, { intent: "reject", reason: "Changed my mind." }] as Record<string, string>[]) {
      const response = await post(`/approvals/employee/${id}`, form, await as(AMA));
      expect(response.status).toBe(403);
      expect(textOf(await response.text())).toContain("You made this request, so another person must decide it.");
    }
    expect(await statusOf(id)).toBe("pending");
    expect((await auditOf(id)).map((a) => a.action)).not.toContain("request.approve");
    const html = await (await get(`/approvals/employee/${id}`, await as(AMA))).text();
    expect(html).not.toMatch(/<button[^>]*>(Approve|Reject)<\/button>/);
  });

  it("a stale request says so and cannot be approved", async () => {
    const db = await portal().db();
    const free = await db
      .prepare(
        "SELECT id FROM merchants WHERE business_id = ? AND status = 'active' AND id NOT IN (SELECT target_id FROM approval_requests WHERE status = 'pending') LIMIT 1",
      )
      .bind(KUMASI)
      .first<{ id: string }>();
    const merchantId = free!.id;
    const id = await requestChange(ESI_KUMASI, META, { kind: "merchant", action: "update", targetId: merchantId, after: { town: "Ejisu" } });
    // Someone else's change lands on the merchant after the request was made.
    await db.prepare("UPDATE merchants SET address = 'Moved', version = version + 1 WHERE id = ?").bind(merchantId).run();
    const response = await post(`/approvals/merchant/${id}`, { intent: "approve" }, await as(KOFI));
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain("The request is now stale");
    expect(await statusOf(id)).toBe("stale");
    expect((await getMerchant(ESI_KUMASI, merchantId))!.town).not.toBe("Ejisu");
    const html = await (await get(`/approvals/merchant/${id}`, await as(KOFI))).text();
    expect(textOf(html)).toContain("This request is stale");
    expect(html).not.toMatch(/<button[^>]*>Approve<\/button>/);
    expect((await post(`/approvals/merchant/${id}`, { intent: "approve" }, await as(AMA))).status).toBe(400);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(["request.create", "request.stale"]);
  });

  it("Operations, Finance and a Viewer posting a decision get 403 and nothing changes", async () => {
    const kumasi = await seeded("employee", "create");
    for (const email of [ESI, ABENA]) {
      for (const form of DECISIONS) {
        expect((await post(`/approvals/employee/${kumasi}`, form, await as(email))).status).toBe(403);
      }
    }
    expect(await statusOf(kumasi)).toBe("pending");
    const accra = await requestChange(AMA_ACCRA, META, { kind: "merchant", action: "create", after: newMerchant() });
    for (const form of DECISIONS) {
      const response = await post(`/approvals/merchant/${accra}`, form, await as(YAW, ACCRA));
      expect(response.status).toBe(403);
      expect(textOf(await response.text())).toContain("You don't have access to this page");
    }
    expect(await statusOf(accra)).toBe("pending");
    expect((await auditOf(accra)).map((a) => a.action)).toEqual(["request.create"]);
    // The Viewer reads the request but is offered no decision.
    const html = await (await get(`/approvals/merchant/${accra}`, await as(YAW, ACCRA))).text();
    expect(html).not.toMatch(/<button[^>]*>(Approve|Reject)<\/button>/);
  });

  it("a post from another site decides nothing", async () => {
    const id = await esiAsks();
    const response = await portal().fetch(`/approvals/merchant/${id}`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded", ...(await as(KOFI)) },
      body: "intent=approve",
    });
    expect(response.status).toBe(403);
    expect(await statusOf(id)).toBe("pending");
  });
});

// POS terminals and points of sale, against the built Worker: every action's
// validation, roles, other businesses' ids, the audit rows, races between two
// people acting at once, the fleet list and its CSV.
import { beforeAll, describe, expect, it } from "vitest";
import { signedInCookie } from "../support/sign-in";
import { usePortal } from "../support/use-portal";
import { loaderDataOf, textOf, titleOf } from "../support/html";
import { ACCRA, ESI_KUMASI, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { TerminalChangedError, changeTerminal } from "#server/merchants/terminals.db";
import { approveRequest } from "#server/approvals/approvals.db";

const portal = usePortal();
const NOW = "2026-11-01T08:00:00.000Z";
const KOFI = "kofi.boateng@example.com";
const ESI = "esi.owusu@example.com";
const ABENA = "abena.darko@example.com";
const YAW = "yaw.asante@example.com";
const DEVICE = (id: string) => `/pos-terminals/device-details/${id}`;

async function post(path: string, form: Record<string, string>, email = KOFI, businessId = KUMASI): Promise<Response> {
  return portal().fetch(path, {
    method: "POST",
    body: new URLSearchParams(form),
    redirect: "manual",
    headers: {
      Origin: portal().url,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": "application/x-www-form-urlencoded",
      ...(await signedInCookie(portal(), email, businessId)),
    },
  });
}

async function get(path: string, email = KOFI, businessId = KUMASI): Promise<Response> {
  return portal().fetch(path, { redirect: "manual", headers: await signedInCookie(portal(), email, businessId) });
}

interface Row {
  status: string;
  version: number;
  point_of_sale_id: string | null;
  merchant_id: string | null;
}

async function terminal(id: string): Promise<Row> {
  const db = await portal().db();
  return (await db.prepare("SELECT status, version, point_of_sale_id, merchant_id FROM terminals WHERE id = ?").bind(id).first<Row>())!;
}

async function audits(id: string): Promise<{ action: string; actor_id: string; before_json: string; after_json: string }[]> {
  const db = await portal().db();
  return (
    await db
      .prepare("SELECT action, actor_id, before_json, after_json FROM audit_log WHERE entity = 'terminal' AND entity_id = ? ORDER BY id")
      .bind(id)
      .all<never>()
  ).results;
}

async function openAssignments(id: string): Promise<number> {
  const db = await portal().db();
  return (await db.prepare("SELECT COUNT(*) AS n FROM terminal_assignments WHERE terminal_id = ? AND unassigned_at IS NULL").bind(id).first<number>("n"))!;
}

/** Terminals made for one test each, so tests never share state. */
async function addTerminal(
  id: string,
  serial: string,
  status: "in_stock" | "active" = "in_stock",
  extra: { model?: string; lastSeenAt?: number | null } = {},
): Promise<void> {
  const db = await portal().db();
  const at = status === "active" ? ["mer_kff_0001", "pos_kff_00001"] : [null, null];
  await db.batch([
    db
      .prepare(
        `INSERT INTO terminals (id, business_id, serial, model, software_version, status, merchant_id, point_of_sale_id, last_seen_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, '1.0.0', ?, ?, ?, ?, ?, ?)`,
      )
      .bind(id, KUMASI, serial, extra.model ?? "PAX A920", status, at[0], at[1], extra.lastSeenAt ?? null, NOW, NOW),
    ...(status === "active"
      ? [
          db
            .prepare(
              "INSERT INTO terminal_assignments (business_id, terminal_id, point_of_sale_id, assigned_by, assigned_at) VALUES (?, ?, 'pos_kff_00001', 'usr_kofi_boateng', ?)",
            )
            .bind(KUMASI, id, NOW),
        ]
      : []),
  ]);
}

describe("device details", () => {
  it("shows the serial as its heading, the assignment history and recent payments with cards as BIN and last four", async () => {
    const response = await get(DEVICE("trm_kff_00001"));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>655-001-992<\/h1>/);
    const text = textOf(html);
    expect(text).toContain("Assignment history");
    expect(text).toContain("Adum Outlet");
    const data = loaderDataOf(html)["routes/pos-terminals.device-details"] as { transactions: { payer: string }[] };
    expect(data.transactions.length).toBeGreaterThan(0);
    for (const t of data.transactions) expect(t.payer).toMatch(/^(\d{6} •••• \d{4}|233\*+\d{4})$/);
  });

  it("another business's terminal, or an unknown one, is the SPEC 404", async () => {
    for (const id of ["trm_amp_00001", "trm_nope"]) {
      const response = await get(DEVICE(id));
      expect(response.status).toBe(404);
      expect(textOf(await response.text())).toContain(`Page Not Found: ${DEVICE(id)}`);
    }
  });

  it("a Viewer sees no actions", async () => {
    const html = await (await get(DEVICE("trm_amp_00001"), YAW, ACCRA)).text();
    expect(textOf(html)).not.toContain("Block terminal");
    expect(html).not.toContain('name="intent"');
    const kofi = await (await get(DEVICE("trm_kff_00001"))).text();
    expect(textOf(kofi)).toContain("Block terminal");
  });
});

describe("terminal actions: validation", () => {
  beforeAll(() => addTerminal("t_val", "TVAL000001", "active"));

  it.each([
    ["no reason", { intent: "block", version: "1" }, "Give a reason."],
    ["a blank reason", { intent: "block", version: "1", reason: "   " }, "Give a reason."],
    ["a reason too long", { intent: "block", version: "1", reason: "x".repeat(501) }, "Keep the reason under 500 characters."],
    ["an unassign without reason", { intent: "unassign", version: "1", reason: "" }, "Give a reason."],
    ["no version", { intent: "block", reason: "Stolen" }, "That request was not understood"],
    ["an unknown action", { intent: "explode", version: "1", reason: "Because" }, "That request was not understood"],
  ])("%s: 400 with the message by its field, nothing written", async (_name, form, message) => {
    const before = await terminal("t_val");
    const response = await post(DEVICE("t_val"), form);
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain(message);
    expect(await terminal("t_val")).toEqual(before);
    expect(await audits("t_val")).toEqual([]);
  });

  it("assign needs a point of sale of the chosen merchant", async () => {
    await addTerminal("t_val2", "TVAL000002");
    for (const [form, message] of [
      [{ intent: "assign", version: "1", merchantId: "mer_kff_0001", reason: "New branch" }, "Choose a point of sale."],
      [
        { intent: "assign", version: "1", merchantId: "mer_kff_0002", pointOfSaleId: "pos_kff_00001", reason: "New branch" },
        "Choose a point of sale of the chosen merchant.",
      ],
    ] as [Record<string, string>, string][]) {
      // The assign form posts with the chosen merchant in the URL, as the page does.
      const response = await post(`${DEVICE("t_val2")}?assignMerchant=${form.merchantId}`, form);
      expect(response.status).toBe(400);
      expect(textOf(await response.text())).toContain(message);
    }
    expect(await terminal("t_val2")).toMatchObject({ status: "in_stock", version: 1, point_of_sale_id: null });
    expect(await openAssignments("t_val2")).toBe(0);
    expect(await audits("t_val2")).toEqual([]);
  });

  it("an action the terminal's state does not allow is refused (unblock of an active terminal, assign of an assigned one)", async () => {
    for (const form of [
      { intent: "unblock", version: "1", reason: "x" },
      { intent: "assign", version: "1", merchantId: "mer_kff_0002", pointOfSaleId: "pos_kff_00003", reason: "x" },
    ] as Record<string, string>[]) {
      const response = await post(DEVICE("t_val"), form);
      expect(response.status).toBe(400);
    }
    expect(await terminal("t_val")).toMatchObject({ status: "active", version: 1 });
  });
});

describe("terminal actions: who and which business", () => {
  beforeAll(() => addTerminal("t_role", "TROLE00001", "active"));

  it.each([
    ["Finance", ABENA, KUMASI, "t_role"],
    ["a Viewer", YAW, ACCRA, "trm_amp_00001"],
  ])("%s posting a block gets 403 and nothing is written", async (_name, email, business, id) => {
    const before = await terminal(id);
    const response = await post(DEVICE(id), { intent: "block", version: String(before.version), reason: "Trying anyway" }, email, business);
    expect(response.status).toBe(403);
    expect(await terminal(id)).toEqual(before);
    expect(await audits(id)).toEqual([]);
  });

  it("blocking another business's terminal is a 404, and nothing changes", async () => {
    const before = await terminal("trm_amp_00001");
    const response = await post(DEVICE("trm_amp_00001"), { intent: "block", version: String(before.version), reason: "Not mine" });
    expect(response.status).toBe(404);
    expect(await terminal("trm_amp_00001")).toEqual(before);
  });

  it("assigning to another business's point of sale is a 404, and nothing changes", async () => {
    await addTerminal("t_cross", "TCROSS0001");
    const response = await post(DEVICE("t_cross"), {
      intent: "assign",
      version: "1",
      merchantId: "mer_amp_0001",
      pointOfSaleId: "pos_amp_00001",
      reason: "Wrong business",
    });
    expect(response.status).toBe(404);
    expect(await terminal("t_cross")).toMatchObject({ status: "in_stock", point_of_sale_id: null, version: 1 });
    expect(await openAssignments("t_cross")).toBe(0);
  });
});

describe("terminal actions: changes and their audit rows", () => {
  it("block then unblock: status, version and one audit row each with the reason and the actor", async () => {
    await addTerminal("t_block", "TBLOCK0001", "active");
    const blocked = await post(DEVICE("t_block"), { intent: "block", version: "1", reason: "Reported stolen" }, ESI);
    expect(blocked.status).toBe(302);
    expect(blocked.headers.get("Location")).toBe(DEVICE("t_block"));
    expect(await terminal("t_block")).toMatchObject({ status: "blocked", version: 2, point_of_sale_id: "pos_kff_00001" });
    const unblocked = await post(DEVICE("t_block"), { intent: "unblock", version: "2", reason: "Found again" }, ESI);
    expect(unblocked.status).toBe(302);
    expect(await terminal("t_block")).toMatchObject({ status: "active", version: 3 });
    const rows = await audits("t_block");
    expect(rows.map((r) => r.action)).toEqual(["terminal.block", "terminal.unblock"]);
    expect(rows.every((r) => r.actor_id === "usr_esi_owusu")).toBe(true);
    expect(JSON.parse(rows[0]!.after_json)).toMatchObject({ status: "blocked", reason: "Reported stolen" });
    expect(JSON.parse(rows[0]!.before_json)).toMatchObject({ status: "active", version: 1 });
    expect(JSON.parse(rows[1]!.after_json)).toMatchObject({ status: "active", reason: "Found again" });
  });

  it("assign asks, another person approves, then it stands there with one open assignment; unassign puts it back to stock at once", async () => {
    await addTerminal("t_assign", "TASSIGN001");
    const asked = await post(DEVICE("t_assign"), { intent: "assign", version: "1", merchantId: "mer_kff_0002", pointOfSaleId: "pos_kff_00003" }, ESI);
    expect(asked.status).toBe(302);
    // Nothing moved: a request waits.
    expect(await terminal("t_assign")).toMatchObject({ status: "in_stock", point_of_sale_id: null, version: 1 });
    expect(await openAssignments("t_assign")).toBe(0);
    const db = await portal().db();
    const request = await db
      .prepare("SELECT id FROM approval_requests WHERE kind = 'terminal' AND target_id = 't_assign' AND status = 'pending'")
      .first<string>("id");
    expect(request).toBeTruthy();
    await approveRequest(KOFI_KUMASI, META, request!);
    expect(await terminal("t_assign")).toMatchObject({ status: "assigned", merchant_id: "mer_kff_0002", point_of_sale_id: "pos_kff_00003", version: 2 });
    expect(await openAssignments("t_assign")).toBe(1);
    const unassigned = await post(DEVICE("t_assign"), { intent: "unassign", version: "2", reason: "Branch closed for renovation" });
    expect(unassigned.status).toBe(302);
    expect(await terminal("t_assign")).toMatchObject({ status: "in_stock", merchant_id: null, point_of_sale_id: null, version: 3 });
    expect(await openAssignments("t_assign")).toBe(0);
    const rows = await audits("t_assign");
    expect(rows.map((r) => r.action)).toEqual(["terminal.update", "terminal.unassign"]);
    expect(JSON.parse(rows[0]!.after_json)).toMatchObject({ status: "assigned", point_of_sale_id: "pos_kff_00003" });
    const history = textOf(await (await get(DEVICE("t_assign"))).text());
    expect(history).toContain("Bantama Branch");
  });

  it("an action on a version the person no longer sees is refused with 400, nothing written", async () => {
    await addTerminal("t_stale", "TSTALE0001", "active");
    expect((await post(DEVICE("t_stale"), { intent: "block", version: "1", reason: "First" })).status).toBe(302);
    const response = await post(DEVICE("t_stale"), { intent: "unblock", version: "1", reason: "Seen an old page" });
    expect(response.status).toBe(400);
    expect(textOf(await response.text())).toContain("Someone else changed this terminal");
    expect(await terminal("t_stale")).toMatchObject({ status: "blocked", version: 2 });
    expect(await audits("t_stale")).toHaveLength(1);
  });
});

describe("terminal actions: two people at once", () => {
  it("two blocks of the same version: exactly one wins, one audit row", async () => {
    await addTerminal("t_race1", "TRACE00001", "active");
    const results = await Promise.all([
      post(DEVICE("t_race1"), { intent: "block", version: "1", reason: "Kofi blocks" }, KOFI),
      post(DEVICE("t_race1"), { intent: "block", version: "1", reason: "Esi blocks" }, ESI),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([302, 400]);
    expect(await terminal("t_race1")).toMatchObject({ status: "blocked", version: 2 });
    expect(await audits("t_race1")).toHaveLength(1);
  });

  it("two assigns of one terminal at once: one request waits, the other is refused", async () => {
    await addTerminal("t_race2", "TRACE00002");
    const results = await Promise.all([
      post(DEVICE("t_race2"), { intent: "assign", version: "1", merchantId: "mer_kff_0002", pointOfSaleId: "pos_kff_00003" }, KOFI),
      post(DEVICE("t_race2"), { intent: "assign", version: "1", merchantId: "mer_kff_0003", pointOfSaleId: "pos_kff_00005" }, ESI),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([302, 400]);
    const db = await portal().db();
    expect(
      await db
        .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE kind = 'terminal' AND target_id = 't_race2' AND status = 'pending'")
        .first<number>("n"),
    ).toBe(1);
    expect(await openAssignments("t_race2")).toBe(0);
  });

  it("in the data layer, two changes that both read version 1 before either writes: the batch guard lets one through", async () => {
    // Both calls read the terminal before either batch runs (the reads are issued together), so the
    // version check before the batch passes for both; only the guard row inside the batch can stop the second.
    await addTerminal("t_race4", "TRACE00004", "active");
    await addTerminal("t_race5", "TRACE00005", "active");
    const blocks = await Promise.allSettled([
      changeTerminal(KOFI_KUMASI, META, "block", { terminalId: "t_race4", version: 1, reason: "Kofi" }),
      changeTerminal(ESI_KUMASI, META, "block", { terminalId: "t_race4", version: 1, reason: "Esi" }),
    ]);
    const unassigns = await Promise.allSettled([
      changeTerminal(KOFI_KUMASI, META, "unassign", { terminalId: "t_race5", version: 1, reason: "Kofi" }),
      changeTerminal(ESI_KUMASI, META, "unassign", { terminalId: "t_race5", version: 1, reason: "Esi" }),
    ]);
    for (const [id, results] of [
      ["t_race4", blocks],
      ["t_race5", unassigns],
    ] as const) {
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected");
      expect(lost?.reason).toBeInstanceOf(TerminalChangedError);
      expect((await terminal(id)).version).toBe(2);
      expect(await audits(id)).toHaveLength(1);
    }
    expect(await openAssignments("t_race5")).toBe(0);
  });

  it("the database refuses a second open assignment even when the guard is bypassed", async () => {
    const db = await portal().db();
    await addTerminal("t_race3", "TRACE00003", "active");
    await expect(
      db
        .prepare(
          "INSERT INTO terminal_assignments (business_id, terminal_id, point_of_sale_id, assigned_by, assigned_at) VALUES (?, 't_race3', 'pos_kff_00002', 'usr_kofi_boateng', ?)",
        )
        .bind(KUMASI, NOW)
        .run(),
    ).rejects.toThrow(/UNIQUE constraint failed/);
  });
});

describe("the fleet list and its CSV", () => {
  const DAY = 24 * 60 * 60 * 1000;
  beforeAll(async () => {
    // More than one page (25) of terminals under one serial prefix; one model is a spreadsheet formula.
    for (let i = 0; i < 30; i += 1) {
      await addTerminal(`t_csv_${i}`, `ZCSV${String(i).padStart(6, "0")}`, i < 3 ? "active" : "in_stock", {
        model: i === 7 ? '=HYPERLINK("http://evil.example","x")' : "PAX A80",
        lastSeenAt: i < 3 ? Date.now() - 3 * DAY : null,
      });
    }
  });

  it("the CSV holds the whole filtered set, more than a page, with formula cells neutralised", async () => {
    const response = await get("/pos-terminals/export?q=zcsv", ESI);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Serial,Model,Status,Merchant,Point of sale,Last seen (UTC),Software version");
    expect(lines).toHaveLength(31);
    expect(lines.filter((l) => l.startsWith("ZCSV"))).toHaveLength(30);
    const formula = lines.find((l) => l.startsWith("ZCSV000007"))!;
    expect(formula).toContain(`"'=HYPERLINK(`);
    expect(lines.find((l) => l.startsWith("ZCSV000000"))).toContain("Papa Kwaku's Supermarket Limited,Adum Outlet");
  });

  it("the CSV follows the filters, and a role without export:terminal gets 403", async () => {
    const silent = (await (await get("/pos-terminals/export?q=zcsv&silent=1")).text()).trim().split("\r\n");
    expect(silent).toHaveLength(4);
    expect((await get("/pos-terminals/export", ABENA)).status).toBe(403);
    expect((await get("/pos-terminals/export", YAW, ACCRA)).status).toBe(403);
  });

  it("the list pages by serial, counts the filtered set and names merchants and points of sale", async () => {
    const first = await get("/pos-terminals?q=zcsv");
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(titleOf(html)).toContain("POS Terminals");
    const data = loaderDataOf(html)["routes/pos-terminals"] as {
      terminals: { serial: string; merchantName: string | null }[];
      total: number;
      hasNext: boolean;
      trail: string[];
    };
    expect(data.total).toBe(30);
    expect(data.terminals).toHaveLength(25);
    expect(data.hasNext).toBe(true);
    expect(data.terminals[0]).toMatchObject({ serial: "ZCSV000000", merchantName: "Papa Kwaku's Supermarket Limited" });
    const second = loaderDataOf(await (await get(`/pos-terminals?q=zcsv&page=2&trail=${data.trail.join(".")}`)).text())["routes/pos-terminals"] as typeof data;
    expect(second.terminals.map((t) => t.serial)).toEqual(["ZCSV000025", "ZCSV000026", "ZCSV000027", "ZCSV000028", "ZCSV000029"]);
  });

  it("silent terminals: the summary counts them and the silent filter lists only them", async () => {
    const data = loaderDataOf(await (await get("/pos-terminals?q=zcsv&silent=1")).text())["routes/pos-terminals"] as {
      terminals: { serial: string }[];
      silent: number;
    };
    expect(data.terminals.map((t) => t.serial)).toEqual(["ZCSV000000", "ZCSV000001", "ZCSV000002"]);
    expect(data.silent).toBeGreaterThanOrEqual(3);
  });

  it("sorting by last seen puts never-seen first, then the longest silent, and pages without losing rows", async () => {
    const all: string[] = [];
    let url = "/pos-terminals?q=zcsv&sort=last_seen";
    for (let page = 1; page <= 3; page += 1) {
      const data = loaderDataOf(await (await get(url)).text())["routes/pos-terminals"] as {
        terminals: { serial: string }[];
        trail: string[];
        hasNext: boolean;
      };
      all.push(...data.terminals.map((t) => t.serial));
      if (!data.hasNext) break;
      url = `/pos-terminals?q=zcsv&sort=last_seen&page=${page + 1}&trail=${data.trail.join(".")}`;
    }
    expect(all).toHaveLength(30);
    expect(new Set(all).size).toBe(30);
    expect(all.slice(-3).sort()).toEqual(["ZCSV000000", "ZCSV000001", "ZCSV000002"]);
  });
});

describe("point of sale page", () => {
  const POS = "/merchants/mer_kff_0001/point-of-sale/pos_kff_00001";

  it("shows the branch, its terminals and recent payments without a full phone number", async () => {
    const response = await get(POS);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toContain("Point of Sale");
    const text = textOf(html);
    expect(text).toContain("Adum Outlet");
    expect(text).toContain("655-001-992");
    const db = await portal().db();
    const { results } = await db
      .prepare("SELECT customer_msisdn AS m FROM transactions WHERE point_of_sale_id = 'pos_kff_00001' AND customer_msisdn IS NOT NULL")
      .all<{ m: string }>();
    for (const row of results) expect(html).not.toContain(row.m);
  });

  it.each([
    ["under another merchant", "/merchants/mer_kff_0002/point-of-sale/pos_kff_00001"],
    ["of another business", "/merchants/mer_amp_0001/point-of-sale/pos_amp_00001"],
    ["unknown", "/merchants/mer_kff_0001/point-of-sale/pos_nope"],
  ])("a branch %s is the SPEC 404", async (_name, path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(textOf(await response.text())).toContain(`Page Not Found: ${path}`);
  });

  it("an edit goes to approval, changes nothing, and a second request waits for the first", async () => {
    const db = await portal().db();
    const form = { intent: "update", name: "Adum Outlet", town: "Kumasi", region: "Ashanti", address: "Prempeh II Street", contactPhone: "024 412 3456" };
    const response = await post(POS, form, ESI);
    expect(response.status).toBe(302);
    const request = await db
      .prepare("SELECT action, after_json, status FROM approval_requests WHERE target_id = 'pos_kff_00001'")
      .first<{ action: string; after_json: string; status: string }>();
    expect(request).toMatchObject({ action: "update", status: "pending" });
    expect(JSON.parse(request!.after_json)).toMatchObject({ address: "Prempeh II Street", contact_phone: "233244123456" });
    expect((await db.prepare("SELECT address FROM points_of_sale WHERE id = 'pos_kff_00001'").first<{ address: string }>())!.address).not.toBe(
      "Prempeh II Street",
    );
    const again = await post(POS, { intent: "deactivate" }, ESI);
    expect(again.status).toBe(400);
    expect(textOf(await again.text())).toContain("already has a pending request");
  });

  it("a deactivation goes to approval; the branch stays active until then", async () => {
    const db = await portal().db();
    const path = "/merchants/mer_kff_0002/point-of-sale/pos_kff_00004";
    const response = await post(path, { intent: "deactivate" }, ESI);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(path);
    const request = await db.prepare("SELECT action, maker_id, status FROM approval_requests WHERE target_id = 'pos_kff_00004'").first();
    expect(request).toEqual({ action: "deactivate", maker_id: "usr_esi_owusu", status: "pending" });
    expect(await db.prepare("SELECT status FROM points_of_sale WHERE id = 'pos_kff_00004'").first<string>("status")).toBe("active");
    const page = textOf(await (await get(path, ESI)).text());
    expect(page).toContain("A request to deactivate this point of sale, made by Esi Owusu");
    expect(page).not.toContain("Request deactivation");
  });

  it("edit validation: 400 with errors by field, nothing requested; a Viewer gets 403", async () => {
    const db = await portal().db();
    const path = "/merchants/mer_kff_0002/point-of-sale/pos_kff_00003";
    const response = await post(path, { intent: "update", name: "", town: "Kumasi", region: "Narnia", address: "x", contactPhone: "12345" }, ESI);
    expect(response.status).toBe(400);
    const text = textOf(await response.text());
    expect(text).toContain("Enter the name.");
    expect(text).toContain("Choose a region.");
    expect(text).toContain("Enter a Ghana phone number");
    expect(await db.prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE target_id = 'pos_kff_00003'").first<number>("n")).toBe(0);
    expect((await post("/merchants/mer_amp_0001/point-of-sale/pos_amp_00001", { intent: "deactivate" }, YAW, ACCRA)).status).toBe(403);
  });
});

describe("add point of sale", () => {
  const ADD = "/merchants/mer_kff_0002/add-point-of-sale";
  const VALID = { name: "Suame Magazine Shop", town: "Kumasi", region: "Ashanti", address: "Suame roundabout", contactPhone: "+233 20 555 1234" };

  it("a valid form makes a create request and says it was sent for approval", async () => {
    const response = await post(ADD, VALID, ESI);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/merchants/mer_kff_0002");
    const db = await portal().db();
    const request = await db
      .prepare("SELECT after_json, maker_id FROM approval_requests WHERE kind = 'point_of_sale' AND action = 'create' AND after_json LIKE '%Suame Magazine%'")
      .first<{ after_json: string; maker_id: string }>();
    expect(request?.maker_id).toBe("usr_esi_owusu");
    expect(JSON.parse(request!.after_json)).toEqual({
      merchant_id: "mer_kff_0002",
      name: "Suame Magazine Shop",
      town: "Kumasi",
      region: "Ashanti",
      address: "Suame roundabout",
      contact_phone: "233205551234",
    });
    expect(await db.prepare("SELECT COUNT(*) AS n FROM points_of_sale WHERE name = 'Suame Magazine Shop'").first<number>("n")).toBe(0);
  });

  it.each([
    ["name", { ...VALID, name: "  " }, "Enter the name."],
    ["region", { ...VALID, region: "" }, "Choose a region."],
    ["phone", { ...VALID, contactPhone: "0244" }, "Enter a Ghana phone number"],
    ["address", { ...VALID, address: "" }, "Enter the address."],
  ])("a bad %s: 400 with the error by its field and the typed values kept, nothing requested", async (_field, form, message) => {
    const db = await portal().db();
    const count = () => db.prepare("SELECT COUNT(*) AS n FROM approval_requests").first<number>("n");
    const before = await count();
    const response = await post(ADD, form, ESI);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(textOf(html)).toContain(message);
    expect(html).toContain('aria-invalid="true"');
    expect(await count()).toBe(before);
  });

  it("another business's merchant is a 404; a Viewer or Finance gets 403", async () => {
    expect((await get("/merchants/mer_amp_0001/add-point-of-sale")).status).toBe(404);
    expect((await post("/merchants/mer_amp_0001/add-point-of-sale", VALID)).status).toBe(404);
    expect((await post("/merchants/mer_amp_0001/add-point-of-sale", VALID, YAW, ACCRA)).status).toBe(403);
    expect((await get(ADD, ABENA)).status).toBe(403);
  });
});

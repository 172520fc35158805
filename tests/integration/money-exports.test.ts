// The CSV of every money list through the built Worker: exactly the list's filtered rows (the period on Settlement
// History too) across more than one page, a byte-order mark, formula-safe cells, names in Ghana's letters and emoji
// as they are, a refusal as the portal's 403 page, and never another business's rows.
import { describe, expect, it } from "vitest";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const ABENA = "abena.darko@example.com";
const ESI = "esi.owusu@example.com";
const DAY = 86_400_000;
/** A merchant's name a spreadsheet would run, in Ghana's letters and with an emoji. */
const RISKY_NAME = "=HYPERLINK(1) Ɔkɔdeɛ Ŋmɛ Vodafone 🌶️";
/** As the list shows it, and so the CSV: SPEC section 9's brand word replaced. */
const SHOWN_NAME = "=HYPERLINK(1) Ɔkɔdeɛ Ŋmɛ Telecel 🌶️";

async function get(path: string, email = ABENA, business = KUMASI) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, business) });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, body: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

/** The rows of a CSV (its header and the byte-order mark off), each split into cells (no quoted commas asked for). */
function rowsOf(body: string): string[][] {
  const lines = body
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  return lines.slice(1).map((line) => line.split(","));
}

async function all<T>(sql: string, ...binds: unknown[]): Promise<T[]> {
  return (
    await (
      await portal().db()
    )
      .prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;
}

const EXPORTS = [
  "/money/settlement-history/export",
  "/money/merchant-funds/export",
  "/money/merchant-accounts/export",
  "/disputes/export",
  "/approvals/export?status=all",
];

describe("every money list's CSV", () => {
  it.each(EXPORTS)("%s starts with a byte-order mark and is a text/csv download", async (path) => {
    const { response, bytes } = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it.each(EXPORTS)("%s is refused to Operations with the portal's 403 page, not JSON", async (path) => {
    const { response, body } = await get(path, ESI);
    expect(response.status).toBe(403);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    expect(textOf(body)).toContain("You don't have access to this page");
    expect(body).not.toMatch(/^\s*\{/);
  });

  it("the Transactions CSV's refusal is that page too", async () => {
    const { response, body } = await get("/transactions/export", "yaw.asante@example.com", ACCRA);
    expect(response.status).toBe(403);
    expect(textOf(body)).toContain("You don't have access to this page");
  });

  it.each(EXPORTS)("%s of another business holds none of Kumasi's merchants", async (path) => {
    const kumasi = await all<{ id: string }>("SELECT id FROM merchants WHERE business_id = ?", KUMASI);
    const { response, body } = await get(path, "ama.mensah@example.com", ACCRA);
    expect(response.status).toBe(200);
    for (const { id } of kumasi) expect(body).not.toContain(id);
  });
});

describe("Settlement History", () => {
  it("the period narrows the list and its CSV to the settlements of those days, every page of them", async () => {
    const days = await all<{ day: number }>("SELECT DISTINCT period_start AS day FROM settlements WHERE business_id = ? ORDER BY day DESC", KUMASI);
    expect(days.length).toBeGreaterThan(2);
    // Every day but the newest: the filter must leave some out.
    const from = new Date(days[days.length - 1]!.day).toISOString().slice(0, 10);
    const to = new Date(days[1]!.day).toISOString().slice(0, 10);
    const want = await all<{ reference: string }>(
      "SELECT reference FROM settlements WHERE business_id = ? AND period_start >= ? AND period_start < ? ORDER BY period_start DESC, id DESC",
      KUMASI,
      Date.parse(`${from}T00:00:00Z`),
      Date.parse(`${to}T00:00:00Z`) + DAY,
    );
    const everything = await all<{ n: number }>("SELECT COUNT(*) AS n FROM settlements WHERE business_id = ?", KUMASI);
    expect(want.length).toBeLessThan(everything[0]!.n);
    // More than one page of the list (25 a page).
    expect(want.length).toBeGreaterThan(25);
    const query = `range=custom&from=${from}&to=${to}`;
    const list = textOf((await get(`/money/settlement-history?${query}`)).body);
    for (const { reference } of want.slice(0, 25)) expect(list).toContain(reference);
    expect(list).not.toContain(
      (await all<{ reference: string }>("SELECT reference FROM settlements WHERE business_id = ? AND period_start = ?", KUMASI, days[0]!.day))[0]!.reference,
    );
    const { body } = await get(`/money/settlement-history/export?${query}`);
    expect(rowsOf(body).map((cells) => cells[1])).toEqual(want.map((w) => w.reference));
  });

  it("a status and a period together: the CSV holds what the list's pages hold", async () => {
    const { body } = await get("/money/settlement-history/export?range=30d&status=paid");
    const rows = rowsOf(body);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((cells) => cells[8] === "paid")).toBe(true);
    const list = textOf((await get("/money/settlement-history?range=30d&status=paid")).body);
    for (const cells of rows.slice(0, 25)) expect(list).toContain(cells[1]);
  });

  it("without a period every day is listed, as before", async () => {
    const everything = await all<{ n: number }>("SELECT COUNT(*) AS n FROM settlements WHERE business_id = ?", KUMASI);
    expect(rowsOf((await get("/money/settlement-history/export")).body)).toHaveLength(everything[0]!.n);
  });

  it("a typed period that is not one shows the fallback, by the fields", async () => {
    const text = textOf((await get("/money/settlement-history?range=custom&from=2026-02-31&to=2026-03-01")).body);
    expect(text).toContain("Showing the last 30 days instead.");
  });
});

describe("names a spreadsheet must not run, in Ghana's letters and emoji, with the old brand word", () => {
  it("pass through the Settlement History, Merchant Funds, Merchant Accounts and Disputes CSVs as the lists show them, formula-safe", async () => {
    const [settled] = await all<{ id: string }>("SELECT merchant_id AS id FROM settlements WHERE business_id = ? LIMIT 1", KUMASI);
    const [disputed] = await all<{ id: string }>("SELECT merchant_id AS id FROM disputes WHERE business_id = ? LIMIT 1", KUMASI);
    const merchant = settled;
    expect(settled).toBeDefined();
    const db = await portal().db();
    for (const { id } of disputed ? [settled!, disputed] : [settled!])
      await db.prepare("UPDATE merchants SET name = ? WHERE id = ? AND business_id = ?").bind(RISKY_NAME, id, KUMASI).run();
    for (const path of [
      `/money/settlement-history/export?merchant=${merchant!.id}`,
      `/money/merchant-funds/export?merchant=${merchant!.id}`,
      "/money/merchant-accounts/export?status=active",
      ...(disputed ? ["/disputes/export"] : []),
    ]) {
      const { body } = await get(path);
      expect(body, path).toContain(`,'${SHOWN_NAME},`);
      expect(body, path).not.toContain(`,${SHOWN_NAME},`);
      expect(body, path).not.toContain("Vodafone");
    }
  });
});

describe("Merchant Accounts and a transfer history", () => {
  it("the accounts CSV holds the filtered accounts of every page", async () => {
    const want = await all<{ id: string }>("SELECT id FROM merchants WHERE business_id = ? AND status = 'active'", KUMASI);
    const rows = rowsOf((await get("/money/merchant-accounts/export?status=active")).body);
    expect(rows.map((cells) => cells[0]).sort()).toEqual(want.map((m) => m.id).sort());
  });

  it("a transfer history's CSV holds its transfers, and another business's merchant is not found", async () => {
    const [one] = await all<{ id: string; n: number }>(
      "SELECT from_merchant_id AS id, COUNT(*) AS n FROM transfers WHERE business_id = ? GROUP BY from_merchant_id ORDER BY n DESC LIMIT 1",
      KUMASI,
    );
    if (one) {
      const { response, body } = await get(`/money/merchant-accounts/transfer-history/${one.id}/export`);
      expect(response.status).toBe(200);
      expect(rowsOf(body).length).toBeGreaterThanOrEqual(one.n);
      expect((await get(`/money/merchant-accounts/transfer-history/${one.id}/export`, "ama.mensah@example.com", ACCRA)).response.status).toBe(404);
      expect((await get(`/money/merchant-accounts/transfer-history/${one.id}/export`, ESI)).response.status).toBe(403);
    }
  });
});

describe("Disputes and Approvals", () => {
  it("the disputes CSV holds the filtered disputes", async () => {
    const want = await all<{ id: string }>("SELECT id FROM disputes WHERE business_id = ? AND status = 'open'", KUMASI);
    const rows = rowsOf((await get("/disputes/export?status=open")).body);
    expect(rows.map((cells) => cells[0]).sort()).toEqual(want.map((d) => d.id).sort());
  });

  it("the approvals CSV holds the requests of the chosen status", async () => {
    const rows = rowsOf((await get("/approvals/export?status=pending")).body);
    const list = textOf((await get("/approvals?status=pending")).body);
    const count = /of ([\d,]+) requests?/.exec(list)?.[1];
    expect(rows.length).toBe(Number((count ?? String(rows.length)).replace(/,/g, "")));
    expect(rows.every((cells) => cells[cells.length - 1] === "pending")).toBe(true);
  });
});

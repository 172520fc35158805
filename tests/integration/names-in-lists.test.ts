// Names as people in Ghana write them (Akan, Ga and Ewe letters Ɔ, Ɛ, Ŋ, emoji,
// Arabic script) at the exact end of a page, through the built Worker: the next
// page shows the rows that follow, nothing twice, nothing missing, for merchants
// (by name and newest first, and their CSV), a merchant's points of sale and the
// Team tab of /settings. Each list lives in a business of its own, so its rows
// are exactly the ones made here.
import { beforeAll, describe, expect, it } from "vitest";
import { listPointsOfSale } from "#server/merchants/points-of-sale.db";
import type { Tenant } from "#server/tenancy/tenant";
import { loaderDataOf, textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { usePortal } from "../support/use-portal";
import { tenantOf } from "../support/tenants";

const portal = usePortal();
const BUSINESS = "bus_names_test";
const KOFI = "kofi.boateng@example.com";
const MERCHANT = "mer_names_0000";
const PAGE = 25;

/** The names that end a page (and two that follow the last one), in the order SQLite's NOCASE sorts them. */
const ENDS = ["Kofi's 🍍 Stall", "Nkrumah Ŋmɛ", "Ŋutifafa Transport", "Ɔkyeame Ɛnterprise", "Ɛsi's 🍲 Chop Bar", "مطعم السلام"] as const;
const AFTER_LAST = ["مطعم النور", "🍍 Pineapple Corner"];

/**
 * 152 names in name order: before each of ENDS, 24 names that sort between it
 * and the one before (fewer in the first block when `taken` rows of the list
 * sort there already), so ENDS[k] is row 25 (k + 1) of the list. The fillers of
 * a block after the first start with the name that ends the block before:
 * "Ŋutifafa Transport 01" sorts after "Ŋutifafa Transport", before "Ɔkyeame Ɛnterprise".
 */
function namesByName(taken = 0): string[] {
  const prefixes = ["Adum Provisions", "Labone Grills", "Osu Chemists", ENDS[2], ENDS[3], ENDS[4]];
  return ENDS.flatMap((end, k) => [
    ...Array.from({ length: PAGE - 1 - (k === 0 ? taken : 0) }, (_, i) => `${prefixes[k]!} ${String(i + 1).padStart(2, "0")}`),
    end,
  ]).concat(AFTER_LAST);
}

/** Newest first: the same rows, but ENDS come in reverse, each at the end of a page again. */
function newestOrder(names: readonly string[]): string[] {
  const ends = new Set<string>(ENDS);
  const fillers = names.filter((name) => !ends.has(name)).reverse();
  const out: string[] = [];
  for (const end of [...ENDS].reverse()) out.push(...fillers.splice(0, PAGE - 1), end);
  return out.concat(fillers);
}

const at = (minutesAgo: number) => new Date(Date.UTC(2026, 5, 1, 12) - minutesAgo * 60_000).toISOString();

beforeAll(async () => {
  const db = await portal().db();
  // The new business lives where Kumasi does (a test's batch may write both), and signs in through the core's copy.
  await portal().placeBusiness(
    BUSINESS,
    (await portal().core().prepare("SELECT shard FROM business_shards WHERE business_id = 'bus_kumasi_fresh_foods'").first<string>("shard"))!,
  );
  const merchants = namesByName();
  const newest = newestOrder(merchants);
  await db.batch([
    db
      .prepare(
        `INSERT INTO businesses (id, name, identifier, contact_number, contact_email, town, region, sector, status, created_at)
         VALUES (?, 'Ɔdɔ Nyame Ventures', 'GH-BUS-999001', '233302000001', 'hello@odonyame.example.com', 'Accra', 'Greater Accra', 'Retail', 'active', ?)`,
      )
      .bind(BUSINESS, at(100_000)),
    db
      .prepare("INSERT INTO memberships (business_id, user_id, role, status, created_at) VALUES (?, 'usr_kofi_boateng', 'Administrator', 'active', ?)")
      .bind(BUSINESS, at(90_000)),
    ...merchants.map((name, i) =>
      db
        .prepare(
          `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'Retail', 'Accra', 'Greater Accra', 'Makola', 'Akua Mensah', '233244000999', 'akua@example.com', ?, ?)`,
        )
        // Ids in reverse name order, so the id never orders what the name does.
        .bind(
          `mer_names_${String(999 - i).padStart(4, "0")}`,
          BUSINESS,
          `NMS-${String(i).padStart(4, "0")}`,
          name,
          name,
          `C${7_000_000_000 + i}`,
          at(newest.indexOf(name)),
          at(0),
        ),
    ),
    db
      .prepare(
        `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
         VALUES (?, 'bus_kumasi_fresh_foods', 'NMS-POS', 'Ɔdɔ Ye Wu Provisions', 'Ɔdɔ Ye Wu Provisions', 'C7999999999', 'Groceries', 'Kumasi', 'Ashanti', 'Adum', 'Ama Owusu', '233244000998', 'ama@example.com', ?, ?)`,
      )
      .bind(MERCHANT, at(80_000), at(80_000)),
    ...namesByName().map((name, i) =>
      db
        .prepare(
          `INSERT INTO points_of_sale (id, business_id, merchant_id, name, town, region, address, contact_phone, created_at, updated_at)
           VALUES (?, 'bus_kumasi_fresh_foods', ?, ?, 'Kumasi', 'Ashanti', 'Adum', '233244000997', ?, ?)`,
        )
        .bind(`pos_names_${String(999 - i).padStart(4, "0")}`, MERCHANT, name, at(70_000), at(70_000)),
    ),
    // Kofi Boateng is on the team too; "Kofi Boateng" sorts before "Kofi's 🍍 Stall".
    ...namesByName(1).flatMap((name, i) => {
      const id = `usr_names_${String(999 - i).padStart(4, "0")}`;
      return [
        db
          .prepare("INSERT INTO users (id, email, name, gender, status, created_at) VALUES (?, ?, ?, 'unspecified', 'active', ?)")
          .bind(id, `person${i}@names.example.com`, name, at(60_000)),
        db
          .prepare("INSERT INTO memberships (business_id, user_id, role, status, created_at) VALUES (?, ?, 'Viewer', 'active', ?)")
          .bind(BUSINESS, id, at(60_000)),
      ];
    }),
  ]);
  await portal().copyBusinessToCore(BUSINESS);
});

/** The list in the database's own order: what the pages must add up to. */
async function inOrder(sql: string, ...binds: unknown[]): Promise<string[]> {
  const { results } = await (
    await portal().db()
  )
    .prepare(sql)
    .bind(...binds)
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

async function get(path: string, businessId = BUSINESS) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), KOFI, businessId) });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The pager's Next link, as the browser would follow it; null on the last page. */
function nextHref(html: string): string | null {
  const link = /<a\b[^>]*\brel="next"[^>]*>/.exec(html)?.[0];
  const href = link && /\bhref="([^"]*)"/.exec(link)?.[1];
  return href ? href.replace(/&amp;/g, "&") : null;
}

/** Follows Next from `first` to the last page; each page's names, in the order shown. */
async function walk(first: string, rowsOf: (html: string) => string[]): Promise<string[][]> {
  const pages: string[][] = [];
  let path: string | null = first;
  while (path !== null && pages.length < 20) {
    const html = await get(path);
    pages.push(rowsOf(html));
    const href = nextHref(html);
    path = href === null ? null : new URL(href, `${portal().url}${first}`).pathname + new URL(href, `${portal().url}${first}`).search;
  }
  return pages;
}

/** Every full page is 25 rows, and the pages add up to the list: nothing twice, nothing missing. */
function expectPagesOf(pages: string[][], full: readonly string[]) {
  expect(pages.slice(0, -1).every((page) => page.length === PAGE)).toBe(true);
  expect(pages.flat()).toEqual(full);
}

describe("merchants", () => {
  const merchantNames = (html: string) => (loaderDataOf(html)["routes/merchants"] as { merchants: { name: string }[] }).merchants.map((m) => m.name);

  it("by name: each page ends on such a name and the next one goes on from it", async () => {
    const full = await inOrder("SELECT name FROM merchants WHERE business_id = ? ORDER BY name COLLATE NOCASE, id", BUSINESS);
    expect(full).toEqual(namesByName());
    const pages = await walk("/merchants", merchantNames);
    expect(pages.map((page) => page.at(-1)).slice(0, ENDS.length)).toEqual([...ENDS]);
    expectPagesOf(pages, full);
  });

  it("newest first: the same, in the other direction", async () => {
    const full = await inOrder("SELECT name FROM merchants WHERE business_id = ? ORDER BY created_at DESC, id DESC", BUSINESS);
    expect(full).toEqual(newestOrder(namesByName()));
    const pages = await walk("/merchants?sort=newest", merchantNames);
    expect(pages.map((page) => page.at(-1)).slice(0, ENDS.length)).toEqual([...ENDS].reverse());
    expectPagesOf(pages, full);
  });

  it("a page reached by number with no trail reads past such names too", async () => {
    const names = merchantNames(await get("/merchants?page=4"));
    expect(names[0]).toBe(namesByName()[3 * PAGE]);
    expect(names.at(-1)).toBe(ENDS[3]);
  });

  it("the CSV, 100 rows a query, carries every name as written, in order", async () => {
    const response = await portal().fetch("/merchants/export", { headers: await signedInCookie(portal(), KOFI, BUSINESS) });
    expect(response.status).toBe(200);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith("\uFEFF")).toBe(true);
    const rows = text.slice(1).trimEnd().split("\r\n").slice(1);
    // Row 100, where the second query starts, is "Ɔkyeame Ɛnterprise".
    expect(rows[99]?.split(",")[1]).toBe(ENDS[3]);
    expect(rows.map((row) => row.split(",")[1])).toEqual(namesByName());
    expect(rows.find((row) => row.includes("Kofi's 🍍 Stall"))).toContain("Kofi's 🍍 Stall,Kofi's 🍍 Stall,");
  });
});

describe("points of sale", () => {
  it("pages of a merchant's points of sale end on such names and go on from them", async () => {
    const kumasi: Tenant = tenantOf("bus_kumasi_fresh_foods", "usr_kofi_boateng", "Administrator");
    const full = await inOrder("SELECT name FROM points_of_sale WHERE merchant_id = ? ORDER BY name COLLATE NOCASE, id", MERCHANT);
    expect(full).toEqual(namesByName());
    for (const size of [PAGE, 2 * PAGE]) {
      const pages: string[][] = [];
      let after: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listPointsOfSale>> = await listPointsOfSale(kumasi, { merchantId: MERCHANT, limit: size, after });
        pages.push(page.rows.map((p) => p.name));
        after = page.next;
      } while (after !== null && pages.length < 20);
      expect(pages.flat()).toEqual(full);
      expect(pages.slice(0, -1).map((page) => page.at(-1))).toEqual(size === PAGE ? [...ENDS] : [ENDS[1], ENDS[3], ENDS[5]]);
    }
  });

  it("the merchant page shows the first 50 when the 50th is such a name", async () => {
    const html = await get(`/merchants/${MERCHANT}`, "bus_kumasi_fresh_foods");
    const shown = (loaderDataOf(html)[`routes/merchants.$merchantId`] as { pointsOfSale: { name: string }[] }).pointsOfSale.map((p) => p.name);
    expect(shown).toEqual(namesByName().slice(0, 2 * PAGE));
    expect(shown.at(-1)).toBe(ENDS[1]);
    expect(textOf(html)).toMatch(/Showing the first 50\s*\./);
  });
});

describe("the Team tab", () => {
  const teamNames = (html: string) => (loaderDataOf(html)["routes/settings"] as { team: { employees: { name: string }[] } }).team.employees.map((e) => e.name);

  it("pages of employees end on such names and the next one goes on from it", async () => {
    const full = await inOrder(
      "SELECT u.name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.business_id = ? ORDER BY u.name COLLATE NOCASE, u.id",
      BUSINESS,
    );
    expect(full).toContain("Kofi Boateng");
    const pages = await walk("/settings?tab=team", teamNames);
    expect(pages.map((page) => page.at(-1)).slice(0, ENDS.length)).toEqual([...ENDS]);
    expectPagesOf(pages, full);
    expect(textOf(await get("/settings?tab=team&page=2"))).toContain("Nkrumah Ŋmɛ");
  });
});

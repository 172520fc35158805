// Keyset pages add up to the whole list: nothing skipped, nothing twice, in the
// same order, whatever the case or accents of the sort key.
import { beforeAll, describe, expect, it } from "vitest";
import { listMerchants, type MerchantQuery } from "#server/merchants/merchants.db";
import type { Page } from "#server/lists/page";
import { usePortal } from "../support/use-portal";
import { ACCRA, AMA_ACCRA } from "../support/tenants";

const portal = usePortal();
const NAMES = [
  "abena stores",
  "Abena Stores",
  "ÉBÈNE BOUTIQUE",
  "Ébène Boutique",
  "ébène boutique",
  "Zongo Grains",
  "zongo grains",
  "Adum Pharmacy",
  "Ɔdɔ Fashions",
  "10 Cedi Shop",
];

beforeAll(async () => {
  const db = await portal().db();
  await db.batch(
    NAMES.map((name, i) =>
      db
        .prepare(
          `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, 'Retail', 'Accra', 'Greater Accra', 'Makola', 'Akua Mensah', '233244000999', 'akua@example.com', ?, ?)`,
        )
        .bind(`pg_${i}`, ACCRA, `MER-P${i}`, name, name, `C${8_000_000_000 + i}`, `2026-10-0${(i % 9) + 1}T08:00:00.000Z`, "2026-10-01T08:00:00.000Z"),
    ),
  );
});

async function walk(query: MerchantQuery, size: number): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 100; guard += 1) {
    const page: Page<{ id: string }> = await listMerchants(AMA_ACCRA, { ...query, limit: size, after });
    ids.push(...page.rows.map((m) => m.id));
    after = page.next;
    if (!after) return ids;
  }
  throw new Error("paging did not end");
}

describe("merchant pages", () => {
  it.each<[string, MerchantQuery]>([
    ["by name", { sort: "name" }],
    ["newest first", { sort: "newest" }],
    ["filtered by search", { search: "e" }],
  ])("%s: pages of 1, 2 and 3 give exactly the full list", async (_name, query) => {
    const full = (await listMerchants(AMA_ACCRA, { ...query, limit: 100, withTotal: true })).rows.map((m) => m.id);
    expect(full.length).toBeGreaterThan(0);
    for (const size of [1, 2, 3]) expect(await walk(query, size)).toEqual(full);
  });

  it("the total counts the filtered set, not the page", async () => {
    const page = await listMerchants(AMA_ACCRA, { search: "boutique", limit: 1, withTotal: true });
    expect(page.rows).toHaveLength(1);
    expect(page.total).toBe(3);
  });
});

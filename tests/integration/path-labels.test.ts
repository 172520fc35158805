// Sectors are typed freely, and some are written as paths: SPEC 5 shows a
// path-like label 'a/b' as 'b a', and 'N/A' when it starts with '/ '. Through the
// built Worker, on the merchants list, its sector filter and the merchant's page.
import { beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

beforeAll(async () => {
  const db = await portal().db();
  const insert = (id: string, name: string, sector: string) =>
    db
      .prepare(
        `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'Kumasi', 'Ashanti', 'Adum', 'Ɛsi Path', '233209990000', 'path@example.com', '2026-01-01T00:00:00.000Z',
           '2026-01-01T00:00:00.000Z')`,
      )
      .bind(id, KUMASI, `PTH-${id.slice(-1)}`, name, name, `C009990000${id.slice(-1)}`, sector);
  await db.batch([insert("mer_path_1", "Ɔkɔdeɛ Path Provisions", "Retail/Groceries"), insert("mer_path_2", "Ŋkansah Slash Store", "/ Misc")]);
});

async function html(path: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
  expect(response.status, path).toBe(200);
  return response.text();
}

describe("path-like sector labels", () => {
  it("reads 'Groceries Retail' in the merchants list and its sector filter, which still filters by the stored value", async () => {
    const list = await html("/merchants?q=Path%20Provisions");
    expect(textOf(list)).toContain("Groceries Retail");
    expect(textOf(list)).not.toContain("Retail/Groceries");
    expect(list).toMatch(/<option value="Retail\/Groceries"[^>]*>Groceries Retail<\/option>/);
    const filtered = textOf(await html(`/merchants?sector=${encodeURIComponent("Retail/Groceries")}`));
    expect(filtered).toContain("Ɔkɔdeɛ Path Provisions");
    expect(filtered).toContain("Showing 1–1 of 1 merchant");
  });

  it("reads 'Groceries Retail' on the merchant's page, and N/A for a sector starting with '/ '", async () => {
    expect(textOf(await html("/merchants/mer_path_1"))).toContain("Sector Groceries Retail");
    const other = textOf(await html("/merchants/mer_path_2"));
    expect(other).toContain("Sector N/A");
    expect(other).not.toContain("/ Misc");
  });

  it("reads the business's own sector the same way on Settings, Business", async () => {
    const db = await portal().db();
    const before = await db.prepare("SELECT sector FROM businesses WHERE id = ?").bind(KUMASI).first<string>("sector");
    await db.prepare("UPDATE businesses SET sector = 'Agriculture/Fresh produce' WHERE id = ?").bind(KUMASI).run();
    try {
      const text = textOf(await html("/settings?tab=business"));
      expect(text).toContain("Sector Fresh produce Agriculture");
      expect(text).not.toContain("Agriculture/Fresh produce");
    } finally {
      await db.prepare("UPDATE businesses SET sector = ? WHERE id = ?").bind(before, KUMASI).run();
    }
  });
});

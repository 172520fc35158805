// /merchants and its CSV through the built Worker: search, filters, pages by
// number over keyset cursors, the whole filtered set in the CSV, and who may do what.
import { beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const EXTRA = 60;

/** 60 more Kumasi merchants ("Test Merchant 01".."60", Tamale, Northern), one of them inactive and one named like a formula. */
beforeAll(async () => {
  const db = await portal().db();
  const statements = Array.from({ length: EXTRA }, (_, i) => {
    const n = String(i + 1).padStart(2, "0");
    const name = i === 0 ? '=HYPERLINK("http://evil.example")' : `Test Merchant ${n}`;
    return db
      .prepare(
        `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'Testing', 'Tamale', 'Northern', '1 Test Road', 'Test Contact', ?, 'test@example.com', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      )
      .bind(`mer_test_${n}`, KUMASI, `TST-${n}`, name, name, `C00000000${n}`, `2332000000${n}`, i === 1 ? "inactive" : "active");
  });
  await db.batch(statements);
});

async function page(path: string, email?: string, business?: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, business) });
  return { response, text: textOf(await response.text()) };
}

describe("/merchants", () => {
  it("counts the business's merchants, shows 25 a page and the SPEC pager", async () => {
    const { response, text } = await page("/merchants");
    expect(response.status).toBe(200);
    expect(text).toContain(`Showing 1–25 of ${EXTRA + 3} merchants`);
    expect(text).not.toContain("Accra Mobile Pay");
    expect(text).toMatch(/Previous\s*1\s*2\s*3\s*Next/);
  });

  it("page 3 by number (no trail) reads the pages before it and shows the last rows", async () => {
    const { text } = await page("/merchants?page=3");
    expect(text).toContain(`Showing 51–${EXTRA + 3} of ${EXTRA + 3} merchants`);
  });

  it("searches name, trading name, phone and TIN; filters by status, sector and region", async () => {
    expect((await page("/merchants?q=Papa%20Kwaku")).text).toContain("Showing 1–1 of 1 merchant");
    expect((await page("/merchants?q=C0000000007")).text).toContain("Test Merchant 07");
    expect((await page("/merchants?q=233200000012")).text).toContain("Test Merchant 12");
    expect((await page("/merchants?status=inactive")).text).toContain("Showing 1–1 of 1 merchant");
    expect((await page("/merchants?region=Northern&sector=Testing")).text).toContain(`of ${EXTRA} merchants`);
    const none = await page("/merchants?q=nothing-like-this");
    expect(none.text).toContain("No merchant matches");
  });

  it("finds a merchant by part of its code, written mostly in letters", async () => {
    // "ST-0" is no number-heavy text (SPEC 5), so it is read as a name: codes TST-01 to TST-09 hold it.
    expect((await page("/merchants?q=ST-0")).text).toContain("Showing 1–9 of 9 merchants");
    expect((await page("/merchants?q=tst-1")).text).toContain("Showing 1–10 of 10 merchants");
  });

  it("finds a merchant by part of its name in Ghana's own letters and emoji, in either case", async () => {
    const db = await portal().db();
    await db
      .prepare("UPDATE merchants SET name = ?, trading_name = ? WHERE business_id = ? AND id = 'mer_test_60'")
      .bind("Ɔbaa Yaa Ɛnyɔnko Ŋkwa 🍲 Chop Bar", "Ɔbaa Yaa Chop Bar", KUMASI)
      .run();
    for (const typed of ["ɔbaa yaa", "ƆBAA YAA", "ɛnyɔnko", "ƐNYƆNKO ŊKWA", "ŋkwa 🍲", "🍲", "🍲 chop"]) {
      const { text } = await page(`/merchants?q=${encodeURIComponent(typed)}`);
      expect(text, typed).toContain("Showing 1–1 of 1 merchant");
      expect(text, typed).toContain("Ɔbaa Yaa Ɛnyɔnko Ŋkwa 🍲 Chop Bar");
    }
    expect((await page(`/merchants?q=${encodeURIComponent("ɔbaa yaa ɛnyɔnko ŋkwa 🍲 chop bars")}`)).text).toContain("No merchant matches");
  });

  it("a filter value that is not one drops out instead of failing", async () => {
    const { response, text } = await page("/merchants?status=deleted&region=Mars");
    expect(response.status).toBe(200);
    expect(text).toContain(`of ${EXTRA + 3} merchants`);
  });

  it("another business sees only its own merchants", async () => {
    const { text } = await page("/merchants", "yaw.asante@example.com", ACCRA);
    expect(text).not.toContain("Papa Kwaku");
    expect(text).not.toContain("Test Merchant");
  });

  it("a Viewer sees no Add merchant and no export", async () => {
    const { text } = await page("/merchants", "yaw.asante@example.com", ACCRA);
    expect(text).not.toContain("Add merchant");
    expect(text).not.toContain("Export CSV");
  });
});

describe("/merchants/export", () => {
  it("streams every row of the filtered set, not just a page, with formulas neutralised", async () => {
    const response = await portal().fetch("/merchants/export?region=Northern", { headers: await signedInCookie(portal()) });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="merchants-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("Code,Name,Trading name,TIN,Sector,Town,Region,Address,Contact name,Contact phone,Contact email,Status,Added (UTC)");
    expect(lines).toHaveLength(EXTRA + 1);
    expect(lines.find((line) => line.startsWith("TST-01,"))).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
  });

  it("is refused (403) to a role without export", async () => {
    const response = await portal().fetch("/merchants/export", { headers: await signedInCookie(portal(), "yaw.asante@example.com", ACCRA) });
    expect(response.status).toBe(403);
  });

  it("needs a session", async () => {
    const response = await portal().fetch("/merchants/export");
    expect(response.headers.get("Location")).toBe("/login");
  });
});

describe("the navigation's pending count", () => {
  it("the navigation counts pending approval requests for roles that decide or view them", async () => {
    const db = await portal().db();
    const pending = await db
      .prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND status = 'pending'")
      .bind(KUMASI)
      .first<number>("n");
    const { text } = await page("/merchants");
    expect(pending).toBeGreaterThan(0);
    expect(text).toMatch(new RegExp(`Approvals\\s*${pending}`));
  });
});

describe("document titles and a signed-in 404 for what is not built", () => {
  it("/merchants is titled Merchants", async () => {
    const response = await portal().fetch("/merchants", { headers: await signedInCookie(portal()) });
    expect(await response.text()).toContain("<title>Merchants</title>");
  });
});

describe("Kumasi only", () => {
  it("the counts above are Kumasi's, not the whole table's", async () => {
    const all = await (await portal().db()).prepare("SELECT COUNT(*) AS n FROM merchants").first<number>("n");
    expect(all).toBeGreaterThan(EXTRA + 3);
  });
});

// The merchant search boxes through the built Worker: a number-heavy query
// (SPEC 5: more digits than letters) is a code, TIN or phone number, found however
// it is spaced or hyphenated, and it is not matched against names.
import { beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();

interface Seeded {
  id: string;
  code: string;
  name: string;
  phone: string;
}
let target: Seeded;
let others: Seeded[];

beforeAll(async () => {
  const db = await portal().db();
  const rows = (await db.prepare("SELECT id, code, name, contact_phone AS phone FROM merchants WHERE business_id = ? ORDER BY code").bind(KUMASI).all<Seeded>())
    .results;
  target = rows[1]!;
  others = rows.filter((m) => m.id !== target.id);
  // A merchant named with digits, which a number search must not find by its name.
  await db
    .prepare(
      `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email,
         created_at, updated_at)
       VALUES ('mer_numbers_1', ?, 'NUM-7001', ?, ?, 'C0099999999', 'Groceries', 'Kumasi', 'Ashanti', 'Adum', 'Ama Num', '233209999999', 'num@example.com',
         '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    )
    .bind(KUMASI, `Shop ${target.code.replace(/\D/g, "")} Ɔkɔdeɛ`, `Shop ${target.code.replace(/\D/g, "")} Ɔkɔdeɛ`)
    .run();
});

async function text(path: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), "abena.darko@example.com", KUMASI) });
  expect(response.status, path).toBe(200);
  return textOf(await response.text());
}

/** "MRC-0002" as people type it: "mrc 0002". */
const spacedCode = () => target.code.toLowerCase().replace("-", " ");
/** "233244123456" as people say it: "024 412 3456". */
const localPhone = () => `0${target.phone.slice(3, 5)} ${target.phone.slice(5, 8)} ${target.phone.slice(8)}`;

describe("a number-heavy merchant search", () => {
  it("finds a merchant by its code typed with a space, or by its phone number as people write it, on /merchants", async () => {
    for (const typed of [spacedCode(), target.code.replace("-", ""), localPhone()]) {
      const found = await text(`/merchants?q=${encodeURIComponent(typed)}`);
      expect(found, typed).toContain("Showing 1–1 of 1 merchant");
      expect(found, typed).toContain(target.name);
    }
  });

  it("is not matched against names: a code's digits find the code, not a shop named with them", async () => {
    const digits = target.code.replace(/\D/g, "");
    const found = await text(`/merchants?q=${digits}`);
    expect(found).toContain(target.name);
    expect(found).not.toContain(`Shop ${digits}`);
    // A name-like query still searches names.
    expect(await text(`/merchants?q=${encodeURIComponent("Shop")}`)).toContain(`Shop ${digits} Ɔkɔdeɛ`);
  });

  it("narrows merchant funds and merchant accounts to the merchant of a code typed with a space", async () => {
    for (const path of ["/money/merchant-funds", "/money/merchant-accounts"]) {
      const found = await text(`${path}?q=${encodeURIComponent(spacedCode())}`);
      expect(found, path).toContain(target.name);
      for (const other of others) expect(found, path).not.toContain(other.name);
    }
  });

  it("finds a merchant's settlements by its code without the hyphen, or by its phone", async () => {
    const db = await portal().db();
    const mine = await db
      .prepare("SELECT reference FROM settlements WHERE business_id = ? AND merchant_id = ? ORDER BY period_start DESC, id DESC LIMIT 1")
      .bind(KUMASI, target.id)
      .first<string>("reference");
    const theirs = await db
      .prepare("SELECT reference FROM settlements WHERE business_id = ? AND merchant_id <> ? ORDER BY period_start DESC, id DESC LIMIT 1")
      .bind(KUMASI, target.id)
      .first<string>("reference");
    expect(mine && theirs).toBeTruthy();
    for (const typed of [spacedCode(), localPhone()]) {
      const found = await text(`/money/settlement-history?q=${encodeURIComponent(typed)}`);
      expect(found, typed).toContain(mine!);
      expect(found, typed).not.toContain(theirs!);
    }
  });
});

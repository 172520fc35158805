// A business with more merchants than one list holds (520 here, the lists take
// 500): through the built Worker, the transactions filter and the transfer form
// reach a merchant that sorts after all of them by typing its name or code, and
// merchant funds read balances for hundreds of ids in runs D1 can bind.
import { beforeAll, describe, expect, it } from "vitest";
import { listMerchantFunds } from "#server/ledger/funds.db";
import { listMerchantBalances } from "#server/ledger/ledger.db";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ABENA_KUMASI, KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";
import { sendChecked } from "../support/fresh-check";

const portal = usePortal();
const TARGET = "mer_test_last_of_many";
const NAME = "Zongo Ɔkɔdeɛ Traders 🍍";
const NOW = "2026-11-01T09:00:00.000Z";
const ABENA = "abena.darko@example.com";

beforeAll(async () => {
  const db = await portal().db();
  // 520 merchants whose names sort before every other one, then one that sorts after them all.
  await db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 520)
       INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email,
         created_at, updated_at)
       SELECT 'mer_test_many_' || printf('%04d', i), ?1, 'MNY-' || printf('%04d', i), 'Aa Many Merchant ' || printf('%04d', i), 'Aa Many Merchant',
         'Q88' || printf('%08d', i), 'Retail', 'Kumasi', 'Ashanti', 'Adum', 'Kwame Many', '233244000333', 'many@example.com', ?2, ?2 FROM n`,
    )
    .bind(KUMASI, NOW)
    .run();
  await db
    .prepare(
      `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email,
         created_at, updated_at)
       VALUES (?, ?, 'ZZM-0001', ?, ?, 'Q8900000001', 'Retail', 'Kumasi', 'Ashanti', 'Zongo Junction', 'Ɛfua Ŋkansah', '233244000444', 'zongo@example.com', ?, ?)`,
    )
    .bind(TARGET, KUMASI, NAME, NAME, NOW, NOW)
    .run();
});

async function html(path: string, email?: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal(), email, KUMASI) });
  expect(response.status, path).toBe(200);
  return response.text();
}

const option = (value: string) => new RegExp(`<option value="${value}"[^>]*>`);

describe("more than 500 merchants", () => {
  it("the transactions merchant filter finds the merchant past the first 500 by its name or code, and keeps it chosen", async () => {
    const first = await html("/transactions");
    expect(first).not.toMatch(option(TARGET));
    expect(textOf(first)).toContain("Find a merchant for the filter");
    for (const typed of ["zongo", "Ɔkɔdeɛ", "ZZM 0001"]) {
      const found = await html(`/transactions?mq=${encodeURIComponent(typed)}`);
      expect(found, typed).toMatch(option(TARGET));
      expect(found, typed).not.toMatch(option("mer_test_many_0001"));
    }
    // Chosen (the filter's own form drops what was typed): still offered, and selected.
    const chosen = await html(`/transactions?merchant=${TARGET}`);
    expect(chosen).toMatch(new RegExp(`<option value="${TARGET}" selected="">${NAME}</option>`));
  });

  it("the transfer form finds the merchant account past the first 500 to transfer to, and the transfer is asked for", async () => {
    const from = "mer_kff_0001";
    const first = await html(`/money/merchant-funds?transfer=${from}`, ABENA);
    expect(first).not.toMatch(option(`mer:${TARGET}`));
    expect(textOf(first)).toContain("Find the merchant account to transfer to");
    const found = await html(`/money/merchant-funds?transfer=${from}&mq=${encodeURIComponent("Zongo")}`, ABENA);
    expect(found).toMatch(option(`mer:${TARGET}`));
    // The form keeps the transfer open when it is searched: its hidden fields carry ?transfer=.
    expect(found).toMatch(new RegExp(`<input type="hidden" name="transfer" value="${from}"/>`));
    const key = /name="idempotencyKey" value="([\w-]+)"/.exec(found)![1]!;
    const abena = await signedInCookie(portal(), ABENA, KUMASI);
    // Sent as the page sends it: with the fresh check it asks for made, as the dialog would (tests/support/fresh-check.ts).
    const response = await sendChecked(portal().core(), abena, () =>
      portal().fetch(`/money/merchant-funds?transfer=${from}&mq=Zongo`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...abena },
        body: new URLSearchParams({ intent: "transfer", from, to: `mer:${TARGET}`, amount: "0.01", idempotencyKey: key }).toString(),
      }),
    );
    expect(response.status).toBe(302);
    const asked = await (
      await portal().db()
    )
      .prepare("SELECT COUNT(*) AS n FROM transfers WHERE business_id = ? AND idempotency_key = ? AND to_merchant_id = ?")
      .bind(KUMASI, key, TARGET)
      .first<number>("n");
    expect(asked).toBe(1);
  });

  it("merchant funds and balances are read for all 521 merchants at once", async () => {
    const ids = [...Array.from({ length: 520 }, (_, i) => `mer_test_many_${String(i + 1).padStart(4, "0")}`), TARGET, "mer_kff_0001"];
    const period = { fromDay: "2026-01-01", toDay: "2026-12-31", from: Date.UTC(2026, 0, 1), to: Date.UTC(2027, 0, 1) };
    const funds = await listMerchantFunds(ABENA_KUMASI, ids, period);
    expect(Object.keys(funds)).toHaveLength(ids.length);
    const balances = await listMerchantBalances(ABENA_KUMASI, ids);
    expect(funds["mer_kff_0001"]!.available).toBe(balances["mer_kff_0001"]!.available);
    expect(funds["mer_kff_0001"]!.collected).toBeGreaterThan(0);
  });
});

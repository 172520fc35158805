// SPEC section 9: in displayed text one telecom provider's brand word is
// replaced by another's. Data written before the rebrand may still say
// "Vodafone Cash" (the schema's CHECKs came later; the test writes such rows
// past them, as an import of old data would have); every screen and CSV that
// writes a network or provider name must say "Telecel Cash".
import { describe, expect, it } from "vitest";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const OLD = "Vodafone Cash";
const NEW = "Telecel Cash";

async function get(path: string) {
  const response = await portal().fetch(path, { headers: await signedInCookie(portal()) });
  expect(response.status).toBe(200);
  return response.text();
}

/** Runs statements with the schema's CHECKs off, as data older than them was written. */
async function writeOldData(...statements: D1PreparedStatement[]) {
  const db = await portal().db();
  await db.batch([db.prepare("PRAGMA ignore_check_constraints = ON"), ...statements, db.prepare("PRAGMA ignore_check_constraints = OFF")]);
}

describe("the old brand word reads as the new one", () => {
  it("on the transactions list, its detail and its CSV", async () => {
    const db = await portal().db();
    const payment = (await db
      .prepare("SELECT id, reference FROM transactions WHERE business_id = ? AND channel = 'mobile_money' ORDER BY created_at DESC, id DESC LIMIT 1")
      .bind(KUMASI)
      .first<{ id: number; reference: string }>())!;
    await writeOldData(db.prepare("UPDATE transactions SET network = ? WHERE id = ?").bind(OLD, payment.id));

    const list = textOf(await get(`/transactions?q=${encodeURIComponent(payment.reference)}`));
    expect(list).toContain(payment.reference);
    expect(list).toContain(`Mobile money · ${NEW}`);
    expect(list).not.toContain("Vodafone");

    const detail = textOf(await get(`/transactions?q=${encodeURIComponent(payment.reference)}&tx=${payment.id}`));
    expect(detail).toContain(`Mobile money · ${NEW}`);
    expect(detail).not.toContain("Vodafone");

    const csv = await get(`/transactions/export?q=${encodeURIComponent(payment.reference)}`);
    const row = csv.split("\r\n").find((line) => line.startsWith(payment.reference));
    expect(row).toContain(`,${NEW},`);
    expect(csv).not.toContain("Vodafone");
  });

  it("on a merchant's settlement accounts", async () => {
    const db = await portal().db();
    const account = (await db
      .prepare(
        "SELECT id, merchant_id AS merchantId, account_number AS number FROM settlement_accounts WHERE business_id = ? AND kind = 'mobile_money' AND status = 'active' LIMIT 1",
      )
      .bind(KUMASI)
      .first<{ id: string; merchantId: string; number: string }>())!;
    await writeOldData(db.prepare("UPDATE settlement_accounts SET provider = ? WHERE id = ?").bind(OLD, account.id));
    const text = textOf(await get(`/merchants/${account.merchantId}`));
    expect(text).toContain(account.number);
    expect(text).toContain(`${NEW} Mobile money`);
    expect(text).not.toContain("Vodafone");
  });

  it("in the report by network and its CSV", async () => {
    const db = await portal().db();
    const today = new Date().toISOString().slice(0, 10);
    const place = (await db
      .prepare("SELECT merchant_id AS merchantId, id FROM points_of_sale WHERE business_id = ? LIMIT 1")
      .bind(KUMASI)
      .first<{ merchantId: string; id: string }>())!;
    await db
      .prepare(
        `INSERT INTO daily_rollups (business_id, day, merchant_id, point_of_sale_id, terminal_id, channel, network, status, count, amount, fee)
         VALUES (?, ?, ?, ?, '', 'mobile_money', ?, 'successful', 3, 4500, 45)`,
      )
      .bind(KUMASI, today, place.merchantId, place.id, OLD)
      .run();

    const text = textOf(await get("/reports?by=network"));
    expect(text).toContain(NEW);
    expect(text).not.toContain("Vodafone");

    const csv = await get("/reports/export?by=network");
    expect(csv.split("\r\n").some((line) => line.startsWith(`${NEW},`))).toBe(true);
    expect(csv).not.toContain("Vodafone");
  });

  it("in text people typed: a merchant's name and sector, in the list's cells and filter, and on the merchant's page", async () => {
    const db = await portal().db();
    const merchant = (await db
      .prepare("SELECT id, code FROM merchants WHERE business_id = ? ORDER BY code LIMIT 1")
      .bind(KUMASI)
      .first<{ id: string; code: string }>())!;
    await db
      .prepare("UPDATE merchants SET name = 'Vodafone Corner Ɔsu', trading_name = 'VODAFONE CORNER', sector = 'Vodafone agents' WHERE id = ?")
      .bind(merchant.id)
      .run();

    const list = textOf(await get(`/merchants?q=${encodeURIComponent(merchant.code)}`));
    expect(list).toContain("Telecel Corner Ɔsu TELECEL CORNER");
    expect(list).toContain("Telecel agents");
    expect(list).not.toMatch(/vodafone/i);

    const page = textOf(await get(`/merchants/${merchant.id}`));
    expect(page).toContain("Registered name Telecel Corner Ɔsu Trading name TELECEL CORNER");
    expect(page).toContain("Sector Telecel agents");
    // Its heading and everything else on the page too.
    expect(page.match(/.{0,60}vodafone.{0,40}/gi) ?? []).toEqual([]);
  });
});

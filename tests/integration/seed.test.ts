// `npm start` seeds an empty database once; a second run adds nothing. Seeded
// here with a fixed anchor (a Saturday), so every count is exact.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateLocal, seedLocal } from "../../scripts/seed/local";
import { startPortal, type Portal } from "../support/portal";

const dir = mkdtempSync(join(tmpdir(), "pp-seed-test-"));
let portal: Portal;

const ANCHOR = Date.UTC(2026, 7, 1);
const TABLES = [
  "businesses",
  "users",
  "user_phones",
  "memberships",
  "merchants",
  "points_of_sale",
  "terminals",
  "terminal_assignments",
  "settlement_accounts",
  "ledger_accounts",
  "approval_requests",
  "transactions",
  "settlements",
  "settlement_items",
  "ledger_entries",
  "daily_rollups",
  "disputes",
  "refunds",
  "webhook_events",
  "webhook_endpoints",
] as const;

async function counts(db: D1Database): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    result[table] = (await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<number>("n")) ?? -1;
  }
  return result;
}

beforeAll(async () => {
  await migrateLocal(dir);
  expect(await seedLocal("demo", dir, { anchor: ANCHOR })).toBe(true);
  expect(await seedLocal("demo", dir, { anchor: ANCHOR })).toBe(false);
  await migrateLocal(dir);
  portal = await startPortal({ template: dir });
}, 120_000);
afterAll(async () => {
  await portal?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("the demo seed", () => {
  it("is written once, whatever the number of runs", async () => {
    const db = await portal.db();
    expect(await counts(db)).toEqual({
      businesses: 3,
      users: 9,
      user_phones: 10,
      memberships: 10,
      merchants: 44,
      points_of_sale: 128,
      terminals: 257,
      terminal_assignments: 253,
      settlement_accounts: 62,
      ledger_accounts: 98,
      approval_requests: 10,
      transactions: 50_000,
      settlements: 3_549,
      settlement_items: 44_457,
      ledger_entries: 241_220,
      daily_rollups: 35_633,
      // What the Partner API's examples name (scripts/seed/api-examples.ts).
      disputes: 2,
      refunds: 1,
      webhook_events: 2,
      webhook_endpoints: 1,
    });
  });

  it("has the sign-in identities of DESIGN.md section 8 exactly", async () => {
    const db = await portal.db();
    const { results } = await db
      .prepare(
        `SELECT u.email, b.name AS business, m.role FROM memberships m
         JOIN users u ON u.id = m.user_id JOIN businesses b ON b.id = m.business_id
         WHERE u.email IN ('ama.mensah@example.com','kofi.boateng@example.com','esi.owusu@example.com','yaw.asante@example.com','abena.darko@example.com')
         ORDER BY u.email, b.name`,
      )
      .all();
    expect(results).toEqual([
      { email: "abena.darko@example.com", business: "Kumasi Fresh Foods", role: "Finance" },
      { email: "ama.mensah@example.com", business: "Accra Mobile Pay", role: "Administrator" },
      { email: "ama.mensah@example.com", business: "Kumasi Fresh Foods", role: "Super Administrator" },
      { email: "esi.owusu@example.com", business: "Kumasi Fresh Foods", role: "Operations" },
      { email: "kofi.boateng@example.com", business: "Kumasi Fresh Foods", role: "Administrator" },
      { email: "yaw.asante@example.com", business: "Accra Mobile Pay", role: "Viewer" },
    ]);
    const phones = await db
      .prepare("SELECT msisdn FROM user_phones WHERE user_id = (SELECT id FROM users WHERE email = ?) ORDER BY msisdn")
      .bind("ama.mensah@example.com")
      .all<{ msisdn: string }>();
    expect(phones.results.map((r) => r.msisdn)).toEqual(["233209876543", "233244123456"]);
  });

  it("keeps names written in Akan, Ga and Ewe letters and emoji as they are", async () => {
    const db = await portal.db();
    const names = async (sql: string) => (await db.prepare(sql).all<{ name: string }>()).results.map((row) => row.name);
    expect(await names("SELECT trading_name AS name FROM merchants WHERE business_id = 'bus_accra_mobile_pay' ORDER BY id LIMIT 3 OFFSET 1")).toEqual([
      "Nyamekyɛ Chemists",
      "Oyiwaladɔŋŋ Supermarket",
      "Baatsona Supermarket",
    ]);
    expect(await names("SELECT name FROM merchants WHERE name LIKE '%🍍%'")).toEqual(["Yaw's 🍍 Fruits & Vegetables Limited"]);
    expect(
      await names("SELECT name FROM points_of_sale WHERE name IN ('Ŋleshi Branch', 'Dɔmaa Market Branch', 'Mankɛsim Station Branch') ORDER BY name"),
    ).toEqual(["Dɔmaa Market Branch", "Mankɛsim Station Branch", "Ŋleshi Branch"]);
    expect(await names("SELECT name FROM users WHERE email = 'nyamekye.opare@example.com'")).toEqual(["Nyamekyɛ Ɔpare"]);
  });

  it("the database refuses rows the model forbids", async () => {
    const db = await portal.db();
    const now = new Date().toISOString();
    await expect(
      db.prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES ('u1', 'Ama.Mensah@Example.com', 'X', 'female', ?)").bind(now).run(),
    ).rejects.toThrow(/CHECK/);
    await expect(
      db.prepare("INSERT INTO users (id, email, name, gender, created_at) VALUES ('u2', 'ama.mensah@example.com', 'X', 'female', ?)").bind(now).run(),
    ).rejects.toThrow(/UNIQUE/);
    await expect(
      db
        .prepare("INSERT INTO memberships (business_id, user_id, role, created_at) VALUES ('bus_kumasi_fresh_foods', 'usr_yaw_asante', 'Owner', ?)")
        .bind(now)
        .run(),
    ).rejects.toThrow(/CHECK/);
    await expect(
      db.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES ('usr_yaw_asante', '0244123456', ?)").bind(now).run(),
    ).rejects.toThrow(/CHECK/);
    await expect(
      db.prepare("INSERT INTO memberships (business_id, user_id, role, created_at) VALUES ('bus_nowhere', 'usr_yaw_asante', 'Viewer', ?)").bind(now).run(),
    ).rejects.toThrow(/FOREIGN KEY/);
  });
});

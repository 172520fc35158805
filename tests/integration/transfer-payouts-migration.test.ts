// Migration 0044 rebuilds settlements on a database that holds them (decision 052): every settlement, its payout
// attempts and their links survive with foreign keys on, and each transfer approved before it, whose money waits in
// settlement_payable, gets its pending payout under the reference the approval now gives.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { withLocalDatabases } from "../../scripts/seed/local";
import { transferPayoutId } from "#server/settlement/transfer-payouts.db";
import { ROOT } from "../support/portal";

const dir = mkdtempSync(join(tmpdir(), "pp-migration-0044-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MIGRATIONS = join(ROOT, "migrations");
const FILES = readdirSync(MIGRATIONS)
  .filter((name) => name.endsWith(".sql"))
  .sort();
const REBUILD = "0044_transfer_payouts.sql";
const sql = (name: string) => readFileSync(join(MIGRATIONS, name), "utf8");

const T = "2026-11-30T09:15:00.250Z";
const TRANSFER = "trf_3f2a9c1b-7d4e-4f60-9abc-0123456789ab";

it("keeps every settlement and attempt, and gives each approved transfer to an account its payout", async () => {
  await withLocalDatabases(dir, async ({ core: db }) => {
    for (const name of FILES.slice(0, FILES.indexOf(REBUILD))) await db.prepare(sql(name)).run();
    await db.batch(
      [
        `INSERT INTO businesses (id, name, identifier, contact_number, contact_email, town, region, sector, created_at)
         VALUES ('bus_m', 'Ɔdɔ Stores', 'ODO', '233244000000', 'a@b.co', 'Kumasi', 'Ashanti', 'Retail', '${T}')`,
        `INSERT INTO users (id, email, name, gender, created_at) VALUES ('usr_a', 'a@b.co', 'A', 'female', '${T}'), ('usr_b', 'b@b.co', 'B', 'male', '${T}')`,
        `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
         VALUES ('mer_m', 'bus_m', 'MRC-0007', 'Ɛjisu Market', 'Ɛjisu', 'C0000000001', 'Retail', 'Ejisu', 'Ashanti', '1 Road', 'A', '233244000000', 'a@b.co', '${T}', '${T}')`,
        `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, is_primary, created_at, updated_at)
         VALUES ('sac_m', 'bus_m', 'mer_m', 'mobile_money', 'MTN', '0244000000', 'Ɛjisu Market', 1, '${T}', '${T}')`,
        `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, attempts, created_at, rail, rail_reference, rail_status)
         VALUES ('stl_day', 'bus_m', 'mer_m', 'sac_m', 1764460800000, 1764547200000, 1000, 20, 980, 'failed', 'STL-MRC-0007-20251130-TAG', 2, '${T}', 'switch', 'sw_1', 'failed')`,
        `INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at) VALUES ('bus_m', 'stl_day', 1, 'failed', 'closed', '${T}'), ('bus_m', 'stl_day', 2, 'failed', 'closed', '${T}')`,
        `INSERT INTO transfers (id, business_id, from_merchant_id, to_settlement_account_id, amount, status, idempotency_key, requested_by, approved_by, created_at, decided_at)
         VALUES ('${TRANSFER}', 'bus_m', 'mer_m', 'sac_m', 4321, 'completed', 'k1', 'usr_a', 'usr_b', '${T}', '${T}'),
                ('trf_pending', 'bus_m', 'mer_m', 'sac_m', 5, 'pending_approval', 'k2', 'usr_a', NULL, '${T}', NULL)`,
      ].map((statement) => db.prepare(statement)),
    );

    expect((await db.prepare("PRAGMA foreign_key_check").all()).results).toEqual([]);
    await db.prepare(sql(REBUILD)).run();

    expect((await db.prepare("PRAGMA foreign_key_check").all()).results).toEqual([]);
    expect(await db.prepare("SELECT COUNT(*) AS n FROM payout_attempts WHERE settlement_id = 'stl_day'").first<number>("n")).toBe(2);
    expect(await db.prepare("SELECT * FROM settlements WHERE id = 'stl_day'").first()).toMatchObject({
      transfer_id: null,
      status: "failed",
      attempts: 2,
      net: 980,
      rail_reference: "sw_1",
    });
    expect(await db.prepare("SELECT * FROM settlements WHERE transfer_id = ?").bind(TRANSFER).first()).toMatchObject({
      id: transferPayoutId(TRANSFER),
      merchant_id: "mer_m",
      settlement_account_id: "sac_m",
      period_start: Date.parse(T),
      period_end: Date.parse(T),
      gross: 4321,
      fees: 0,
      net: 4321,
      status: "pending",
      attempts: 0,
      reference: "TRF-MRC-0007-3F2A9C1B7D4E4F60",
      created_at: T,
    });
    // A transfer not approved has nothing to pay out.
    expect(await db.prepare("SELECT COUNT(*) AS n FROM settlements WHERE transfer_id = 'trf_pending'").first<number>("n")).toBe(0);
    // The daily run's one-a-day rule still holds.
    await expect(
      db
        .prepare(
          `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, attempts, created_at)
           VALUES ('stl_again', 'bus_m', 'mer_m', 'sac_m', 1764460800000, 1764547200000, 1, 0, 1, 'pending', 'STL-AGAIN', 0, '${T}')`,
        )
        .run(),
    ).rejects.toThrow(/UNIQUE constraint failed/);
  });
}, 120_000);

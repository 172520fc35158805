// Opening a business's test mode (decision 045): its test business in the core directory and on the live business's
// database, with the live business's people, its own ledger and a starter set (a merchant, a point of sale, an active
// terminal and a settlement account) so a developer's first test payment has somewhere to go. Every statement is
// idempotent: opening it again (every switch into test mode does) changes nothing but the people, who are copied
// from the live business again so names and roles shown in test mode are today's.
import { openBusinessAccountsStatements } from "../ledger/ledger.db";
import { sha256Hex } from "../plumbing/sha256";
import type { Db } from "./tenant";
import { liveBusinessOf, testBusinessOf } from "./test-mode";

/** The starter set's ids, from the test business's id: opening twice writes the same rows once. */
export async function starterIds(
  testBusinessId: string,
): Promise<{ merchant: string; pointOfSale: string; terminal: string; account: string; serial: string }> {
  const tag = (await sha256Hex(testBusinessId)).slice(0, 10);
  return {
    merchant: `mer_test_${tag}`,
    pointOfSale: `pos_test_${tag}`,
    terminal: `trm_test_${tag}`,
    account: `sac_test_${tag}`,
    // Serials are unique over the whole database: the tag keeps two test businesses' apart.
    serial: `TEST-${tag.toUpperCase()}`,
  };
}

// Core and business database both have a businesses table of the same shape: one copy statement serves both.
const COPY_BUSINESS = `INSERT INTO businesses (id, name, trading_name, identifier, contact_number, contact_email, town, region, sector, logo_url, status, created_at)
  SELECT ?1, name, trading_name, identifier || ' TEST', contact_number, contact_email, town, region, sector, logo_url, status, ?3 FROM businesses WHERE id = ?2
  ON CONFLICT (id) DO NOTHING`;

/**
 * The test business's place in the core directory, beside its live business (and its copy of the business row, which
 * sessions refer to). Nothing while the live business is being moved: the test business must be opened where the
 * live one is. Returns the test business's database name, or null when the live business is unknown or moving.
 */
export async function openTestBusinessInCore(core: Db, liveBusinessId: string, at: string): Promise<string | null> {
  const testId = testBusinessOf(liveBusinessId);
  const [, , placed] = await core.batch([
    core.prepare(COPY_BUSINESS).bind(testId, liveBusinessId, at),
    core
      .prepare(
        `INSERT INTO business_shards (business_id, shard, moving_to, updated_at, lifecycle, live_business_id)
         SELECT ?1, shard, NULL, ?3, lifecycle, business_id FROM business_shards WHERE business_id = ?2 AND moving_to IS NULL
         ON CONFLICT (business_id) DO NOTHING`,
      )
      .bind(testId, liveBusinessId, at),
    core.prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(testId),
  ]);
  return (placed?.results[0] as { shard: string } | undefined)?.shard ?? null;
}

/** The test business's rows on its database (the live business's): the business, its people, its ledger and the starter set. */
export async function openTestBusinessRows(db: Db, testBusinessId: string, at: string): Promise<void> {
  const live = liveBusinessOf(testBusinessId);
  const ids = await starterIds(testBusinessId);
  await db.batch([
    db.prepare(COPY_BUSINESS).bind(testBusinessId, live, at),
    // The people: the guard decides by the live membership; this copy is what test mode's screens show and join.
    db
      .prepare(
        `INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version, contact_phone)
         SELECT ?1, user_id, role, status, created_at, updated_at, version, contact_phone FROM memberships WHERE business_id = ?2
         ON CONFLICT (business_id, user_id) DO UPDATE SET role = excluded.role, status = excluded.status, updated_at = excluded.updated_at,
           version = excluded.version, contact_phone = excluded.contact_phone`,
      )
      .bind(testBusinessId, live),
    ...openBusinessAccountsStatements({ businessId: testBusinessId, db }),
    db
      .prepare(
        `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, status, created_at, updated_at)
         SELECT ?1, id, 'MRC-TEST', 'Test Merchant', 'Test Shop', 'C0000000000', sector, town, region, 'Test address', 'Test contact', contact_number, contact_email, 'active', ?3, ?3
         FROM businesses WHERE id = ?2 ON CONFLICT (id) DO NOTHING`,
      )
      .bind(ids.merchant, testBusinessId, at),
    db
      .prepare(
        `INSERT INTO points_of_sale (id, business_id, merchant_id, name, town, region, address, contact_phone, status, created_at, updated_at)
         SELECT ?1, business_id, id, 'Test till', town, region, address, contact_phone, 'active', ?3, ?3 FROM merchants WHERE id = ?2
         ON CONFLICT (id) DO NOTHING`,
      )
      .bind(ids.pointOfSale, ids.merchant, at),
    db
      .prepare(
        // Seen as it is opened, so a new test mode does not start with a silent terminal (it turns silent after a day without heartbeats).
        `INSERT INTO terminals (id, business_id, serial, model, software_version, status, merchant_id, point_of_sale_id, last_seen_at, created_at, updated_at)
         SELECT ?1, business_id, ?2, 'Test terminal', '1.0', 'active', merchant_id, id, ?5, ?4, ?4 FROM points_of_sale WHERE id = ?3
         ON CONFLICT (id) DO NOTHING`,
      )
      .bind(ids.terminal, ids.serial, ids.pointOfSale, at, Date.parse(at)),
    db
      .prepare(
        `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, is_primary, status, created_at, updated_at)
         SELECT ?1, business_id, id, 'mobile_money', 'MTN', '0240000000', 'Test Merchant', 1, 'active', ?3, ?3 FROM merchants WHERE id = ?2
         ON CONFLICT (id) DO NOTHING`,
      )
      .bind(ids.account, ids.merchant, at),
  ]);
}

// A business as the simulator (the demo business's test mode, decision 045) and bench:ingest (the demo business) see
// it in the local D1 (scripts/seed/local.ts opens it): where payments can happen, which terminals heartbeat, and an
// API key made in an administrator's name (pp_test_ for a test business, pp_live_ for a live one).
import { makeApiKey } from "#server/partner-api/keys";
import { createApiKey } from "#server/partner-api/api-keys.db";
import { registerKeyHashStatement } from "#server/tenancy/directory.db";
import { liveBusinessOf } from "#server/tenancy/test-mode";
import type { Place, Terminal } from "./traffic";

export interface World {
  places: Place[];
  terminals: Terminal[];
  adminId: string | null;
}

/** The business's active points of sale with their terminals, and an administrator (of its live business) to make the key in the name of. */
export async function readWorld(db: D1Database, businessId: string): Promise<World> {
  const places = await db
    .prepare(
      `SELECT p.merchant_id AS merchantId, p.id AS pointOfSaleId FROM points_of_sale p JOIN merchants m ON m.id = p.merchant_id AND m.business_id = p.business_id
       WHERE p.business_id = ? AND p.status = 'active' AND m.status = 'active' ORDER BY p.id`,
    )
    .bind(businessId)
    .all<{ merchantId: string; pointOfSaleId: string }>();
  const terminals = await db
    .prepare(
      `SELECT serial, software_version AS softwareVersion, point_of_sale_id AS pointOfSaleId FROM terminals
       WHERE business_id = ? AND status IN ('active', 'assigned') AND point_of_sale_id IS NOT NULL ORDER BY serial`,
    )
    .bind(businessId)
    .all<{ serial: string; softwareVersion: string; pointOfSaleId: string }>();
  const admin = await db
    .prepare(
      `SELECT user_id AS id FROM memberships WHERE business_id = ? AND status = 'active' AND role IN ('Administrator', 'Super Administrator')
       ORDER BY role = 'Administrator' DESC, user_id LIMIT 1`,
    )
    .bind(liveBusinessOf(businessId))
    .first<{ id: string }>();
  const byPlace = new Map<string, string[]>();
  for (const terminal of terminals.results) byPlace.set(terminal.pointOfSaleId, [...(byPlace.get(terminal.pointOfSaleId) ?? []), terminal.serial]);
  return {
    places: places.results.map((place) => ({ ...place, terminals: byPlace.get(place.pointOfSaleId) ?? [] })),
    // The API takes versions of letters, digits and . _ + - only.
    terminals: terminals.results.map(({ serial, softwareVersion }) => ({
      serial,
      softwareVersion: softwareVersion.replace(/[^A-Za-z0-9._+-]/g, "-").slice(0, 32) || "1.0",
    })),
    adminId: admin?.id ?? null,
  };
}

/** A new key of the business: its hash goes to D1 (audited, in an administrator's name); the key is returned once. */
export async function makeDevelopmentKey(db: D1Database, businessId: string, world: World, name: string): Promise<string> {
  if (!world.adminId) throw new Error(`${businessId} has no active administrator to make the key in the name of.`);
  const { secret, row } = await makeApiKey(name, businessId);
  // The directory first (functions/tenancy/directory.db.ts), then the key on the business's own database.
  await registerKeyHashStatement(db, businessId, row.secretHash).run();
  const tenant = { businessId, db, userId: world.adminId, role: "Administrator" as const };
  await createApiKey(tenant, { ip: null, userAgent: "scripts/simulate", requestId: null }, row);
  return secret;
}

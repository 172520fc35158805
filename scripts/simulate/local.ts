// The demo business as the simulator and bench:ingest see it in the local D1
// (scripts/seed/local.ts opens it): where payments can happen, which terminals
// heartbeat, and a development API key made in an administrator's name.
import { makeApiKey } from "#server/partner-api/keys";
import { createApiKey } from "#server/partner-api/api-keys.db";
import { registerKeyHashStatement } from "#server/tenancy/directory.db";
import { KUMASI_FRESH_FOODS } from "../seed/data";
import type { Place, Terminal } from "./traffic";

export interface World {
  places: Place[];
  terminals: Terminal[];
  adminId: string | null;
}

/** The demo business's active points of sale with their terminals, and an administrator to make the key in its name. */
export async function readWorld(db: D1Database): Promise<World> {
  const places = await db
    .prepare(
      `SELECT p.merchant_id AS merchantId, p.id AS pointOfSaleId FROM points_of_sale p JOIN merchants m ON m.id = p.merchant_id AND m.business_id = p.business_id
       WHERE p.business_id = ? AND p.status = 'active' AND m.status = 'active' ORDER BY p.id`,
    )
    .bind(KUMASI_FRESH_FOODS)
    .all<{ merchantId: string; pointOfSaleId: string }>();
  const terminals = await db
    .prepare(
      `SELECT serial, software_version AS softwareVersion, point_of_sale_id AS pointOfSaleId FROM terminals
       WHERE business_id = ? AND status IN ('active', 'assigned') AND point_of_sale_id IS NOT NULL ORDER BY serial`,
    )
    .bind(KUMASI_FRESH_FOODS)
    .all<{ serial: string; softwareVersion: string; pointOfSaleId: string }>();
  const admin = await db
    .prepare(
      `SELECT user_id AS id FROM memberships WHERE business_id = ? AND status = 'active' AND role IN ('Administrator', 'Super Administrator')
       ORDER BY role = 'Administrator' DESC, user_id LIMIT 1`,
    )
    .bind(KUMASI_FRESH_FOODS)
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

/** A new pp_test_ key of the demo business: its hash goes to D1 (audited, in an administrator's name); the key is returned once. */
export async function makeDevelopmentKey(db: D1Database, world: World, name: string): Promise<string> {
  if (!world.adminId) throw new Error("The demo business has no active administrator to make the key in the name of.");
  const { secret, row } = await makeApiKey(name, "development");
  // The directory first (functions/tenancy/directory.db.ts), then the key on the business's own database.
  await registerKeyHashStatement(db, KUMASI_FRESH_FOODS, row.secretHash).run();
  const tenant = { businessId: KUMASI_FRESH_FOODS, db, userId: world.adminId, role: "Administrator" as const };
  await createApiKey(tenant, { ip: null, userAgent: "scripts/simulate", requestId: null }, row);
  return secret;
}

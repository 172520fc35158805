// The demo identities of DESIGN.md section 8, as data-layer tenants. Each carries the database that holds its
// business (the shard the core directory names), read when the test's portal started (tests/support/portal.ts).
import type { Role } from "#server/permissions";
import type { BusinessDb, RequestMeta, Tenant } from "#server/tenancy/tenant";
import type { ChangeValues } from "#server/approvals/change-kinds";

export const KUMASI = "bus_kumasi_fresh_foods";
export const ACCRA = "bus_accra_mobile_pay";

let databaseOf: ((businessId: string) => D1Database) | null = null;

/** Set by startPortal: where each business of its state lives. */
export function useBusinessDatabases(lookup: (businessId: string) => D1Database): void {
  databaseOf = lookup;
}

/** The database of a business of the running portal, as its tenant carries it. */
export function businessDatabase(businessId: string): D1Database {
  if (!databaseOf) throw new Error("No portal is running: start one before using a tenant.");
  return databaseOf(businessId);
}

/** A tenant of the running portal; its `db` is looked up when used, so it follows a business that moved. */
export function tenantOf(businessId: string, userId: string, role: Role): Tenant {
  return {
    businessId,
    userId,
    role,
    get db() {
      return businessDatabase(businessId);
    },
  };
}

export const AMA_KUMASI = tenantOf(KUMASI, "usr_ama_mensah", "Super Administrator");
export const KOFI_KUMASI = tenantOf(KUMASI, "usr_kofi_boateng", "Administrator");
export const ESI_KUMASI = tenantOf(KUMASI, "usr_esi_owusu", "Operations");
export const ABENA_KUMASI = tenantOf(KUMASI, "usr_abena_darko", "Finance");
export const AMA_ACCRA = tenantOf(ACCRA, "usr_ama_mensah", "Administrator");
export const YAW_ACCRA = tenantOf(ACCRA, "usr_yaw_asante", "Viewer");

export const META: RequestMeta = { ip: "198.51.100.7", userAgent: "Mozilla/5.0 (integration test)", requestId: "TEST-0000-0001" };

/** A business of the running portal with its database, as the jobs (clearing, settlement, webhooks) take it. */
export function businessOf(businessId: string): BusinessDb {
  return {
    businessId,
    get db() {
      return businessDatabase(businessId);
    },
  };
}

/**
 * A new merchant's values for a request, the `n`th of a test file's own series (`series`: one capital letter a file, so
 * codes and TINs never meet across files on a shared portal). Names from Ghana and an emoji, as people type them.
 */
export function newMerchant(series: string, n: number): ChangeValues {
  const number = String(n).padStart(4, "0");
  return {
    code: `MER-${series}${number}`,
    name: `Ɔkyeame Ŋkansa Stores 🍍 ${number}`,
    trading_name: `Ɔkyeame ${number}`,
    tin: `C${String(7_000_000_000 + series.charCodeAt(0) * 1_000_000 + n)}`,
    sector: "Retail",
    town: "Kumasi",
    region: "Ashanti",
    address: "3 Adum Road",
    contact_name: "Ɛsi Mensah",
    contact_phone: "233244000222",
    contact_email: "stores@example.com",
  };
}

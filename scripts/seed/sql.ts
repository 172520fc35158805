import { BUSINESSES, USERS, type SeedSize } from "./data";

// Fixed so every run of a size writes byte-identical data.
const SEEDED_AT = "2026-08-01T08:00:00.000Z";

function quote(value: string | null): string {
  return value === null ? "NULL" : `'${value.replace(/'/g, "''")}'`;
}

function insert(table: string, row: Record<string, string | null>): string {
  const columns = Object.keys(row);
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => quote(row[c] ?? null)).join(", ")});`;
}

/** The statements that seed an empty database with one size of demo data. */
export function seedStatements(size: SeedSize): string[] {
  const statements: string[] = [];
  for (const b of BUSINESSES.filter((b) => b.sizes.includes(size))) {
    statements.push(
      insert("businesses", {
        id: b.id,
        name: b.name,
        identifier: b.identifier,
        contact_number: b.contactNumber,
        contact_email: b.contactEmail,
        town: b.town,
        region: b.region,
        sector: b.sector,
        created_at: SEEDED_AT,
      }),
    );
  }
  for (const u of USERS.filter((u) => u.sizes.includes(size))) {
    statements.push(insert("users", { id: u.id, email: u.email, name: u.name, gender: u.gender, created_at: SEEDED_AT }));
    for (const msisdn of u.phones) {
      statements.push(insert("user_phones", { user_id: u.id, msisdn, created_at: SEEDED_AT }));
    }
    for (const [businessId, role] of Object.entries(u.roles)) {
      statements.push(insert("memberships", { business_id: businessId, user_id: u.id, role, created_at: SEEDED_AT }));
    }
  }
  return statements;
}

// Names for the ids a page of rows carries: one look-up for every screen, by
// id (never "the first N by name", which loses the rest of a large business).
// Each statement binds the business, so another business's id has no name, and
// reads at most ID_CHUNK ids, under D1's 100 bound parameters a statement.
import type { BusinessDb } from "../tenancy/tenant";

export type NameKind = "merchant" | "point_of_sale" | "terminal" | "terminal_serial" | "person" | "settlement_account" | "settlement_account_holder";

interface Lookup {
  /** Tables read; `business` is the business_id column that scopes them. */
  from: string;
  business: string;
  id: string;
  name: string;
}

const LOOKUPS: Record<NameKind, Lookup> = {
  merchant: { from: "merchants", business: "business_id", id: "id", name: "name" },
  point_of_sale: { from: "points_of_sale", business: "business_id", id: "id", name: "name" },
  terminal: { from: "terminals", business: "business_id", id: "id", name: "serial || ' · ' || model" },
  // The serial alone: what is printed on the device, and what a spreadsheet matches on.
  terminal_serial: { from: "terminals", business: "business_id", id: "id", name: "serial" },
  // users belong to no business: a person is named only through a membership of this one.
  person: { from: "memberships m JOIN users u ON u.id = m.user_id", business: "m.business_id", id: "m.user_id", name: "u.name" },
  settlement_account: { from: "settlement_accounts", business: "business_id", id: "id", name: "provider || ' ' || account_number" },
  // As requests name an account: the holder, then where the money goes.
  settlement_account_holder: {
    from: "settlement_accounts",
    business: "business_id",
    id: "id",
    name: "account_name || ' (' || trim(provider || ' ' || account_number) || ')'",
  },
};

interface NameRow {
  id: string;
  name: string;
}

/** D1 binds at most 100 parameters a statement; one is the business. */
export const ID_CHUNK = 99;

/** Ids in runs that fit one statement beside its `otherBinds` other parameters (the business, a period...). */
export function idChunks<T>(ids: readonly T[], otherBinds: number): T[][] {
  const size = ID_CHUNK + 1 - otherBinds;
  const chunks: T[][] = [];
  for (let start = 0; start < ids.length; start += size) chunks.push(ids.slice(start, start + size));
  return chunks;
}

/** The name of each id of this kind that the business has; ids it lacks (or empty ones) are absent from the map. */
export async function namesOf(tenant: BusinessDb, kind: NameKind, ids: Iterable<string | null | undefined>): Promise<Map<string, string>> {
  const { db } = tenant;
  const unique = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
  const names = new Map<string, string>();
  if (unique.length === 0) return names;
  const { from, business, id, name } = LOOKUPS[kind];
  const statements: D1PreparedStatement[] = [];
  for (let start = 0; start < unique.length; start += ID_CHUNK) {
    const chunk = unique.slice(start, start + ID_CHUNK);
    statements.push(
      db
        .prepare(`SELECT ${id} AS id, ${name} AS name FROM ${from} WHERE ${business} = ? AND ${id} IN (${chunk.map(() => "?").join(", ")})`)
        .bind(tenant.businessId, ...chunk),
    );
  }
  // One statement alone; several in one batch (one round trip).
  const results = statements.length === 1 ? [await statements[0]!.all<NameRow>()] : await db.batch<NameRow>(statements);
  for (const result of results) for (const row of result.results) names.set(row.id, row.name);
  return names;
}

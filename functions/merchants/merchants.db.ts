import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { textContains, type Match } from "../lists/search";
import type { BusinessDb, Tenant } from "../tenancy/tenant";

export type MerchantStatus = "active" | "inactive";

export interface Merchant {
  id: string;
  code: string;
  name: string;
  tradingName: string;
  tin: string;
  sector: string;
  town: string;
  region: string;
  address: string;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  status: MerchantStatus;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const SELECT = `SELECT id, code, name, trading_name AS tradingName, tin, sector, town, region, address, contact_name AS contactName,
  contact_phone AS contactPhone, contact_email AS contactEmail, status, created_at AS createdAt, updated_at AS updatedAt, version FROM merchants`;

export async function getMerchant(tenant: Tenant, id: string): Promise<Merchant | null> {
  const { db } = tenant;
  return db.prepare(`${SELECT} WHERE id = ? AND business_id = ?`).bind(id, tenant.businessId).first<Merchant>();
}

export interface MerchantQuery extends PageQuery {
  status?: MerchantStatus;
  sector?: string;
  region?: string;
  town?: string;
  /** Part of the name, trading name, code, TIN or phone. */
  search?: string;
  /** A number-heavy query (app/lib/merchant-search.ts): code, TIN or phone, never names. */
  number?: MerchantNumber;
  sort?: "name" | "newest";
}

/** A code, TIN or phone as typed, without its spaces and hyphens; the phone as its digits (233..., or part of one). */
export interface MerchantNumber {
  plain: string;
  phone: string | null;
}

/** The condition on a merchants row (unqualified columns) for a typed number: codes match without their hyphens. */
export function merchantNumberMatch(number: MerchantNumber): Match {
  const plain = textContains(["REPLACE(code, '-', '')", "tin"], number.plain);
  if (!number.phone) return plain;
  const phone = textContains(["contact_phone"], number.phone);
  return { sql: `(${plain.sql} OR ${phone.sql})`, binds: [...plain.binds, ...phone.binds] };
}

export async function listMerchants(tenant: Tenant, query: MerchantQuery = {}): Promise<Page<Merchant>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  for (const [column, value] of [
    ["status", query.status],
    ["sector", query.sector],
    ["region", query.region],
    ["town", query.town],
  ] as const) {
    if (value) {
      where.push(`${column} = ?`);
      binds.push(value);
    }
  }
  if (query.search?.trim()) {
    const match = textContains(["name", "trading_name", "code", "tin", "contact_phone"], query.search.trim());
    where.push(match.sql);
    binds.push(...match.binds);
  }
  if (query.number?.plain) {
    const match = merchantNumberMatch(query.number);
    where.push(match.sql);
    binds.push(...match.binds);
  }
  const filterWhere = where.join(" AND ");
  const filterBinds = [...binds];
  const newest = query.sort === "newest";
  const after = decodeCursor(query.after, 2);
  if (after) {
    where.push(newest ? "(created_at < ? OR (created_at = ? AND id < ?))" : "(name COLLATE NOCASE > ? OR (name COLLATE NOCASE = ? AND id > ?))");
    binds.push(after[0], after[0], after[1]);
  }
  const order = newest ? "created_at DESC, id DESC" : "name COLLATE NOCASE, id";
  const [{ results }, total] = await Promise.all([
    db
      .prepare(`${SELECT} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ?`)
      .bind(...binds, size + 1)
      .all<Merchant>(),
    query.withTotal
      ? db
          .prepare(`SELECT COUNT(*) AS n FROM merchants WHERE ${filterWhere}`)
          .bind(...filterBinds)
          .first<number>("n")
      : undefined,
  ]);
  const page = toPage(results, size, (m) => (newest ? [m.createdAt, m.id] : [m.name, m.id]));
  return query.withTotal ? { ...page, total: total ?? 0 } : page;
}

/**
 * Merchants by name for a choice in a form or a filter, at most `limit` of them,
 * narrowed by what was typed (a business with more finds the rest so; names of rows come from namesOf).
 */
export async function listMerchantChoices(
  tenant: Tenant,
  query: { limit: number; status?: MerchantStatus; exceptId?: string; search?: string; number?: MerchantNumber },
): Promise<{ id: string; name: string }[]> {
  const { db } = tenant;
  const where = ["business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  // Typed, so a business with more merchants than a list holds can reach each of them.
  if (query.search?.trim()) {
    const match = textContains(["name", "trading_name"], query.search.trim());
    where.push(`(${match.sql} OR code = ? COLLATE NOCASE)`);
    binds.push(...match.binds, query.search.trim());
  }
  if (query.number?.plain) {
    const match = merchantNumberMatch(query.number);
    where.push(match.sql);
    binds.push(...match.binds);
  }
  if (query.status) {
    where.push("status = ?");
    binds.push(query.status);
  }
  if (query.exceptId) {
    where.push("id <> ?");
    binds.push(query.exceptId);
  }
  const { results } = await db
    .prepare(`SELECT id, name FROM merchants WHERE ${where.join(" AND ")} ORDER BY name COLLATE NOCASE, id LIMIT ?`)
    .bind(...binds, Math.max(1, Math.floor(query.limit)))
    .all<{ id: string; name: string }>();
  return results;
}

/** The sectors this business's merchants are in, for the list's filter. */
export async function listMerchantSectors(tenant: Tenant): Promise<string[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare("SELECT DISTINCT sector FROM merchants WHERE business_id = ? ORDER BY sector")
    .bind(tenant.businessId)
    .all<{ sector: string }>();
  return results.map((row) => row.sector);
}

/**
 * Which of a code and a TIN another merchant of the business already has, or a
 * pending request would give one: the database refuses duplicates only when a
 * request is approved, so the maker hears it now, next to the field.
 */
export async function merchantClashes(
  tenant: Tenant,
  wanted: { code?: string; tin?: string },
  exceptId: string | null = null,
): Promise<{ code: boolean; tin: boolean }> {
  const { db } = tenant;
  const check = async (column: "code" | "tin", value: string | undefined) => {
    if (!value) return false;
    const [row, pending] = await Promise.all([
      db
        .prepare(`SELECT 1 AS hit FROM merchants WHERE business_id = ? AND ${column} = ? AND id IS NOT ?`)
        .bind(tenant.businessId, value, exceptId)
        .first<number>("hit"),
      db
        .prepare(
          `SELECT 1 AS hit FROM approval_requests WHERE business_id = ? AND kind = 'merchant' AND status = 'pending'
             AND json_extract(after_json, '$.${column}') = ? AND target_id IS NOT ?`,
        )
        .bind(tenant.businessId, value, exceptId)
        .first<number>("hit"),
    ]);
    return Boolean(row || pending);
  };
  const [code, tin] = await Promise.all([check("code", wanted.code), check("tin", wanted.tin)]);
  return { code, tin };
}

/** The house's merchant codes: MRC- and a number of at least four digits (MRC-0042), as the seed and the form's hint write them. */
export const MERCHANT_CODE_PREFIX = "MRC-";

/**
 * The code the add-merchant form proposes: one above the highest MRC-number the business has or a pending request would
 * give, four digits at least (MRC-0043). A proposal only: the person may type another, and the action still refuses a
 * taken one (merchantClashes), since another person may send the same proposal first. Codes of another shape are not
 * counted; both reads are by the business (the unique index on its codes, the pending requests of its queue).
 */
export async function nextMerchantCode(tenant: Tenant): Promise<string> {
  const { db } = tenant;
  const numberOf = (column: string) => `CAST(substr(${column}, 5) AS INTEGER)`;
  // MRC- and digits only (no LIKE or GLOB in the portal's SQL): what trimming every digit away leaves empty.
  const isOurs = (column: string) =>
    `substr(${column}, 1, 4) = 'MRC-' AND length(${column}) BETWEEN 5 AND 20 AND trim(substr(${column}, 5), '0123456789') = ''`;
  const highest = await db
    .prepare(
      `SELECT MAX(n) AS n FROM (
         SELECT ${numberOf("code")} AS n FROM merchants WHERE business_id = ?1 AND ${isOurs("code")}
         UNION ALL
         SELECT ${numberOf("json_extract(after_json, '$.code')")} FROM approval_requests
           WHERE business_id = ?1 AND kind = 'merchant' AND status = 'pending' AND ${isOurs("json_extract(after_json, '$.code')")}
       )`,
    )
    .bind(tenant.businessId)
    .first<number | null>("n");
  return `${MERCHANT_CODE_PREFIX}${String((highest ?? 0) + 1).padStart(4, "0")}`;
}

export interface PendingRequestRef {
  id: string;
  kind: "merchant" | "settlement_account";
  action: "create" | "update" | "deactivate";
  targetId: string;
}

/** Pending requests on a merchant and on its settlement accounts (new ones included), oldest first. */
export async function pendingRequestsOfMerchant(tenant: Tenant, merchantId: string): Promise<PendingRequestRef[]> {
  const { db } = tenant;
  const { results } = await db
    .prepare(
      `SELECT id, kind, action, target_id AS targetId FROM approval_requests
       WHERE business_id = ?1 AND status = 'pending' AND (
         (kind = 'merchant' AND target_id = ?2)
         OR (kind = 'settlement_account' AND (
           target_id IN (SELECT id FROM settlement_accounts WHERE business_id = ?1 AND merchant_id = ?2)
           OR (action = 'create' AND json_extract(after_json, '$.merchant_id') = ?2))))
       ORDER BY made_at, id`,
    )
    .bind(tenant.businessId, merchantId)
    .all<PendingRequestRef>();
  return results;
}

/**
 * A page of the business's merchants for the Partner API, newest first by (created_at, id): merchants_by_created.
 * `after` is the last row's (created_at, id); `limit` rows are asked for plus one, to know if more follow.
 */
export async function listMerchantsPage(
  { businessId, db }: BusinessDb,
  after: readonly [createdAt: string, id: string] | null,
  limit: number,
): Promise<Merchant[]> {
  const keyset = after ? " AND created_at <= ? AND (created_at < ? OR id < ?)" : "";
  const { results } = await db
    .prepare(`${SELECT} WHERE business_id = ?${keyset} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .bind(businessId, ...(after ? [after[0], after[0], after[1]] : []), limit + 1)
    .all<Merchant>();
  return results;
}

// Reading maker-checker requests (approvals.db.ts makes them, the decision core decides them): one request, the queue and its counts,
// the name of what each request concerns and the record it would change, for the queue and the request page.
import { namesOf, type NameKind } from "../lists/names.db";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { BusinessDb, Tenant } from "../tenancy/tenant";
import { TEST_SUFFIX } from "../tenancy/test-mode";
import { ROLES, can } from "../permissions";
import type { SqlPart } from "./apply-change.db";
import {
  APPROVAL_KINDS,
  MONEY_REQUEST_KINDS,
  MONEY_SUBJECTS,
  SPECS,
  type ApprovalAction,
  type ApprovalKind,
  type ApprovalRequest,
  type ApprovalStatus,
  type ChangeValues,
  type MoneyRequestKind,
  type RequestKind,
} from "./change-kinds";
import { STEPS } from "./change-steps";

// ---------------------------------------------------------------- reading

interface RequestRow {
  id: string;
  kind: ApprovalKind;
  action: ApprovalAction;
  target_id: string;
  target_version: number | null;
  before_json: string | null;
  after_json: string;
  maker_id: string;
  maker_name: string;
  made_at: string;
  status: ApprovalStatus;
  checker_id: string | null;
  checker_name: string | null;
  decided_at: string | null;
  reason: string | null;
}

// users belong to no business: the maker and the checker are reached through their memberships of this one.
const SELECT_REQUEST = `SELECT r.id, r.kind, r.action, r.target_id, r.target_version, r.before_json, r.after_json, r.maker_id,
  mk.name AS maker_name, r.made_at, r.status, r.checker_id, ck.name AS checker_name, r.decided_at, r.reason
  FROM approval_requests r
  JOIN memberships mkm ON mkm.business_id = r.business_id AND mkm.user_id = r.maker_id JOIN users mk ON mk.id = mkm.user_id
  LEFT JOIN memberships ckm ON ckm.business_id = r.business_id AND ckm.user_id = r.checker_id LEFT JOIN users ck ON ck.id = ckm.user_id`;

function toRequest(row: RequestRow): ApprovalRequest {
  return {
    id: row.id,
    kind: row.kind,
    action: row.action,
    targetId: row.target_id,
    targetVersion: row.target_version,
    before: row.before_json === null ? null : (JSON.parse(row.before_json) as ChangeValues),
    after: JSON.parse(row.after_json) as ChangeValues,
    makerId: row.maker_id,
    makerName: row.maker_name,
    madeAt: row.made_at,
    status: row.status,
    checkerId: row.checker_id,
    checkerName: row.checker_name,
    decidedAt: row.decided_at,
    reason: row.reason,
  };
}

export async function getApprovalRequest(tenant: Tenant, id: string): Promise<ApprovalRequest | null> {
  const { db } = tenant;
  const row = await db.prepare(`${SELECT_REQUEST} WHERE r.id = ? AND r.business_id = ?`).bind(id, tenant.businessId).first<RequestRow>();
  return row ? toRequest(row) : null;
}

/** The requests of these ids in the business (another business's are not there), in one read. */
export async function getApprovalRequests(tenant: Tenant, ids: readonly string[]): Promise<ApprovalRequest[]> {
  if (ids.length === 0) return [];
  const { results } = await tenant.db
    .prepare(`${SELECT_REQUEST} WHERE r.business_id = ? AND r.id IN (SELECT value FROM json_each(?))`)
    .bind(tenant.businessId, JSON.stringify(ids))
    .all<RequestRow>();
  return results.map(toRequest);
}

export interface ApprovalQuery extends PageQuery {
  status?: ApprovalStatus;
  kind?: RequestKind;
  makerId?: string;
  /** Only the requests that wait for this person's decision (a user id). */
  waitingFor?: string;
}

/** The roles that decide requests. */
const DECIDERS = ROLES.filter((role) => can(role, "decide:approval"));

/**
 * The requests of `r` that wait for this person: pending, and ones the engine would let them decide. Their role
 * (read from their membership, so the count needs nothing but their id) decides requests; they did not make it; and
 * its kind does not keep it from them (the kind's waitingExclusion: a change to their own access, or to a role theirs
 * cannot grant). The same rules as the decision core's and its kinds' (functions/decisions/decide.ts,
 * change-steps.ts), so the queue never offers a decision that is then refused.
 */
function waitingForClause(userId: string): SqlPart {
  return waitingForPerson({ sql: "?", binds: [userId] });
}

/**
 * The same rule for a person named by SQL: a bound id ("?" and the id), or a column of the query around it
 * ("m.user_id"), so the notices' fan-out (functions/notifications/fan-out.db.ts) reaches exactly those the queue's
 * "Waiting for me" shows the request to.
 */
export function waitingForPerson(person: SqlPart): SqlPart {
  // A test business's people are its live business's (decision 045): their role there decides its requests too.
  const role = {
    sql: `(SELECT wm.role FROM memberships wm WHERE wm.business_id = iif(substr(r.business_id, -${TEST_SUFFIX.length}) = '${TEST_SUFFIX}', substr(r.business_id, 1, length(r.business_id) - ${TEST_SUFFIX.length}), r.business_id) AND wm.user_id = ${person.sql})`,
    binds: person.binds,
  };
  const exclusions = APPROVAL_KINDS.flatMap((kind) => {
    const excluded = STEPS[kind]?.waitingExclusion?.(person, role);
    return excluded ? [{ sql: `\n      AND NOT (r.kind = ? AND ${excluded.sql})`, binds: [kind, ...excluded.binds] }] : [];
  });
  return {
    sql: `(r.status = 'pending' AND r.maker_id <> ${person.sql} AND ${role.sql} IN (${DECIDERS.map(() => "?").join(", ")})${exclusions.map((e) => e.sql).join("")})`,
    binds: [...person.binds, ...role.binds, ...DECIDERS, ...exclusions.flatMap((e) => e.binds)],
  };
}

/** The queue, newest first. */
export async function listApprovalRequests(tenant: Tenant, query: ApprovalQuery = {}): Promise<Page<ApprovalRequest>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const where = ["r.business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
  if (query.waitingFor) {
    const waiting = waitingForClause(query.waitingFor);
    where.push(waiting.sql);
    binds.push(...waiting.binds);
  }
  for (const [column, value] of [
    ["r.status", query.status],
    ["r.kind", query.kind],
    ["r.maker_id", query.makerId],
  ] as const) {
    if (value) {
      where.push(`${column} = ?`);
      binds.push(value);
    }
  }
  const filter = where.join(" AND ");
  const filterBinds = [...binds];
  const after = decodeCursor(query.after, 2);
  if (after) {
    where.push("(r.made_at < ? OR (r.made_at = ? AND r.id < ?))");
    binds.push(after[0], after[0], after[1]);
  }
  const [{ results }, total] = await Promise.all([
    db
      .prepare(`${SELECT_REQUEST} WHERE ${where.join(" AND ")} ORDER BY r.made_at DESC, r.id DESC LIMIT ?`)
      .bind(...binds, size + 1)
      .all<RequestRow>(),
    query.withTotal
      ? db
          .prepare(`SELECT COUNT(*) AS n FROM approval_requests r WHERE ${filter}`)
          .bind(...filterBinds)
          .first<number>("n")
      : undefined,
  ]);
  const page = toPage(results.map(toRequest), size, (r) => [r.madeAt, r.id]);
  return query.withTotal ? { ...page, total: total ?? 0 } : page;
}

/** Pending requests per kind (transfers and refunds too), for the queue's tabs; only those waiting for `waitingFor` when given. */
export async function countPendingRequests(tenant: Tenant, waitingFor?: string): Promise<Record<RequestKind, number>> {
  const { db } = tenant;
  const waiting = waitingFor ? waitingForClause(waitingFor) : null;
  const { results } = await db
    .prepare(
      `SELECT r.kind, COUNT(*) AS n FROM approval_requests r WHERE r.business_id = ? AND r.status = 'pending'${waiting ? ` AND ${waiting.sql}` : ""} GROUP BY r.kind`,
    )
    .bind(tenant.businessId, ...(waiting?.binds ?? []))
    .all<{ kind: RequestKind; n: number }>();
  const counts = Object.fromEntries([...APPROVAL_KINDS, ...MONEY_REQUEST_KINDS].map((kind) => [kind, 0])) as Record<RequestKind, number>;
  for (const row of results) if (row.kind in counts) counts[row.kind] = row.n;
  return counts;
}

/** Which of these requests wait for this person's decision (the queue offers a choice only on those). */
export async function requestsWaitingFor(tenant: Tenant, userId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { db } = tenant;
  const waiting = waitingForClause(userId);
  const { results } = await db
    .prepare(`SELECT r.id FROM approval_requests r WHERE r.business_id = ? AND r.id IN (SELECT value FROM json_each(?)) AND ${waiting.sql}`)
    .bind(tenant.businessId, JSON.stringify(ids), ...waiting.binds)
    .all<{ id: string }>();
  return new Set(results.map((row) => row.id));
}

// ---------------------------------------------------------------- showing

/** A request as the queue and the request page read it (transfers included: the queue shows them until their screens exist). */
type Subject = Pick<ApprovalRequest, "id" | "action" | "targetId" | "after"> & { kind: string };

function ownName(values: ChangeValues): string | null {
  const name = values.name;
  return name === undefined || name === null ? null : String(name);
}

function isApprovalKind(kind: string): kind is ApprovalKind {
  return (APPROVAL_KINDS as readonly string[]).includes(kind);
}

/**
 * The name of what each request concerns, by request id: a create names itself
 * in its after values; the others read their targets, one query per kind for
 * the whole page. A target that is gone has no name (the page says so).
 */
export async function requestSubjects(tenant: BusinessDb, requests: readonly Subject[]): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  const wanted = new Map<ApprovalKind, { namesOf: NameKind; ids: Set<string> }>();
  for (const request of requests) {
    const { kind } = request;
    if (!isApprovalKind(kind)) {
      const name = MONEY_SUBJECTS[kind as MoneyRequestKind]?.(request.after);
      if (name) names[request.id] = name;
      continue;
    }
    const naming = SPECS[kind].subject;
    if ("fixed" in naming) {
      names[request.id] = naming.fixed;
    } else if (request.action === "create") {
      const name = naming.ofCreate ? naming.ofCreate(request.after) : ownName(request.after);
      if (name) names[request.id] = name;
    } else {
      const lookup = wanted.get(kind) ?? { namesOf: naming.namesOf, ids: new Set<string>() };
      lookup.ids.add(request.targetId);
      wanted.set(kind, lookup);
    }
  }
  const lookups = [...wanted].map(async ([kind, { namesOf: nameKind, ids }]) => [kind, await namesOf(tenant, nameKind, ids)] as const);
  const found = new Map<string, Map<string, string>>(await Promise.all(lookups));
  for (const request of requests) {
    if (request.action === "create") continue;
    const name = found.get(request.kind)?.get(request.targetId);
    if (name) names[request.id] = name;
  }
  return names;
}

/** The columns a request of this kind can show, in the order a person reads them. */
export function recordColumns(kind: ApprovalKind): readonly string[] {
  const spec = SPECS[kind];
  return spec.recordColumns ?? [...spec.createColumns, "status"];
}

export interface RequestRecord {
  /** The target as it stands now (null: a create not applied yet, or a target that is gone). */
  current: ChangeValues | null;
  /** The name of the merchant a point of sale or settlement account belongs to (or a terminal goes to). */
  merchantName: string | null;
  /** The name of the point of sale a terminal goes to. */
  pointOfSaleName: string | null;
}

/** The target's current values and its merchant's name, for the request page. */
export async function getRequestRecord(tenant: Tenant, request: ApprovalRequest): Promise<RequestRecord> {
  const { db } = tenant;
  const spec = SPECS[request.kind];
  const steps = STEPS[request.kind];
  const current = steps?.readCurrent
    ? await steps.readCurrent(tenant, request.targetId)
    : await db
        .prepare(`SELECT ${recordColumns(request.kind).join(", ")} FROM ${spec.table} WHERE id = ? AND business_id = ?`)
        .bind(request.targetId, tenant.businessId)
        .first<ChangeValues>();
  let merchantName: string | null = null;
  let pointOfSaleName: string | null = null;
  const merchantId = request.after.merchant_id ?? current?.merchant_id;
  if ((spec.underMerchant || "merchant_id" in request.after) && merchantId) {
    merchantName =
      (await db.prepare("SELECT name FROM merchants WHERE id = ? AND business_id = ?").bind(merchantId, tenant.businessId).first<string>("name")) ?? null;
  }
  const pointOfSaleId = request.after.point_of_sale_id;
  if (pointOfSaleId) {
    pointOfSaleName =
      (await db.prepare("SELECT name FROM points_of_sale WHERE id = ? AND business_id = ?").bind(pointOfSaleId, tenant.businessId).first<string>("name")) ??
      null;
  }
  return { current, merchantName, pointOfSaleName };
}

/** How many requests wait for this person's decision, for a batch (the navigation's count, read before their role is known). */
export function waitingCountStatement(business: Pick<Tenant, "businessId" | "db">, userId: string): D1PreparedStatement {
  const { db } = business;
  const waiting = waitingForClause(userId);
  return db.prepare(`SELECT COUNT(*) AS n FROM approval_requests r WHERE r.business_id = ? AND ${waiting.sql}`).bind(business.businessId, ...waiting.binds);
}

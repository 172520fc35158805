// Maker-checker. A request stores what should change (after), what it changes
// from (before), the target's version, the maker and the time. Only a Super
// Administrator or Administrator may decide, never on their own request.
// Approving applies the change, marks the request and writes the audit log in
// one D1 batch (one transaction): a failing statement leaves nothing behind. A
// request whose target changed since it was made is marked stale, not applied.
import { clearBatchGuardsStatement, guardStatement } from "../platform/batch-guards.db";
import { can, canGrantRole, isRole, type Permission } from "../permissions";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { auditStatement } from "../audit/audit.db";
import { MERCHANT_COLUMNS } from "../merchants/merchant-columns";
import { namesOf, type NameKind } from "../lists/names.db";
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import { POINT_OF_SALE_COLUMNS } from "../merchants/points-of-sale.db";
import { SETTLEMENT_ACCOUNT_COLUMNS } from "../settlement/settlement-accounts.db";
import { accountsForInvitation, type CoreAccount } from "../tenancy/directory.db";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type Db, type RequestMeta, type Tenant } from "../tenancy/tenant";

export const APPROVAL_KINDS = ["employee", "merchant", "point_of_sale", "settlement_account", "security_policy"] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export type ApprovalAction = "create" | "update" | "deactivate";
export type ApprovalStatus = "pending" | "approved" | "rejected" | "stale";
export type ChangeValues = Record<string, string | number | null>;

export interface ApprovalRequest {
  id: string;
  kind: ApprovalKind;
  action: ApprovalAction;
  targetId: string;
  targetVersion: number | null;
  before: ChangeValues | null;
  after: ChangeValues;
  makerId: string;
  makerName: string;
  madeAt: string;
  status: ApprovalStatus;
  checkerId: string | null;
  checkerName: string | null;
  decidedAt: string | null;
  reason: string | null;
}

/** The request was made against an older version of its target; it has been marked stale. */
export class StaleRequestError extends RuleError {
  override name = "StaleRequestError";
  constructor() {
    super("The record changed after this request was made. The request is now stale: make a new one from the current values.");
  }
}

interface KindSpec {
  table: string;
  idColumn: "id" | "user_id";
  /** Audit entity name, and the noun in messages. */
  entity: string;
  noun: string;
  request: Permission;
  /** Columns a create sets (all of them are required). */
  createColumns: readonly string[];
  /** Columns an update may change. */
  updateColumns: readonly string[];
  inactive: string;
  idPrefix: string;
  /** The merchant a new row belongs to must be this business's. */
  underMerchant: boolean;
}

const SPECS: Record<ApprovalKind, KindSpec> = {
  merchant: {
    table: "merchants",
    idColumn: "id",
    entity: "merchant",
    noun: "merchant",
    request: "request:merchant",
    createColumns: MERCHANT_COLUMNS,
    updateColumns: MERCHANT_COLUMNS.filter((c) => c !== "code"),
    inactive: "inactive",
    idPrefix: "mer",
    underMerchant: false,
  },
  point_of_sale: {
    table: "points_of_sale",
    idColumn: "id",
    entity: "point_of_sale",
    noun: "point of sale",
    request: "request:point_of_sale",
    createColumns: POINT_OF_SALE_COLUMNS,
    updateColumns: POINT_OF_SALE_COLUMNS.filter((c) => c !== "merchant_id"),
    inactive: "inactive",
    idPrefix: "pos",
    underMerchant: true,
  },
  settlement_account: {
    table: "settlement_accounts",
    idColumn: "id",
    entity: "settlement_account",
    noun: "settlement account",
    request: "request:settlement_account",
    createColumns: SETTLEMENT_ACCOUNT_COLUMNS,
    updateColumns: SETTLEMENT_ACCOUNT_COLUMNS.filter((c) => c !== "merchant_id"),
    inactive: "inactive",
    idPrefix: "sa",
    underMerchant: true,
  },
  // The business's security policy: one row a business, only ever updated; a Super Administrator asks.
  security_policy: {
    table: "business_policies",
    idColumn: "id",
    entity: "security_policy",
    noun: "security policy",
    request: "request:security_policy",
    createColumns: ["decisions_need_passkey"],
    updateColumns: ["decisions_need_passkey"],
    inactive: "inactive",
    idPrefix: "pol",
    underMerchant: false,
  },
  employee: {
    table: "memberships",
    idColumn: "user_id",
    entity: "employee",
    noun: "employee",
    request: "request:employee",
    createColumns: ["email", "name", "gender", "phone", "role"],
    updateColumns: ["role"],
    inactive: "deactivated",
    idPrefix: "usr",
    underMerchant: false,
  },
};

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

export interface ApprovalQuery extends PageQuery {
  status?: ApprovalStatus;
  kind?: ApprovalKind;
  makerId?: string;
}

/** The queue, newest first. */
export async function listApprovalRequests(tenant: Tenant, query: ApprovalQuery = {}): Promise<Page<ApprovalRequest>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const where = ["r.business_id = ?"];
  const binds: unknown[] = [tenant.businessId];
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

/** Pending requests per kind (transfers too, the fifth kind), for the queue's tabs. */
export async function countPendingRequests(tenant: Tenant): Promise<Record<ApprovalKind | "transfer" | "refund", number>> {
  const { db } = tenant;
  const { results } = await db
    .prepare("SELECT kind, COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND status = 'pending' GROUP BY kind")
    .bind(tenant.businessId)
    .all<{ kind: ApprovalKind | "transfer" | "refund"; n: number }>();
  const counts = { employee: 0, merchant: 0, point_of_sale: 0, settlement_account: 0, security_policy: 0, transfer: 0, refund: 0 };
  for (const row of results) if (row.kind in counts) counts[row.kind] = row.n;
  return counts;
}

// ---------------------------------------------------------------- making

export interface ChangeInput {
  kind: ApprovalKind;
  action: ApprovalAction;
  /** The row to change; omitted for a create (the engine picks the new id). */
  targetId?: string;
  /** For create: every create column; for update: the columns to change. Ignored for deactivate. */
  after?: ChangeValues;
  /**
   * Inviting an employee: the account the email already has anywhere in the portal (the core database knows every
   * person: functions/tenancy/directory.db.ts accountIdByEmail), so the invitation is for that account; null for a new person.
   * For an existing account what the business typed (name, phone) never becomes the person's: decision 029.
   */
  existingAccountId?: string | null;
}

async function readTarget(tenant: Tenant, spec: KindSpec, targetId: string, columns: readonly string[]) {
  const { db } = tenant;
  const list = [...new Set([...columns, "status", "version"])].join(", ");
  return db.prepare(`SELECT ${list} FROM ${spec.table} WHERE ${spec.idColumn} = ? AND business_id = ?`).bind(targetId, tenant.businessId).first<ChangeValues>();
}

function pick(values: ChangeValues, columns: readonly string[]): ChangeValues {
  return Object.fromEntries(columns.map((c) => [c, values[c] ?? null]));
}

function requireColumns(spec: KindSpec, after: ChangeValues, allowed: readonly string[], all: boolean): ChangeValues {
  const unknown = Object.keys(after).filter((key) => !allowed.includes(key));
  if (unknown.length) throw new RuleError(`These cannot be set on a ${spec.noun}: ${unknown.join(", ")}`);
  if (all) {
    const missing = allowed.filter((c) => after[c] === undefined || after[c] === null || after[c] === "");
    if (missing.length) throw new RuleError(`A new ${spec.noun} needs: ${missing.join(", ")}`);
  }
  return pick(
    after,
    allowed.filter((c) => after[c] !== undefined),
  );
}

function checkEmployeeRules(tenant: Tenant, targetId: string, after: ChangeValues, who: "maker" | "checker"): void {
  if (targetId === tenant.userId) {
    throw new RuleError(who === "maker" ? "You cannot change your own role or access." : "You cannot decide a change to your own role or access.");
  }
  const role = after.role;
  if (role !== undefined && role !== null) {
    if (!isRole(role)) throw new RuleError(`Unknown role: ${String(role)}`);
    if (!canGrantRole(tenant.role, role)) throw new RuleError(`Your role cannot grant ${role}.`);
  }
}

function isUniqueViolation(error: unknown, index: string): boolean {
  return error instanceof Error && error.message.includes("UNIQUE constraint failed") && error.message.includes(index);
}

/** Makes a request; returns its id. Nothing changes until a checker approves it. */
export async function requestChange(tenant: Tenant, meta: RequestMeta, input: ChangeInput): Promise<string> {
  const { db } = tenant;
  const spec = SPECS[input.kind];
  if (!can(tenant.role, spec.request)) throw new ForbiddenError(`Your role cannot request ${spec.noun} changes.`);
  const at = nowIso();
  let targetId: string;
  let targetVersion: number | null = null;
  let before: ChangeValues | null = null;
  let after: ChangeValues;

  if (input.action === "create") {
    after = requireColumns(spec, input.after ?? {}, spec.createColumns, true);
    if (spec.underMerchant) {
      const merchant = await db.prepare("SELECT id FROM merchants WHERE id = ? AND business_id = ?").bind(after.merchant_id, tenant.businessId).first();
      if (!merchant) throw new NotFoundError("Merchant");
    }
    if (input.kind === "employee") {
      after.email = String(after.email).trim().toLowerCase();
      // A person may already have an account (with another business): the invitation is for that account.
      const existing = await db
        .prepare(
          "SELECT u.id, m.user_id IS NOT NULL AS member FROM users u LEFT JOIN memberships m ON m.business_id = ? AND m.user_id = u.id WHERE u.email = ?",
        )
        .bind(tenant.businessId, after.email)
        .first<{ id: string; member: number }>();
      targetId = input.existingAccountId ?? existing?.id ?? `${spec.idPrefix}_${crypto.randomUUID()}`;
      if (existing?.member) throw new RuleError("This person is already an employee of the business.");
      checkEmployeeRules(tenant, targetId, after, "maker");
    } else {
      targetId = `${spec.idPrefix}_${crypto.randomUUID()}`;
    }
  } else {
    if (!input.targetId) throw new RuleError(`Say which ${spec.noun} to change.`);
    targetId = input.targetId;
    const columns = input.action === "update" ? spec.updateColumns : ["status"];
    const current = await readTarget(tenant, spec, targetId, columns);
    if (!current) throw new NotFoundError(spec.noun);
    if (current.status === spec.inactive) throw new RuleError(`This ${spec.noun} is already deactivated.`);
    if (input.action === "update") {
      const wanted = requireColumns(spec, input.after ?? {}, spec.updateColumns, false);
      after = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => current[key] !== value));
      if (Object.keys(after).length === 0) throw new RuleError("Nothing would change.");
    } else {
      after = { status: spec.inactive };
    }
    before = pick(current, Object.keys(after));
    targetVersion = Number(current.version);
    if (input.kind === "employee") checkEmployeeRules(tenant, targetId, after, "maker");
  }

  const id = `apr_${crypto.randomUUID()}`;
  try {
    await db.batch([
      db
        .prepare(
          `INSERT INTO approval_requests (id, business_id, kind, action, target_id, target_version, before_json, after_json, maker_id, made_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          id,
          tenant.businessId,
          input.kind,
          input.action,
          targetId,
          targetVersion,
          before ? JSON.stringify(before) : null,
          JSON.stringify(after),
          tenant.userId,
          at,
        ),
      auditStatement(
        tenant,
        meta,
        { action: "request.create", entity: "approval_request", entityId: id, after: { kind: input.kind, action: input.action, targetId, before, after } },
        at,
      ),
      ...webhookEventStatements(tenant, [
        {
          id: `evt_${id}_requested`,
          type: "approval.requested",
          at: Date.parse(at),
          data: { approvalRequest: { id, kind: input.kind, action: input.action, targetId, makerId: tenant.userId, madeAt: at } },
        },
      ]),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "approval_requests.kind")) throw new RuleError(`This ${spec.noun} already has a pending request.`);
    throw error;
  }
  return id;
}

// ---------------------------------------------------------------- deciding

async function loadPendingForDecision(tenant: Tenant, id: string): Promise<ApprovalRequest> {
  if (!can(tenant.role, "decide:approval")) throw new ForbiddenError("Only a Super Administrator or an Administrator can decide requests.");
  const request = await getApprovalRequest(tenant, id);
  if (!request) throw new NotFoundError("Request");
  if (request.status !== "pending") throw new RuleError(`This request is already ${request.status}.`);
  if (request.makerId === tenant.userId) throw new RuleError("You cannot decide your own request.");
  return request;
}

/** Rolls the batch back (CHECK ok = 1) unless the condition holds. */

function applyStatements(tenant: Tenant, spec: KindSpec, request: ApprovalRequest, at: string, account: CoreAccount | null): D1PreparedStatement[] {
  const { db } = tenant;
  const after = request.after;
  const statements: D1PreparedStatement[] = [];
  const makesPrimary = request.kind === "settlement_account" && Number(after.is_primary) === 1;
  if (makesPrimary) {
    const merchantId = request.action === "create" ? after.merchant_id : null;
    statements.push(
      db
        .prepare(
          `UPDATE settlement_accounts SET is_primary = 0, updated_at = ?, version = version + 1
           WHERE business_id = ? AND is_primary = 1 AND id <> ?
             AND merchant_id = coalesce(?, (SELECT merchant_id FROM settlement_accounts WHERE id = ? AND business_id = ?))`,
        )
        .bind(at, tenant.businessId, request.targetId, merchantId, request.targetId, tenant.businessId),
    );
  }

  if (request.action === "create") {
    if (spec.underMerchant) {
      statements.push(
        guardStatement(
          db,
          "SELECT 1 FROM merchants WHERE id = ? AND business_id = ? AND status = 'active'",
          "merchant missing or inactive",
          after.merchant_id,
          tenant.businessId,
        ),
      );
    }
    if (request.kind === "employee") {
      // users and user_phones have no business: they are written only for this business's request, still pending, and
      // never from what the business typed for a person who has an account (decision 029). An existing account's copy
      // here is the core's: their own name and the numbers they proved. A new person is as invited, with the invited
      // number as their account's first way to sign in. What was typed for the phone is this business's own contact
      // number for the membership either way.
      const forThisRequest = "FROM approval_requests WHERE id = ? AND business_id = ? AND kind = 'employee' AND status = 'pending'";
      const person = account
        ? { name: account.name, gender: account.gender, status: account.status, createdAt: account.createdAt }
        : { name: after.name, gender: after.gender, status: "active", createdAt: at };
      const phones = account ? account.phones : [{ msisdn: String(after.phone), createdAt: at, linkedBy: "invitation" as const }];
      statements.push(
        db
          .prepare(`INSERT INTO users (id, email, name, gender, status, created_at) SELECT ?, ?, ?, ?, ?, ? ${forThisRequest} ON CONFLICT DO NOTHING`)
          .bind(request.targetId, after.email, person.name, person.gender, person.status, person.createdAt, request.id, tenant.businessId),
        ...phones.map((phone) =>
          db
            .prepare(`INSERT OR IGNORE INTO user_phones (user_id, msisdn, created_at, linked_by) SELECT ?, ?, ?, ? ${forThisRequest}`)
            .bind(request.targetId, phone.msisdn, phone.createdAt, phone.linkedBy, request.id, tenant.businessId),
        ),
        db
          .prepare(
            "INSERT INTO memberships (business_id, user_id, role, status, created_at, updated_at, version, contact_phone) VALUES (?, ?, ?, 'active', ?, ?, 1, ?)",
          )
          .bind(tenant.businessId, request.targetId, after.role, at, at, after.phone),
      );
    } else {
      const columns = spec.createColumns;
      statements.push(
        db
          .prepare(
            `INSERT INTO ${spec.table} (id, business_id, ${columns.join(", ")}, status, created_at, updated_at, version)
             VALUES (?, ?, ${columns.map(() => "?").join(", ")}, 'active', ?, ?, 1)`,
          )
          .bind(request.targetId, tenant.businessId, ...columns.map((c) => after[c] ?? null), at, at),
      );
    }
  } else {
    statements.push(
      guardStatement(
        db,
        `SELECT version = ? FROM ${spec.table} WHERE ${spec.idColumn} = ? AND business_id = ?`,
        "target changed",
        request.targetVersion,
        request.targetId,
        tenant.businessId,
      ),
    );
    const columns = Object.keys(after);
    statements.push(
      db
        .prepare(
          `UPDATE ${spec.table} SET ${columns.map((c) => `${c} = ?`).join(", ")}, updated_at = ?, version = version + 1
           WHERE ${spec.idColumn} = ? AND business_id = ? AND version = ?`,
        )
        .bind(...columns.map((c) => after[c] ?? null), at, request.targetId, tenant.businessId, request.targetVersion),
    );
  }
  return statements;
}

async function markStale(tenant: Tenant, meta: RequestMeta, request: ApprovalRequest): Promise<never> {
  const { db } = tenant;
  const at = nowIso();
  await db.batch([
    db.prepare("UPDATE approval_requests SET status = 'stale' WHERE id = ? AND business_id = ? AND status = 'pending'").bind(request.id, tenant.businessId),
    auditStatement(
      tenant,
      meta,
      { action: "request.stale", entity: "approval_request", entityId: request.id, before: { status: "pending" }, after: { status: "stale" } },
      at,
    ),
  ]);
  throw new StaleRequestError();
}

async function targetVersion(tenant: Tenant, spec: KindSpec, targetId: string): Promise<number | null> {
  const { db } = tenant;
  const row = await db
    .prepare(`SELECT version FROM ${spec.table} WHERE ${spec.idColumn} = ? AND business_id = ?`)
    .bind(targetId, tenant.businessId)
    .first<{ version: number }>();
  return row?.version ?? null;
}

export interface ApproveOptions {
  /**
   * The core database (functions/tenancy/directory.db.ts): an invitation is applied against who has an account now, so that
   * what the inviting business typed never reaches an existing account (decision 029). Needed to approve one.
   */
  core?: Db;
}

/** Approves and applies a request, all or nothing. */
export async function approveRequest(tenant: Tenant, meta: RequestMeta, id: string, options: ApproveOptions = {}): Promise<ApprovalRequest> {
  const { db } = tenant;
  const request = await loadPendingForDecision(tenant, id);
  const spec = SPECS[request.kind];
  if (request.kind === "employee") checkEmployeeRules(tenant, request.targetId, request.after, "checker");
  if (request.action !== "create" && (await targetVersion(tenant, spec, request.targetId)) !== request.targetVersion) {
    return markStale(tenant, meta, request);
  }
  let account: CoreAccount | null = null;
  if (request.kind === "employee" && request.action === "create") {
    if (!options.core) throw new Error("approveRequest: an invitation is approved against the core database (options.core)");
    const accounts = await accountsForInvitation(options.core, String(request.after.email), request.targetId);
    // The email got an account after the invitation was made (or the request's account is not the email's): the
    // request was made for another person than the one it would now reach.
    if (accounts.length > 1 || (accounts[0] && (accounts[0].id !== request.targetId || accounts[0].email !== request.after.email))) {
      return markStale(tenant, meta, request);
    }
    account = accounts[0] ?? null;
  }

  const at = nowIso();
  const statements = [
    guardStatement(
      db,
      "SELECT status = 'pending' FROM approval_requests WHERE id = ? AND business_id = ?",
      "request decided meanwhile",
      request.id,
      tenant.businessId,
    ),
    ...applyStatements(tenant, spec, request, at, account),
    db
      .prepare("UPDATE approval_requests SET status = 'approved', checker_id = ?, decided_at = ? WHERE id = ? AND business_id = ? AND status = 'pending'")
      .bind(tenant.userId, at, request.id, tenant.businessId),
    auditStatement(
      tenant,
      meta,
      { action: `${spec.entity}.${request.action}`, entity: spec.entity, entityId: request.targetId, before: request.before, after: request.after },
      at,
    ),
    auditStatement(
      tenant,
      meta,
      { action: "request.approve", entity: "approval_request", entityId: request.id, before: { status: "pending" }, after: { status: "approved" } },
      at,
    ),
    clearBatchGuardsStatement(db),
  ];
  try {
    await db.batch(statements);
  } catch (error) {
    // Lost a race with another change to the target: say so, as a stale request.
    if (request.action !== "create" && (await targetVersion(tenant, spec, request.targetId)) !== request.targetVersion) {
      return markStale(tenant, meta, request);
    }
    const fresh = await getApprovalRequest(tenant, id);
    if (fresh && fresh.status !== "pending") throw new RuleError(`This request is already ${fresh.status}.`);
    if (error instanceof Error && error.message.includes("merchant missing or inactive")) throw new RuleError("The merchant is no longer active.");
    if (error instanceof Error && error.message.includes("UNIQUE constraint failed")) {
      throw new RuleError(`The change clashes with an existing record (${error.message.replace(/^.*UNIQUE constraint failed: /, "").replace(/:.*$/, "")}).`);
    }
    throw error;
  }
  return (await getApprovalRequest(tenant, id))!;
}

/** Rejects a request with the reason the maker will read. */
export async function rejectRequest(tenant: Tenant, meta: RequestMeta, id: string, reason: string): Promise<ApprovalRequest> {
  const { db } = tenant;
  const trimmed = reason.trim();
  if (!trimmed) throw new RuleError("Give a reason for rejecting the request.");
  if (trimmed.length > 500) throw new RuleError("Keep the reason under 500 characters.");
  const request = await loadPendingForDecision(tenant, id);
  const at = nowIso();
  try {
    await db.batch([
      guardStatement(
        db,
        "SELECT status = 'pending' FROM approval_requests WHERE id = ? AND business_id = ?",
        "request decided meanwhile",
        request.id,
        tenant.businessId,
      ),
      db
        .prepare(
          "UPDATE approval_requests SET status = 'rejected', checker_id = ?, decided_at = ?, reason = ? WHERE id = ? AND business_id = ? AND status = 'pending'",
        )
        .bind(tenant.userId, at, trimmed, request.id, tenant.businessId),
      auditStatement(
        tenant,
        meta,
        {
          action: "request.reject",
          entity: "approval_request",
          entityId: request.id,
          before: { status: "pending" },
          after: { status: "rejected", reason: trimmed },
        },
        at,
      ),
      clearBatchGuardsStatement(db),
    ]);
  } catch (error) {
    // Another checker decided it a moment ago.
    const fresh = await getApprovalRequest(tenant, id);
    if (fresh && fresh.status !== "pending") throw new RuleError(`This request is already ${fresh.status}.`);
    throw error;
  }
  return (await getApprovalRequest(tenant, id))!;
}

// ---------------------------------------------------------------- showing

/** A request as the queue and the request page read it (transfers included: the queue shows them until their screens exist). */
type Subject = Pick<ApprovalRequest, "id" | "action" | "targetId" | "after"> & { kind: string };

function subjectName(kind: string, values: ChangeValues): string | null {
  if (kind === "settlement_account") {
    const name = values.account_name;
    if (name === undefined || name === null) return null;
    const where = [values.provider, values.account_number].filter((part) => part !== undefined && part !== null && part !== "").join(" ");
    return where ? `${String(name)} (${where})` : String(name);
  }
  const name = values.name;
  return name === undefined || name === null ? null : String(name);
}

/** How namesOf names the target of each kind (a settlement account as its holder and number, as a create names it). */
const SUBJECT_NAMES: Record<Exclude<ApprovalKind, "security_policy">, NameKind> = {
  employee: "person",
  merchant: "merchant",
  point_of_sale: "point_of_sale",
  settlement_account: "settlement_account_holder",
};

/**
 * The name of what each request concerns, by request id: a create names itself
 * in its after values; the others read their targets, one query per kind for
 * the whole page. A target that is gone has no name (the page says so).
 */
export async function requestSubjects(tenant: Tenant, requests: readonly Subject[]): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  const wanted = new Map<ApprovalKind, Set<string>>();
  for (const request of requests) {
    // A refund names the payment it gives back (functions/refunds/refund-requests.db.ts).
    if (request.kind === "refund" && typeof request.after.payment_reference === "string") names[request.id] = `Payment ${request.after.payment_reference}`;
    // The policy is the business's own: what it concerns is its one setting.
    if (request.kind === "security_policy") names[request.id] = "Passkeys for every decision";
    if (!(APPROVAL_KINDS as readonly string[]).includes(request.kind) || request.kind === "security_policy") continue;
    if (request.action === "create") {
      const name = subjectName(request.kind, request.after);
      if (name) names[request.id] = name;
    } else {
      const ids = wanted.get(request.kind as ApprovalKind) ?? new Set<string>();
      ids.add(request.targetId);
      wanted.set(request.kind as ApprovalKind, ids);
    }
  }
  const lookups = [...wanted].map(
    async ([kind, ids]) => [kind, await namesOf(tenant, SUBJECT_NAMES[kind as Exclude<ApprovalKind, "security_policy">], ids)] as const,
  );
  const found = new Map(await Promise.all(lookups));
  for (const request of requests) {
    if (request.action === "create") continue;
    const name = found.get(request.kind as ApprovalKind)?.get(request.targetId);
    if (name) names[request.id] = name;
  }
  return names;
}

/** The columns a request of this kind can show, in the order a person reads them. */
export function recordColumns(kind: ApprovalKind): readonly string[] {
  return kind === "employee" ? ["name", "email", "gender", "phone", "role", "status"] : [...SPECS[kind].createColumns, "status"];
}

export interface RequestRecord {
  /** The target as it stands now (null: a create not applied yet, or a target that is gone). */
  current: ChangeValues | null;
  /** The name of the merchant a point of sale or settlement account belongs to. */
  merchantName: string | null;
}

/** The target's current values and its merchant's name, for the request page. */
export async function getRequestRecord(tenant: Tenant, request: ApprovalRequest): Promise<RequestRecord> {
  const { db } = tenant;
  let current: ChangeValues | null;
  if (request.kind === "employee") {
    current = await db
      .prepare(
        `SELECT u.name, u.email, u.gender, coalesce(m.contact_phone, (SELECT min(p.msisdn) FROM user_phones p WHERE p.user_id = u.id)) AS phone, m.role, m.status
         FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.business_id = ? AND m.user_id = ?`,
      )
      .bind(tenant.businessId, request.targetId)
      .first<ChangeValues>();
  } else {
    const spec = SPECS[request.kind];
    current = await db
      .prepare(`SELECT ${recordColumns(request.kind).join(", ")} FROM ${spec.table} WHERE id = ? AND business_id = ?`)
      .bind(request.targetId, tenant.businessId)
      .first<ChangeValues>();
  }
  let merchantName: string | null = null;
  const merchantId = current?.merchant_id ?? request.after.merchant_id;
  if (SPECS[request.kind].underMerchant && merchantId) {
    merchantName =
      (await db.prepare("SELECT name FROM merchants WHERE id = ? AND business_id = ?").bind(merchantId, tenant.businessId).first<string>("name")) ?? null;
  }
  return { current, merchantName };
}

/** How many requests wait for a decision, for a batch (the navigation's count, read before the tenant's role is known). */
export function pendingCountStatement(business: Pick<Tenant, "businessId" | "db">): D1PreparedStatement {
  const { db } = business;
  return db.prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND status = 'pending'").bind(business.businessId);
}

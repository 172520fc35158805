// Maker-checker. A request stores what should change (after), what it changes
// from (before), the target's version, the maker and the time. Only a Super
// Administrator or Administrator may decide, never on their own request.
// Approving applies the change, marks the request and writes the audit log in
// one D1 batch (one transaction): a failing statement leaves nothing behind. A
// request whose target changed since it was made is marked stale, not applied.
import { isTestBusiness } from "../tenancy/test-mode";
import { clearBatchGuardsStatement, guardStatement } from "../platform/batch-guards.db";
import { can, canGrantRole, isRole } from "../permissions";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { approvalRequestView } from "../webhooks/views";
import { auditStatement } from "../audit/audit.db";
import { accountsForInvitation, type CoreAccount } from "../tenancy/directory.db";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type Db, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { applyStatements } from "./apply-change.db";
import { SPECS, StaleRequestError, type ApprovalAction, type ApprovalKind, type ApprovalRequest, type ChangeValues, type KindSpec } from "./change-kinds";
import { getApprovalRequest } from "./change-requests.db";

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

/** Why test mode refuses employee changes. */
export const TEST_MODE_PEOPLE = "Test mode has your live business's people. Invite people and change their roles in live data.";

/** Makes a request; returns its id. Nothing changes until a checker approves it. */
export async function requestChange(tenant: Tenant, meta: RequestMeta, input: ChangeInput): Promise<string> {
  const { db } = tenant;
  const spec = SPECS[input.kind];
  if (!can(tenant.role, spec.request)) throw new ForbiddenError(`Your role cannot request ${spec.noun} changes.`);
  // Test mode's people are the live business's (decision 045): an invitation or a role change there would touch real people.
  if (input.kind === "employee" && isTestBusiness(tenant.businessId)) throw new RuleError(TEST_MODE_PEOPLE);
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
          data: approvalRequestView({ id, kind: input.kind, action: input.action, targetId, makerId: tenant.userId, madeAt: at }),
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

// Making a business's change request: it stores what should change (after), what it changes from (before), the
// target's version, the maker and the time, and changes nothing until another person approves it. Deciding it is the
// decision core's (functions/decisions/decide.ts, decision 047) with the change kinds' spec (change-decision.db.ts);
// approveRequest and rejectRequest below are that decision for callers that hold a request id and no page.
import { isTestBusiness } from "../tenancy/test-mode";
import { can } from "../permissions";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { approvalRequestView } from "../webhooks/views";
import { auditStatement } from "../audit/audit.db";
import { decide } from "../decisions/decide";
import { ForbiddenError, NotFoundError, RuleError, nowIso, type Db, type RequestMeta, type Tenant } from "../tenancy/tenant";
import { SPECS, type ApprovalAction, type ApprovalKind, type ApprovalRequest, type ChangeValues, type KindSpec } from "./change-kinds";
import { CHANGE_DECISION, asRequest } from "./change-decision.db";
import { STEPS } from "./change-steps";

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

function isUniqueViolation(error: unknown, index: string): boolean {
  return error instanceof Error && error.message.includes("UNIQUE constraint failed") && error.message.includes(index);
}

/** Makes a request; returns its id. Nothing changes until a checker approves it. */
export async function requestChange(tenant: Tenant, meta: RequestMeta, input: ChangeInput): Promise<string> {
  const { db } = tenant;
  const spec = SPECS[input.kind];
  const steps = STEPS[input.kind];
  if (!can(tenant.role, spec.request)) throw new ForbiddenError(`Your role cannot request ${spec.noun} changes.`);
  if (spec.testModeRefusal && isTestBusiness(tenant.businessId)) throw new RuleError(spec.testModeRefusal);
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
    const newId = `${spec.idPrefix}_${crypto.randomUUID()}`;
    ({ targetId, after } = (await steps?.prepareCreate?.(tenant, after, newId, input.existingAccountId)) ?? { targetId: newId, after });
    steps?.checkChange?.(tenant, targetId, after);
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
    steps?.checkChange?.(tenant, targetId, after);
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

export interface ApproveOptions {
  /**
   * The core database (functions/tenancy/directory.db.ts): an invitation is applied against who has an account now, so that
   * what the inviting business typed never reaches an existing account (decision 029). Needed to approve one.
   */
  core?: Db;
}

/** Approves and applies a change request through the decision core, all or nothing. */
export async function approveRequest(tenant: Tenant, meta: RequestMeta, id: string, options: ApproveOptions = {}): Promise<ApprovalRequest> {
  return asRequest(await decide(CHANGE_DECISION, { tenant, meta, core: options.core }, id, { intent: "approve" }));
}

/** Rejects a change request with the reason the maker will read. */
export async function rejectRequest(tenant: Tenant, meta: RequestMeta, id: string, reason: string): Promise<ApprovalRequest> {
  return asRequest(await decide(CHANGE_DECISION, { tenant, meta }, id, { intent: "reject", reason }));
}

// The decision of a business's change request (merchant, point of sale, settlement account, security policy, employee):
// the core (functions/decisions/decide.ts) holds the rules, this holds what a change writes. Approving applies the change,
// marks the request and writes the audit log in one D1 batch (one transaction): a failing statement leaves nothing
// behind. A request whose target changed since it was made is marked stale, not applied. What one kind adds (an
// invitation's person, an employee's sessions) is that kind's ChangeSteps (change-steps.ts).
import { clearBatchGuardsStatement, guardStatement } from "../plumbing/batch-guards.db";
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { RuleError, nowIso, type RequestMeta, type Tenant } from "../tenancy/tenant";
import type { BusinessDecisionKind, BusinessRun } from "../decisions/business-run";
import { CHANGE_MESSAGES } from "../decisions/business-run";
import type { Decided } from "../decisions/decide";
import { applyStatements } from "./apply-change.db";
import { SPECS, StaleRequestError, type ApprovalRequest, type KindSpec } from "./change-kinds";
import { getApprovalRequest } from "./change-requests.db";
import { STEPS } from "./change-steps";

/** A change request as the core decides it: what the approval found out before its batch (an invitation's account). */
type ChangeSubject = ApprovalRequest & { prepared?: unknown };

async function targetVersion(tenant: Tenant, spec: KindSpec, targetId: string): Promise<number | null> {
  const { db } = tenant;
  const row = await db
    .prepare(`SELECT version FROM ${spec.table} WHERE ${spec.idColumn} = ? AND business_id = ?`)
    .bind(targetId, tenant.businessId)
    .first<{ version: number }>();
  return row?.version ?? null;
}

/** Marks the request stale (its target moved on) and says so. */
export async function markStale(tenant: Tenant, meta: RequestMeta, request: ApprovalRequest): Promise<never> {
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

async function staleIfTargetMoved(run: BusinessRun, request: ApprovalRequest): Promise<void> {
  if (request.action !== "create" && (await targetVersion(run.tenant, SPECS[request.kind], request.targetId)) !== request.targetVersion) {
    await markStale(run.tenant, run.meta, request);
  }
}

function pendingGuard(tenant: Tenant, request: ApprovalRequest): D1PreparedStatement {
  return guardStatement(
    tenant.db,
    "SELECT status = 'pending' FROM approval_requests WHERE id = ? AND business_id = ?",
    "request decided meanwhile",
    request.id,
    tenant.businessId,
  );
}

function approvalStatements(run: BusinessRun, request: ChangeSubject, decided: Decided): D1PreparedStatement[] {
  const { tenant, meta } = run;
  const { db } = tenant;
  const spec = SPECS[request.kind];
  const at = decided.at;
  return [
    pendingGuard(tenant, request),
    ...applyStatements(tenant, spec, request, at, STEPS[request.kind], request.prepared),
    db
      .prepare("UPDATE approval_requests SET status = 'approved', checker_id = ?, decided_at = ? WHERE id = ? AND business_id = ? AND status = 'pending'")
      .bind(decided.by, at, request.id, tenant.businessId),
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
}

function rejectionStatements(run: BusinessRun, request: ChangeSubject, decided: Decided): D1PreparedStatement[] {
  const { tenant, meta } = run;
  const { db } = tenant;
  return [
    pendingGuard(tenant, request),
    db
      .prepare(
        "UPDATE approval_requests SET status = 'rejected', checker_id = ?, decided_at = ?, reason = ? WHERE id = ? AND business_id = ? AND status = 'pending'",
      )
      .bind(decided.by, decided.at, decided.reason, request.id, tenant.businessId),
    auditStatement(
      tenant,
      meta,
      {
        action: "request.reject",
        entity: "approval_request",
        entityId: request.id,
        before: { status: "pending" },
        after: { status: "rejected", reason: decided.reason },
      },
      decided.at,
    ),
    clearBatchGuardsStatement(db),
  ];
}

export const CHANGE_DECISION: BusinessDecisionKind<ChangeSubject> = {
  kind: "change",
  messages: CHANGE_MESSAGES,
  pending: "pending",
  subjectIdOf: (request) => request.id,
  deciderOf: ({ tenant }) => ({ userId: tenant.userId, mayDecide: can(tenant.role, "decide:approval") }),
  load: ({ tenant }, id) => getApprovalRequest(tenant, id),
  stateOf: (request) => ({ status: request.status, makerId: request.makerId }),
  async beforeApproval(run, request) {
    const steps = STEPS[request.kind];
    steps?.checkApproval?.(run.tenant, request);
    await staleIfTargetMoved(run, request);
    const prepared = await steps?.prepareApproval?.(run, request);
    if (prepared === "stale") return markStale(run.tenant, run.meta, request);
    return { ...request, prepared };
  },
  async commit(run, request, decided) {
    await run.tenant.db.batch(decided.status === "approved" ? approvalStatements(run, request, decided) : rejectionStatements(run, request, decided));
    return true;
  },
  // Lost a race with another change to the target: said as a stale request.
  recheck: (run, request, decided) => (decided.status === "approved" ? staleIfTargetMoved(run, request) : Promise.resolve()),
  explain(_run, _request, decided, error) {
    if (decided.status !== "approved" || !(error instanceof Error)) return null;
    if (error.message.includes("merchant missing or inactive")) return new RuleError("The merchant is no longer active.");
    if (error.message.includes("UNIQUE constraint failed")) {
      return new RuleError(`The change clashes with an existing record (${error.message.replace(/^.*UNIQUE constraint failed: /, "").replace(/:.*$/, "")}).`);
    }
    return null;
  },
  async afterCommit(run, request, decided) {
    if (decided.status === "approved") await STEPS[request.kind]?.afterApproval?.(run, request);
  },
};

/** The request as decided, without what the approval prepared. */
export function asRequest({ prepared: _prepared, ...request }: ChangeSubject): ApprovalRequest {
  return request;
}

// The decision of a request that moves money (a transfer, a refund): the core (functions/decisions/decide.ts) holds the
// rules; this holds what such a decision writes. The row (a transfer, a refund) is made with the request and carries its
// own status, so a decision is guarded by that row still being pending_approval, and an approval by what the money
// allows at that moment, both inside the batch: the row's status, the request's decision, the posting, the audit entry
// and the webhook event are one D1 batch, all or nothing. A MoneySpec says what differs between the kinds.
import { clearBatchGuardsStatement, guardStatement, isConstraintRefusal } from "../plumbing/batch-guards.db";
import { can } from "../permissions";
import { auditStatement } from "../audit/audit.db";
import { webhookEventStatements } from "../webhooks/outbox.db";
import type { WebhookEventType } from "../webhooks/types";
import type { BusinessDecisionKind, BusinessRun } from "../decisions/business-run";
import type { Decided } from "../decisions/decide";
import type { MoneyRequestKind } from "./change-kinds";
import { RuleError, type Tenant } from "../tenancy/tenant";

/** What the core reads of any money request's row. */
export interface MoneyRow {
  id: string;
  /** Pesewas. */
  amount: number;
  status: string;
  requestedBy: string;
}

/** Who decided, and when, as a decision's webhook event says it (with the reason of a rejection). */
export interface MoneyDecided {
  status: string;
  decidedBy: string;
  decidedAt: string;
  reason?: string;
}

export interface MoneySpec<Row extends MoneyRow> {
  /** Also the audit entity and the noun in messages. */
  kind: MoneyRequestKind;
  table: "transfers" | "refunds";
  read(tenant: Tenant, id: string): Promise<Row | null>;
  /** What deciding an id that is not this business's says. */
  missing(): Error;
  alreadyDecided(status: Row["status"]): string;
  approved: {
    status: Row["status"];
    /** Approved rows the sender picks up at once: next_attempt_at is set to the decision's time. */
    dueForSending: boolean;
  };
  /** Guard rows ahead of the status change: what the money must still allow when the batch runs. */
  approvalGuards(tenant: Tenant, row: Row): D1PreparedStatement[];
  /** What an approval moves on the ledger, after the request's decision. */
  approvalPostings(tenant: Tenant, row: Row, at: string): D1PreparedStatement[];
  /** Rows an approval makes beside its posting, with their guards (a transfer's payout); none when absent. */
  approvalRecords?(tenant: Tenant, row: Row, at: string): D1PreparedStatement[];
  /** After an approval's batch rolled back: the rule it broke now, in the words of the field, or null. */
  whyNotApproved(tenant: Tenant, row: Row): Promise<string | null>;
  /** A decision D1 refused for a reason whyNotApproved cannot name (the money moved and moved back meanwhile): nothing was written. */
  notApplied: string;
  /** The webhook event each decision writes, and its data (the row as decided); null: the kind's decisions write none. */
  events: { approved: WebhookEventType; rejected: WebhookEventType; describe(row: Row, decided: MoneyDecided): unknown } | null;
  /** What follows a committed approval outside its batch (a refund sent at once). */
  afterApproval?(run: BusinessRun, row: Row): void | Promise<void>;
}

/** The decision's webhook event, when the kind writes one. */
function decisionEvents<Row extends MoneyRow>(tenant: Tenant, spec: MoneySpec<Row>, row: Row, decided: MoneyDecided): D1PreparedStatement[] {
  if (!spec.events) return [];
  const verb = decided.status === "rejected" ? "rejected" : "approved";
  return webhookEventStatements(tenant, [
    { id: `evt_${row.id}_${verb}`, type: spec.events[verb], at: Date.parse(decided.decidedAt), data: spec.events.describe(row, decided) },
  ]);
}

function approvalStatements<Row extends MoneyRow>(run: BusinessRun, spec: MoneySpec<Row>, row: Row, decided: Decided): D1PreparedStatement[] {
  const { tenant, meta } = run;
  const { db } = tenant;
  const { kind } = spec;
  const at = decided.at;
  const status = spec.approved.status;
  const due = spec.approved.dueForSending ? ", next_attempt_at = ?" : "";
  return [
    ...spec.approvalGuards(tenant, row),
    db
      .prepare(`UPDATE ${spec.table} SET status = ?, approved_by = ?, decided_at = ?${due} WHERE id = ? AND business_id = ? AND status = 'pending_approval'`)
      .bind(status, decided.by, at, ...(due ? [at] : []), row.id, tenant.businessId),
    guardStatement(db, "SELECT changes() = 1", "still pending"),
    db
      .prepare(
        "UPDATE approval_requests SET status = 'approved', checker_id = ?, decided_at = ? WHERE business_id = ? AND kind = ? AND target_id = ? AND status = 'pending'",
      )
      .bind(decided.by, at, tenant.businessId, kind, row.id),
    ...spec.approvalPostings(tenant, row, at),
    ...(spec.approvalRecords?.(tenant, row, at) ?? []),
    auditStatement(
      tenant,
      meta,
      { action: `${kind}.approve`, entity: kind, entityId: row.id, before: { status: "pending_approval" }, after: { status, amount: row.amount } },
      at,
    ),
    ...decisionEvents(tenant, spec, row, { status, decidedBy: decided.by, decidedAt: at }),
    clearBatchGuardsStatement(db),
  ];
}

function rejectionStatements<Row extends MoneyRow>(run: BusinessRun, spec: MoneySpec<Row>, row: Row, decided: Decided): D1PreparedStatement[] {
  const { tenant, meta } = run;
  const { db } = tenant;
  const { kind } = spec;
  const reason = decided.reason ?? "";
  return [
    db
      .prepare(`UPDATE ${spec.table} SET status = 'rejected', approved_by = ?, decided_at = ? WHERE id = ? AND business_id = ? AND status = 'pending_approval'`)
      .bind(decided.by, decided.at, row.id, tenant.businessId),
    guardStatement(db, "SELECT changes() = 1", "still pending"),
    db
      .prepare(
        "UPDATE approval_requests SET status = 'rejected', checker_id = ?, decided_at = ?, reason = ? WHERE business_id = ? AND kind = ? AND target_id = ? AND status = 'pending'",
      )
      .bind(decided.by, decided.at, reason.slice(0, 500), tenant.businessId, kind, row.id),
    auditStatement(
      tenant,
      meta,
      { action: `${kind}.reject`, entity: kind, entityId: row.id, before: { status: "pending_approval" }, after: { status: "rejected", reason } },
      decided.at,
    ),
    ...decisionEvents(tenant, spec, row, { status: "rejected", decidedBy: decided.by, decidedAt: decided.at, reason }),
    clearBatchGuardsStatement(db),
  ];
}

/** A money kind as the core decides it: the request's row is its subject, read by the row's id (the request's target). */
export function moneyDecision<Row extends MoneyRow>(spec: MoneySpec<Row>): BusinessDecisionKind<Row> {
  return {
    kind: spec.kind,
    messages: {
      mayNotDecide: "Your role cannot decide requests.",
      missing: () => spec.missing(),
      alreadyDecided: (status) => spec.alreadyDecided(status),
      own: () => new RuleError("You cannot decide your own request."),
      // The request's copy keeps 500 characters (its column's rule); the audit and the event the whole reason.
      reason: { min: 3, tooShort: `Say why the ${spec.kind} is rejected.`, max: null },
    },
    pending: "pending_approval",
    subjectIdOf: (request) => request.targetId,
    deciderOf: ({ tenant }) => ({ userId: tenant.userId, mayDecide: can(tenant.role, "decide:approval") }),
    load: ({ tenant }, id) => spec.read(tenant, id),
    stateOf: (row) => ({ status: row.status, makerId: row.requestedBy }),
    async commit(run, row, decided) {
      await run.tenant.db.batch(decided.status === "approved" ? approvalStatements(run, spec, row, decided) : rejectionStatements(run, spec, row, decided));
      return true;
    },
    async explain(run, row, decided, error) {
      if (decided.status === "approved") {
        const broken = await spec.whyNotApproved(run.tenant, row);
        if (broken) return new RuleError(broken);
        // Never a 500 for a decision the rules refused: the checker reads why on the request's page, which stays pending.
        return isConstraintRefusal(error) ? new RuleError(spec.notApplied) : null;
      }
      return isConstraintRefusal(error)
        ? new RuleError(`This ${spec.kind} could not be rejected now. Nothing changed, and it still waits for a decision.`)
        : null;
    },
    async afterCommit(run, row, decided) {
      if (decided.status === "approved") await spec.afterApproval?.(run, row);
    },
  };
}

// The statements that apply an approved change request to its target (change-decision.db.ts puts them in the
// approval's batch): a create inserts the row, an update or a deactivation changes the row only at the version the
// request was made against. What a kind does beyond that is its ChangeSteps: an invitation makes its person, phones and
// membership (employee-change.db.ts); a new primary settlement account unmarks the old one (below).
import { guardStatement } from "../plumbing/batch-guards.db";
import type { BusinessRun } from "../decisions/business-run";
import type { Tenant } from "../tenancy/tenant";
import type { ApprovalRequest, ChangeValues, KindSpec } from "./change-kinds";

/** SQL a kind adds to a generic statement, with its binds in order. */
export interface SqlPart {
  sql: string;
  binds: unknown[];
}

/** What one kind of change adds to the generic steps of making, reading and deciding its requests (change-steps.ts holds them by kind). */
export interface ChangeSteps {
  /**
   * A create's target: what the maker's values become (normalised) and the id of the row they make, `newId` unless the
   * kind finds an existing one; throws the refusal.
   */
  prepareCreate?(
    tenant: Tenant,
    after: ChangeValues,
    newId: string,
    existingAccountId: string | null | undefined,
  ): Promise<{ targetId: string; after: ChangeValues }>;
  /** The maker's own rules for this kind (throws the refusal). */
  checkChange?(tenant: Tenant, targetId: string, after: ChangeValues): void;
  /** The target as a request page shows it (its record columns), instead of one row of the kind's table. */
  readCurrent?(tenant: Tenant, targetId: string): Promise<ChangeValues | null>;
  /**
   * The pending requests of this kind (as `r`) that the person may not decide though their role decides requests, for
   * the queue; `role` is their role as SQL, which binds their id once each time it is used.
   */
  waitingExclusion?(person: SqlPart, role: SqlPart): SqlPart;
  /** The checker's own rules for this kind (throws the refusal). */
  checkApproval?(tenant: Tenant, request: ApprovalRequest): void;
  /** What the approval must find out before its batch (passed on as `prepared`), or "stale" when the request no longer fits. */
  prepareApproval?(run: BusinessRun, request: ApprovalRequest): Promise<unknown>;
  /** Statements ahead of the change itself. */
  beforeApply?(tenant: Tenant, request: ApprovalRequest, at: string): D1PreparedStatement[];
  /** A create's statements, instead of one row of the kind's create columns. */
  createStatements?(tenant: Tenant, request: ApprovalRequest, at: string, prepared: unknown): D1PreparedStatement[];
  /** What follows the committed approval outside its batch. */
  afterApproval?(run: BusinessRun, request: ApprovalRequest): Promise<void>;
}

/** A new primary settlement account unmarks the merchant's old one in the same batch. */
export const SETTLEMENT_ACCOUNT_STEPS: ChangeSteps = {
  beforeApply(tenant, request, at) {
    if (Number(request.after.is_primary) !== 1) return [];
    const merchantId = request.action === "create" ? request.after.merchant_id : null;
    return [
      tenant.db
        .prepare(
          `UPDATE settlement_accounts SET is_primary = 0, updated_at = ?, version = version + 1
           WHERE business_id = ? AND is_primary = 1 AND id <> ?
             AND merchant_id = coalesce(?, (SELECT merchant_id FROM settlement_accounts WHERE id = ? AND business_id = ?))`,
        )
        .bind(at, tenant.businessId, request.targetId, merchantId, request.targetId, tenant.businessId),
    ];
  },
};

export function applyStatements(
  tenant: Tenant,
  spec: KindSpec,
  request: ApprovalRequest,
  at: string,
  steps: ChangeSteps | undefined,
  prepared: unknown,
): D1PreparedStatement[] {
  const { db } = tenant;
  const after = request.after;
  const statements: D1PreparedStatement[] = [...(steps?.beforeApply?.(tenant, request, at) ?? [])];

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
    if (steps?.createStatements) {
      statements.push(...steps.createStatements(tenant, request, at, prepared));
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

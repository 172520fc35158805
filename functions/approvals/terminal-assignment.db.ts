// A terminal's assignment to a point of sale as a change request (kind 'terminal', action 'update'; asked in
// terminal-requests.ts): it decides whose
// money the terminal's payments become, so another person approves it, as a point of sale change (decision 011, amended
// 2026-12-02). Asking checks what the device page offers (in stock, at the version seen, to an active point of sale of
// an active merchant); approving, in the core's one batch, re-checks the point of sale, opens the assignment row and
// moves the terminal at the version asked against (the engine's guard: a terminal changed meanwhile makes the request
// stale). Unassigning, blocking and unblocking stay immediate (changeTerminal).
import { guardStatement } from "../plumbing/batch-guards.db";
import { RuleError, type Tenant } from "../tenancy/tenant";
import type { ChangeSteps } from "./apply-change.db";

/** Where an active point of sale of an active merchant of the business is, or null. */
export async function activePlace(tenant: Tenant, pointOfSaleId: string): Promise<{ id: string; merchantId: string } | "inactive" | null> {
  const place = await tenant.db
    .prepare(
      `SELECT p.id, p.merchant_id AS merchantId, p.status = 'active' AND m.status = 'active' AS open FROM points_of_sale p
       JOIN merchants m ON m.id = p.merchant_id AND m.business_id = p.business_id WHERE p.id = ? AND p.business_id = ?`,
    )
    .bind(pointOfSaleId, tenant.businessId)
    .first<{ id: string; merchantId: string; open: number }>();
  if (!place) return null;
  return place.open === 1 ? { id: place.id, merchantId: place.merchantId } : "inactive";
}

export const NOT_ACTIVE = "That point of sale is not active.";

export const TERMINAL_ASSIGNMENT_STEPS: ChangeSteps = {
  checkChange(_tenant, _targetId, after) {
    // The one change a terminal request makes: into service at a point of sale (the rest act at once, without one).
    if (after.status !== "assigned" || typeof after.point_of_sale_id !== "string" || typeof after.merchant_id !== "string") {
      throw new RuleError("A terminal request only assigns a terminal to a point of sale.");
    }
  },
  async prepareApproval({ tenant }, request) {
    // Said in words before the batch; the batch's guard below is the database's last word.
    const place = await activePlace(tenant, String(request.after.point_of_sale_id));
    if (place === null || place === "inactive" || place.merchantId !== request.after.merchant_id) throw new RuleError(`${NOT_ACTIVE} Reject this request.`);
    return null;
  },
  beforeApply(tenant, request, at) {
    const { db } = tenant;
    return [
      guardStatement(
        db,
        `SELECT p.status = 'active' AND m.status = 'active' AND p.merchant_id = ? FROM points_of_sale p JOIN merchants m ON m.id = p.merchant_id
         WHERE p.id = ? AND p.business_id = ? AND m.business_id = ?`,
        "point of sale gone",
        request.after.merchant_id,
        request.after.point_of_sale_id,
        tenant.businessId,
        tenant.businessId,
      ),
      guardStatement(
        db,
        "SELECT status = 'in_stock' FROM terminals WHERE id = ? AND business_id = ?",
        "terminal not in stock",
        request.targetId,
        tenant.businessId,
      ),
      // Who asked put it there; the approval's audit entry names who agreed.
      db
        .prepare("INSERT INTO terminal_assignments (business_id, terminal_id, point_of_sale_id, assigned_by, assigned_at) VALUES (?, ?, ?, ?, ?)")
        .bind(tenant.businessId, request.targetId, request.after.point_of_sale_id, request.makerId, at),
    ];
  },
  async readCurrent(tenant, targetId) {
    return tenant.db
      .prepare("SELECT serial, model, status, merchant_id, point_of_sale_id FROM terminals WHERE id = ? AND business_id = ?")
      .bind(targetId, tenant.businessId)
      .first();
  },
};

/** The id of the terminal's assignment request waiting for a decision, or null (the device page says one waits). */
export async function pendingAssignment(tenant: Tenant, terminalId: string): Promise<string | null> {
  return tenant.db
    .prepare("SELECT id FROM approval_requests WHERE business_id = ? AND kind = 'terminal' AND target_id = ? AND status = 'pending'")
    .bind(tenant.businessId, terminalId)
    .first<string>("id");
}

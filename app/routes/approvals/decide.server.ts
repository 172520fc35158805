// One decision on one request of any kind, and what must follow it: the request page, the money request page and the
// queue's decisions on several requests at once all decide through here, so none of them forgets a step (a role
// change reaching sign-in, sessions ended, an approved refund sent).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { endSessionsInBusiness } from "#server/auth/sign-in";
import { approveRequest, rejectRequest } from "#server/approvals/approvals.db";
import { MONEY_REQUEST_KINDS, type ApprovalRequest, type MoneyRequestKind } from "#server/approvals/change-kinds";
import { approveMoneyRequest, rejectMoneyRequest } from "#server/approvals/money-requests.db";
import type { TenantRequest } from "#server/guards";
import { copyMemberToCore } from "#server/tenancy/directory.db";
import { sendApprovedRefund } from "./money-request.server";

export type Decision = { intent: "approve" } | { intent: "reject"; reason: string };

function isMoneyKind(kind: string): kind is MoneyRequestKind {
  return (MONEY_REQUEST_KINDS as readonly string[]).includes(kind);
}

/** Decides `found` (the engine checks the rules and throws a RuleError, ForbiddenError or NotFoundError when they refuse). */
export async function decideRequest(context: AppLoadContext, signedIn: TenantRequest, found: ApprovalRequest, decision: Decision): Promise<void> {
  const { deps, tenant } = signedIn;
  const kind: string = found.kind;
  if (isMoneyKind(kind)) {
    // A money request's row is its target: the transfer or the refund it would make.
    if (decision.intent === "reject") {
      await rejectMoneyRequest(tenant, deps.meta, kind, found.targetId, decision.reason);
      return;
    }
    await approveMoneyRequest(tenant, deps.meta, kind, found.targetId);
    if (kind === "refund") sendApprovedRefund(context, tenant, found.targetId);
    return;
  }
  if (decision.intent === "reject") {
    await rejectRequest(tenant, deps.meta, found.id, decision.reason);
    return;
  }
  await approveRequest(tenant, deps.meta, found.id, { core: deps.db });
  // Sign-in reads people and their businesses from the core database: the change reaches it now.
  if (found.kind === "employee") await copyMemberToCore(deps.db, tenant, found.targetId);
  // A changed role or a deactivation ends the person's sessions in this business at once (decision 026).
  if (found.kind === "employee" && found.action !== "create") await endSessionsInBusiness(deps, tenant.userId, found.targetId, tenant.businessId, found.action);
}

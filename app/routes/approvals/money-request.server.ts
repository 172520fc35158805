// The server half of the money requests' approval pages (money-request.tsx is the shared half).
import { checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import type { ApprovalRequest } from "#server/approvals/approvals.db";
import type { TenantRequest } from "#server/guards";

/** A decision runs under a fresh check made for this very request. */
export function underDecisionCheck<T>(
  request: Request,
  signedIn: TenantRequest,
  approval: ApprovalRequest,
  form: Record<string, unknown>,
  act: () => Promise<T>,
) {
  return underFreshCheck(request, signedIn, checkBindings.decision(approval.id), form, act);
}

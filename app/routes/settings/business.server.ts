// The Business tab's security policy: whether every decision needs a passkey. Only a Super
// Administrator asks to change it, and the change is an approval request like any other (the seventh kind): another
// administrator approves it, under a fresh check of their own.
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { requestChange } from "#server/approvals/approvals.db";
import { ensureSecurityPolicy, getSecurityPolicy, pendingPolicyRequest } from "#server/auth/fresh-checks.db";
import { nowIso, type Tenant } from "#server/tenancy/tenant";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage, requirePermission, type TenantRequest } from "#server/guards";
import { refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { paths } from "#app/lib/paths";
import { NOT_UNDERSTOOD, POLICY_INTENT } from "./tabs";

export async function loadPolicy(tenant: Tenant) {
  const [policy, pending] = await Promise.all([getSecurityPolicy(tenant), pendingPolicyRequest(tenant)]);
  return {
    decisionsNeedPasskey: policy.decisionsNeedPasskey,
    pendingRequestPath: pending ? paths.approval("security_policy", pending) : null,
    canAsk: can(tenant.role, "request:security_policy"),
  };
}

const PolicyForm = v.object({ intent: v.literal(POLICY_INTENT), decisionsNeedPasskey: v.picklist(["0", "1"]) });

export async function policyAction(request: Request, context: AppLoadContext, { deps, tenant }: TenantRequest, form: Record<string, unknown>) {
  requirePermission(tenant, "request:security_policy");
  const parsed = v.safeParse(PolicyForm, form);
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD });
  const wanted = Number(parsed.output.decisionsNeedPasskey);
  try {
    await ensureSecurityPolicy(tenant, nowIso());
    await requestChange(tenant, deps.meta, {
      kind: "security_policy",
      action: "update",
      targetId: tenant.businessId,
      after: { decisions_need_passkey: wanted },
    });
  } catch (error) {
    return refuse({ form: refusalMessage(request, error) });
  }
  throw await redirectWithFlash(request, context.config.app, paths.settings("business"), {
    kind: "success",
    message: `Sent for approval: once another administrator approves it, every decision ${wanted ? "needs a passkey" : "may be checked by a passkey or a code"}.`,
  });
}

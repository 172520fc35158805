// What the two money requests (a transfer, a refund) share on their approval page (app/routes/approvals/money-request.route.tsx):
// who asked and decided, whether this person may decide, and the approve-or-reject schema. What each moves is its
// kind's section (transfer-request.tsx, refund-request.tsx); the decision is the one request page's.
import * as v from "valibot";
import type { ApprovalRequest } from "#server/approvals/change-kinds";
import type { Tenant } from "#server/tenancy/tenant";
import { can } from "#server/permissions";
import { detailDate } from "#app/lib/format";

/** Approve, or reject with a reason of at least three characters. */
export function decisionSchema(noun: string) {
  return v.variant("intent", [
    v.object({ intent: v.literal("approve") }),
    v.object({
      intent: v.literal("reject"),
      reason: v.pipe(v.string(), v.trim(), v.minLength(3, `Say why the ${noun} is rejected.`), v.maxLength(500)),
    }),
  ]);
}

/** The request as its page shows it, whether the person looking asked for it, and whether their role decides requests. */
export function requestFacts(approval: ApprovalRequest, tenant: Pick<Tenant, "role" | "userId">) {
  return {
    request: {
      id: approval.id,
      status: approval.status,
      maker: approval.makerName,
      madeAt: approval.madeAt,
      checker: approval.checkerName,
      decidedAt: approval.decidedAt,
      reason: approval.reason,
    },
    own: approval.makerId === tenant.userId,
    mayDecide: can(tenant.role, "decide:approval"),
  };
}

/** The request as a section shows it. */
export type ShownRequest = ReturnType<typeof requestFacts>["request"];

/** Who asked and when, who decided and when, and why it was rejected: the last rows of a section's details. */
export function decisionRows(request: ShownRequest, reasonTerm: string): (readonly [string, string])[] {
  return [
    ["Asked by", request.maker],
    ["Asked", detailDate(request.madeAt)],
    ...(request.decidedAt
      ? ([
          ["Decided by", request.checker ?? "Unknown"],
          ["Decided", detailDate(request.decidedAt)],
        ] as const)
      : []),
    ...(request.reason ? ([[reasonTerm, request.reason]] as const) : []),
  ];
}

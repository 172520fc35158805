// What the two money requests (a transfer, a refund) share on their approval page (app/routes/approvals/money-request.route.tsx):
// who asked and decided, whether this person may decide, the approve-or-reject schema, and the Decide card. What each
// moves is its kind's section (transfer-request.tsx, refund-request.tsx).
import * as v from "valibot";
import { checkOf, FreshCheck } from "#app/components/forms/fresh-check";
import type { ApprovalRequest } from "#server/approvals/change-kinds";
import type { Tenant } from "#server/tenancy/tenant";
import { can } from "#server/permissions";
import { DecisionForms } from "#app/components/decision-forms";
import { formatDate } from "#app/lib/format";

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

/** The request as its page shows it, and whether the person looking may decide it (never the one who asked). */
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
    canDecide: approval.status === "pending" && can(tenant.role, "decide:approval") && approval.makerId !== tenant.userId,
    ownRequest: approval.makerId === tenant.userId,
  };
}

/** The request as a section shows it. */
export type ShownRequest = ReturnType<typeof requestFacts>["request"];

/** Who asked and when, who decided and when, and why it was rejected: the last rows of a section's details. */
export function decisionRows(request: ShownRequest, reasonTerm: string): (readonly [string, string])[] {
  return [
    ["Asked by", request.maker],
    ["Asked", formatDate(request.madeAt, "stamp")],
    ...(request.decidedAt
      ? ([
          ["Decided by", request.checker ?? "Unknown"],
          ["Decided", formatDate(request.decidedAt, "stamp")],
        ] as const)
      : []),
    ...(request.reason ? ([[reasonTerm, request.reason]] as const) : []),
  ];
}

/** Approve, or reject with a reason; for anyone else a pending request says who may decide it. */
export function DecideCard({
  canDecide,
  pending,
  ownRequest,
  noun,
  maker,
  approveLabel,
  answer,
  busy,
}: {
  canDecide: boolean;
  pending: boolean;
  ownRequest: boolean;
  noun: string;
  /** Who asked: they read the reason of a rejection. */
  maker: string;
  approveLabel: string;
  /** The action's answer: a refusal by the reason, or a fresh check to make. */
  answer: unknown;
  busy: boolean;
}) {
  const reasonError =
    typeof answer === "object" && answer !== null && "errors" in answer ? (answer as { errors: Record<string, string> }).errors.reason : undefined;
  if (!canDecide) {
    return pending ? (
      <p className="notice notice--info notice__message">
        {ownRequest ? `You asked for this ${noun}: another person must decide it.` : "Only an administrator can decide this request."}
      </p>
    ) : null;
  }
  return (
    <section className="card" aria-labelledby="decide-heading">
      <h2 id="decide-heading">Decide</h2>
      <FreshCheck check={checkOf(answer)} />
      <DecisionForms approveLabel={approveLabel} makerName={maker} reasonError={reasonError} reasonDefault="" busy={busy} />
    </section>
  );
}

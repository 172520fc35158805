// The one list of a business's kinds of request and the decision of one from its queue row (decision 047). A page, the
// queue's bulk decision and the Partner API's callers decide through here, so none forgets a step: each kind's spec
// carries what follows its approval (a role change reaching sign-in, sessions ended, an approved refund sent).
import { checkBindings, underFreshCheck } from "../auth/fresh-check";
import type { TenantRequest } from "../guards";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { CHANGE_DECISION } from "../approvals/change-decision.db";
import { TRANSFER_DECISION } from "../approvals/transfer-requests.db";
import type { RequestKind } from "../approvals/change-kinds";
import { REFUND_DECISION } from "../refunds/refund-decision.db";
import type { BusinessDecisionKind, BusinessRun } from "./business-run";
import { decide, refusalBeforeDeciding, type Decision } from "./decide";
import { getApprovalRequest, getApprovalRequests, requestSubjects, requestsWaitingFor } from "../approvals/change-requests.db";
import { NotFoundError } from "../tenancy/tenant";

export type { BusinessRun } from "./business-run";

/** Every kind in a business's queue and the spec that decides it: a new kind is its spec file and one line here. */
export const BUSINESS_DECISIONS = {
  merchant: CHANGE_DECISION,
  point_of_sale: CHANGE_DECISION,
  settlement_account: CHANGE_DECISION,
  security_policy: CHANGE_DECISION,
  employee: CHANGE_DECISION,
  terminal: CHANGE_DECISION,
  transfer: TRANSFER_DECISION,
  refund: REFUND_DECISION,
} satisfies Record<RequestKind, BusinessDecisionKind<unknown>>;

/** A request as its queue row names it. */
export interface QueuedRequest {
  id: string;
  kind: RequestKind;
  targetId: string;
}

/** The checker of a page's request, with everything the steps after the commit need. */
export function pageRun(context: AppLoadContext, { deps, tenant }: Pick<TenantRequest, "deps" | "tenant">): BusinessRun {
  return { tenant, meta: deps.meta, core: deps.db, deps, context };
}

/** Decides `found` (the core checks the rules and throws a RuleError, ForbiddenError or NotFoundError when they refuse). */
export async function decideBusinessRequest(run: BusinessRun, found: QueuedRequest, decision: Decision): Promise<void> {
  const kind: BusinessDecisionKind<unknown> = BUSINESS_DECISIONS[found.kind];
  await decide(kind, run, kind.subjectIdOf(found), decision);
}

/** A decision runs under a fresh check made for this very request. */
export function underDecisionCheck<T>(request: Request, signedIn: TenantRequest, found: { id: string }, form: Record<string, unknown>, act: () => Promise<T>) {
  return underFreshCheck(request, signedIn, checkBindings.decision(found.id), form, act);
}

/** Why the checker may not decide request `id` of their business (the core's words), or null: asked before any check. */
export async function whyNotDecide(run: BusinessRun, id: string): Promise<string | null> {
  const found = await getApprovalRequest(run.tenant, id);
  if (!found) return null;
  const kind: BusinessDecisionKind<unknown> = BUSINESS_DECISIONS[found.kind];
  const refusal = await refusalBeforeDeciding(kind, run, kind.subjectIdOf(found));
  // A request not found is the action's own 404 to say, as for any other binding: the check decides nothing by itself.
  return refusal === null || refusal instanceof NotFoundError ? null : refusal.message;
}

/** One request a bulk decision's check covers, as its dialog names it: its title, and why it will not be decided. */
export interface CoveredRequest {
  id: string;
  title: string;
  refusal: string | null;
}

/** What the dialog says of a request no longer in the business's queue (the bulk decision says the same). */
export const GONE = "This request is no longer here.";

/**
 * The requests a bulk decision's check covers, in the order chosen, named for the person before any factor is asked,
 * each with the core's reason if it will be refused (their own, already decided): one read for all, and the core's
 * own rules only for those that do not wait for this person.
 */
export async function coveredRequests(run: BusinessRun, ids: readonly string[]): Promise<CoveredRequest[]> {
  const { tenant } = run;
  const [found, waiting] = await Promise.all([getApprovalRequests(tenant, ids), requestsWaitingFor(tenant, tenant.userId, ids)]);
  const titles = await requestSubjects(tenant, found);
  const byId = new Map(found.map((request) => [request.id, request]));
  return Promise.all(
    ids.map(async (id): Promise<CoveredRequest> => {
      const request = byId.get(id);
      if (!request) return { id, title: "A request", refusal: GONE };
      const title = titles[id] ?? "A request";
      return { id, title, refusal: waiting.has(id) ? null : await whyNotDecide(run, id) };
    }),
  );
}

// /approvals/transfer/{requestId} and /approvals/refund/{requestId}: a request that moves money (app/routes.ts maps
// both URLs here). What it moves is its kind's section (a transfer: from, to, the amount and the available balance
// now; a refund: the payment, what is already refunded or waits, the merchant's available balance now), then who
// asked and when; approve, or reject with a reason. The maker cannot decide; a decided request is read-only. The
// rules are the decision core's (functions/decisions/decide.ts) with the kind's spec; the page is the one request page
// (app/components/request-page.tsx) around the kind's section.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getApprovalRequest } from "#server/approvals/change-requests.db";
import type { MoneyRequestKind } from "#server/approvals/change-kinds";
import { requirePermission, requireTenant } from "#server/guards";
import { pageNotFound, refuse, routeNotFound } from "#server/plumbing/http";
import { formatAmount } from "#app/lib/format";
import { APP_NAME } from "#app/lib/shell/page";
import { RequestPage } from "#app/components/request-page";
import { decisionSchema, requestFacts } from "./money-request";
import { moneyTargetOf, refundFacts, transferFacts } from "./money-request.server";
import { decideBusinessRequest, pageRun, underDecisionCheck } from "#server/decisions/business";
import { decideOnPage } from "#server/decisions/request-page";
import { RefundSection } from "./refund-request";
import { TransferSection } from "./transfer-request";

/** What the page says for each kind, around the kind's own section. */
const PAGES = {
  transfer: {
    title: "Transfer Request",
    approveLabel: "Approve and move the money",
    decision: decisionSchema("transfer"),
    approved: (amount: number) => `Transfer of GHS ${formatAmount(amount)} approved; the money has moved.`,
    rejected: "Transfer rejected; no money moved.",
  },
  refund: {
    title: "Refund Request",
    approveLabel: "Approve and refund",
    decision: decisionSchema("refund"),
    approved: (amount: number) => `Refund of GHS ${formatAmount(amount)} approved: it left the merchant's available balance and is on its way to the payer.`,
    rejected: "Refund rejected; no money moved.",
  },
} satisfies Record<MoneyRequestKind, unknown>;

/**
 * The kind is the path's segment after /approvals/, in any case (routes match so). Told by PAGES, which has every
 * kind, rather than by the engine's own check: `meta` runs in the browser too, and the engine stays on the server.
 */
function kindIn(pathname: string): MoneyRequestKind | null {
  const kind = pathname.split("/")[2]?.toLowerCase();
  return kind !== undefined && Object.hasOwn(PAGES, kind) ? (kind as MoneyRequestKind) : null;
}

function kindOf(request: Request): MoneyRequestKind {
  const kind = kindIn(new URL(request.url).pathname);
  if (!kind) routeNotFound(request);
  return kind;
}

export const meta: MetaFunction = ({ location }) => {
  const kind = kindIn(location.pathname);
  return [{ title: kind ? PAGES[kind].title : APP_NAME }];
};

/** The request the URL names, of the kind the URL says, and its row, in this business; anything else is the 404 page. */
async function moneyRequest(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const { deps, tenant, session } = await requireTenant(request, context, "view:approval");
  const kind = kindOf(request);
  const approval = id ? await getApprovalRequest(tenant, id) : null;
  if (!approval || (approval.kind as string) !== kind) pageNotFound(request);
  const target = await moneyTargetOf(tenant, kind, approval.targetId);
  if (!target) pageNotFound(request);
  return { deps, tenant, session, approval, target };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, approval, target } = await moneyRequest(request, context, params.id);
  const facts = requestFacts(approval, tenant);
  return target.kind === "transfer"
    ? { kind: target.kind, ...facts, ...(await transferFacts(tenant, approval, target.row)) }
    : { kind: target.kind, ...facts, ...(await refundFacts(tenant, target.row)) };
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { deps, tenant, session, approval, target } = await moneyRequest(request, context, params.id);
  requirePermission(tenant, "decide:approval");
  const page = PAGES[target.kind];
  const signedIn = { deps, tenant, session };
  return decideOnPage(request, context, {
    schema: page.decision,
    invalid: (_form, issues) => refuse({ reason: issues[0]!.message }),
    underCheck: (form, act) => underDecisionCheck(request, signedIn, approval, form, act),
    decide: (decision) => decideBusinessRequest(pageRun(context, signedIn), approval, decision),
    refused: (_form, message) => refuse({ form: message }),
    done: (decision) => ({ to: "/approvals", message: decision.intent === "approve" ? page.approved(target.row.amount) : page.rejected }),
  });
}

export default function MoneyRequest() {
  const shown = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const page = PAGES[shown.kind];
  const kind =
    shown.kind === "transfer"
      ? { lead: `GHS ${formatAmount(shown.transfer.amount)} from ${shown.transfer.from} to ${shown.transfer.to}`, section: <TransferSection {...shown} /> }
      : {
          lead: (
            <>
              A refund of GHS {formatAmount(shown.refund.amount)} on payment <span className="nowrap">{shown.payment.reference}</span>
            </>
          ),
          section: <RefundSection {...shown} />,
        };
  return (
    <RequestPage
      crumb={{ to: "/approvals", label: "Approvals" }}
      title={page.title}
      lead={kind.lead}
      status={shown.request.status}
      answer={answer}
      own={shown.own}
      mayDecide={shown.mayDecide}
      makerName={shown.request.maker}
      words={{
        heading: "Decide",
        ownNotice: `You asked for this ${shown.kind}: another person must decide it.`,
        whoDecides: "Only an administrator can decide this request.",
        approveLabel: page.approveLabel,
      }}
      // The kind's section says who decided, when and why.
      decided={null}
    >
      {kind.section}
    </RequestPage>
  );
}

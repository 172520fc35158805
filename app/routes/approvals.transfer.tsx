// /approvals/transfer/{requestId}: a transfer request (the fifth kind): from,
// to, amount, the available balance now, who asked and when; approve, or
// reject with a reason. The maker cannot decide; a decided request is read-only.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { getApprovalRequest } from "#server/approvals/approvals.db";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { approveTransfer, rejectTransfer } from "#server/approvals/transfer-requests.db";
import { getTransfer } from "#server/ledger/transfers.db";
import { redirectWithFlash } from "#server/platform/flash";
import { refusalMessage, requirePermission, requireTenant } from "#server/guards";
import { pageNotFound, refuse } from "#server/platform/http";
import { formatAmount, formatDate } from "../lib/format";
import { Details } from "../components/details";
import { StatusPill } from "../components/status-pill";
import { DecideCard, decisionSchema, requestFacts } from "./approvals/money-request";
import { underDecisionCheck } from "./approvals/money-request.server";

async function transferRequest(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const { deps, tenant, session } = await requireTenant(request, context, "view:approval");
  const approval = id ? await getApprovalRequest(tenant, id) : null;
  if (!approval || (approval.kind as string) !== "transfer") pageNotFound(request);
  const transfer = await getTransfer(tenant, approval.targetId);
  if (!transfer) pageNotFound(request);
  return { deps, tenant, session, approval, transfer };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, approval, transfer } = await transferRequest(request, context, params.id);
  const balances = await getMerchantBalances(tenant, transfer.fromMerchantId);
  const after = approval.after as Record<string, string | number | null>;
  return {
    ...requestFacts(approval, tenant),
    transfer: {
      from: String(after.from_merchant ?? ""),
      to: String(after.to ?? ""),
      toKind: after.to_kind === "settlement_account" ? "Settlement account" : "Merchant account",
      amount: transfer.amount,
      fromMerchantId: transfer.fromMerchantId,
    },
    available: balances.available,
  };
}

const Decision = decisionSchema("transfer");

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/submission.ts).
export { clientAction, shouldRevalidate } from "../components/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { deps, tenant, session, approval, transfer } = await transferRequest(request, context, params.id);
  requirePermission(tenant, "decide:approval");
  const form = Object.fromEntries(await request.formData());
  const parsed = v.safeParse(Decision, form);
  if (!parsed.success) return refuse({ reason: parsed.issues[0].message });
  const refused = await underDecisionCheck(request, { deps, tenant, session }, approval, form, async () => {
    try {
      if (parsed.output.intent === "approve") await approveTransfer(tenant, deps.meta, transfer.id);
      else await rejectTransfer(tenant, deps.meta, transfer.id, parsed.output.reason);
      return null;
    } catch (error) {
      return refuse({ form: refusalMessage(request, error) });
    }
  });
  if (refused) return refused;
  throw await redirectWithFlash(request, context.config.app, "/approvals", {
    kind: "success",
    message:
      parsed.output.intent === "approve"
        ? `Transfer of GHS ${formatAmount(transfer.amount)} approved; the money has moved.`
        : "Transfer rejected; no money moved.",
  });
}

export default function TransferRequest() {
  const { request, transfer, available, canDecide, ownRequest } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="page">
      <header className="page__header">
        <p className="breadcrumb">
          <Link to="/approvals">Approvals</Link>
        </p>
        <h1>Transfer Request</h1>
        <p className="page__lead">
          <StatusPill entity="approval" status={request.status} />
        </p>
      </header>
      {answer && "errors" in answer && answer.errors.form ? (
        <p className="notice notice--danger notice__message" role="alert">
          {answer.errors.form}
        </p>
      ) : null}
      <section className="card" aria-labelledby="transfer-heading">
        <h2 id="transfer-heading">The transfer</h2>
        <Details
          rows={
            [
              ["From (merchant account)", transfer.from],
              [`To (${transfer.toKind.toLowerCase()})`, transfer.to],
              ["Amount (GHS)", formatAmount(transfer.amount)],
              ["Available now (GHS)", formatAmount(available)],
              ["Asked by", request.maker],
              ["Asked", formatDate(request.madeAt, "stamp")],
              ...(request.decidedAt
                ? ([
                    ["Decided by", request.checker ?? "Unknown"],
                    ["Decided", formatDate(request.decidedAt, "stamp")],
                  ] as const)
                : []),
              ...(request.reason ? ([["Reason", request.reason]] as const) : []),
            ] as const
          }
        />
        {request.status === "pending" && transfer.amount > available ? (
          <p className="notice notice--warning notice__message">The amount is now above the available balance: approving it will be refused.</p>
        ) : null}
      </section>
      <DecideCard
        canDecide={canDecide}
        pending={request.status === "pending"}
        ownRequest={ownRequest}
        noun="transfer"
        approveLabel="Approve and move the money"
        answer={answer}
        busy={busy}
      />
    </div>
  );
}

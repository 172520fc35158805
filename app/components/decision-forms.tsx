// A checker's decision on one request, for a business's request pages (changes, transfers, refunds) and the
// platform's (decision 039): Approve, or Reject with a reason, each posting its `intent` to the page's own action; and,
// once decided, who decided, when and why.
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatDate } from "../lib/format";
import type { StatusOf } from "../lib/statuses";
import { describedBy, Field } from "#app/components/forms/form";
import { StatusPill } from "./status-pill";

export function DecisionForms({
  approveNote,
  approveLabel = "Approve",
  makerName,
  reasonError,
  reasonDefault,
  busy,
}: {
  /** What approving does, said before the button. */
  approveNote?: string;
  approveLabel?: string;
  makerName: string;
  reasonError: string | undefined;
  reasonDefault: string;
  busy: boolean;
}) {
  return (
    <div className="decision">
      <Form method="post" className="decision__approve">
        {approveNote ? <p>{approveNote}</p> : null}
        <input type="hidden" name="intent" value="approve" />
        <button type="submit" className="button button--primary" disabled={busy}>
          {approveLabel}
        </button>
      </Form>
      <Form method="post" className="decision__reject" noValidate>
        <input type="hidden" name="intent" value="reject" />
        <Field id="reason" label="Reason for rejecting" hint={`${makerName} reads this; nothing changes.`} error={reasonError}>
          <textarea id="reason" name="reason" rows={3} maxLength={500} required defaultValue={reasonDefault} {...describedBy("reason", reasonError, true)} />
        </Field>
        <button type="submit" className="button button--danger" disabled={busy}>
          Reject
        </button>
      </Form>
    </div>
  );
}

/** A decided request: the decision, who made it and when, and the reason of a rejection. */
export function DecisionRecord({
  status,
  checkerName,
  decidedAt,
  reason,
}: {
  status: StatusOf<"approval">;
  checkerName: string | null;
  decidedAt: string | null;
  reason: string | null;
}) {
  return (
    <dl className="details" data-testid="decision">
      <div className="details__row">
        <dt>Decision</dt>
        <dd>
          <StatusPill entity="approval" status={status} />
        </dd>
      </div>
      <div className="details__row">
        <dt>Decided by</dt>
        <dd>{checkerName ?? "N/A"}</dd>
      </div>
      <div className="details__row">
        <dt>Decided at</dt>
        <dd>{formatDate(decidedAt, "stamp")}</dd>
      </div>
      {status === "rejected" ? (
        <div className="details__row details__row--wide">
          <dt>Reason</dt>
          <dd>{reason}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * The Decision card's body on a request page: the decision once made; while pending, who may decide it (never its
 * maker) and, for a checker, the forms.
 */
export function DecisionSection({
  pending,
  own,
  mayDecide,
  ownNotice,
  whoDecides,
  formError,
  record,
  forms,
}: {
  pending: boolean;
  own: boolean;
  mayDecide: boolean;
  /** Said to the maker of a pending request. */
  ownNotice: string;
  /** Said to someone whose role decides nothing. */
  whoDecides: string;
  formError: string | undefined;
  /** The decided request, or what the page shows instead (a stale request's notice). */
  record: ReactNode;
  forms: Parameters<typeof DecisionForms>[0];
}) {
  return (
    <>
      {record}
      {pending && own ? (
        <p className="notice notice--info notice__message" data-testid="own-request">
          {ownNotice}
        </p>
      ) : null}
      {pending && !own && !mayDecide ? <p className="notice notice--info notice__message">{whoDecides}</p> : null}
      {formError ? (
        <p className="notice notice--danger notice__message" role="alert">
          {formError}
        </p>
      ) : null}
      {pending && !own && mayDecide ? <DecisionForms {...forms} /> : null}
    </>
  );
}

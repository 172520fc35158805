// One request page for every request a checker decides: a business's changes, transfers and refunds, and the platform's
// own (decision 047). The page's crumb back to its queue, its title, lead and status; what the kind's request is (its
// own sections); and the decision: Approve, or Reject with a reason, each posting its `intent` to the page's one action
// (functions/decisions/request-page.ts) under its fresh check; once decided, who decided, when and why. Each kind gives
// only its words and its sections.
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { detailDate } from "../lib/format";
import type { StatusOf } from "../lib/statuses";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { checkOf, FreshCheck } from "#app/components/forms/fresh-check";
import { StatusPill } from "./status-pill";
import { shownText } from "./details";

/** What a request page's kind says around the decision (its words differ; the rules are one). */
export interface DecisionWords {
  /** The decision card's heading. */
  heading: string;
  /** Said to the maker of a pending request. */
  ownNotice: string;
  /** Said to someone whose role decides nothing. */
  whoDecides: string;
  approveLabel?: string;
  /** What approving does, said before the button. */
  approveNote?: string;
}

/** Who decided a request, when, and why it was rejected. */
export interface DecidedFacts {
  checkerName: string | null;
  decidedAt: string | null;
  reason: string | null;
}

/** The refusal in the page's action data, if any: said by the form, or by the reason (with the reason typed, when kept). */
function refusalIn(answer: unknown) {
  if (typeof answer !== "object" || answer === null || !("errors" in answer)) return { form: undefined, reason: undefined, typed: "" };
  const { errors, values } = answer as { errors: Partial<Record<string, string>>; values?: { reason?: unknown } | null };
  return { form: errors.form, reason: errors.reason, typed: typeof values?.reason === "string" ? values.reason : "" };
}

function DecisionForms({
  words,
  makerName,
  reasonError,
  reasonDefault,
}: {
  words: DecisionWords;
  makerName: string;
  reasonError: string | undefined;
  reasonDefault: string;
}) {
  const busy = useSending();
  return (
    <div className="decision">
      <Form method="post" className="decision__approve">
        {words.approveNote ? <p>{words.approveNote}</p> : null}
        <input type="hidden" name="intent" value="approve" />
        <button type="submit" className="button button--primary" disabled={busy}>
          {words.approveLabel ?? "Approve"}
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
function DecisionRecord({ status, decided }: { status: StatusOf<"approval">; decided: DecidedFacts }) {
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
        <dd>{decided.checkerName ?? "N/A"}</dd>
      </div>
      <div className="details__row">
        <dt>Decided at</dt>
        <dd>{detailDate(decided.decidedAt)}</dd>
      </div>
      {status === "rejected" ? (
        <div className="details__row details__row--wide">
          <dt>Reason</dt>
          <dd>{decided.reason}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * A request's page: its header, the kind's sections (`children`), and the decision card: the decision once made;
 * while pending, who may decide it (never its maker) and, for a checker, the forms. The action's refusal is said in
 * the card, and the reason typed is kept.
 */
export function RequestPage({
  crumb,
  title,
  lead,
  status,
  answer,
  own,
  mayDecide,
  makerName,
  words,
  decided,
  staleNotice,
  children,
}: {
  /** The way back to the page's queue. */
  crumb: { to: string; label: string };
  title: string;
  lead?: ReactNode;
  status: StatusOf<"approval">;
  /** The page's action data. */
  answer: unknown;
  /** The person looking made the request. */
  own: boolean;
  /** Their role decides requests of this kind. */
  mayDecide: boolean;
  /** Who asked: they read the reason of a rejection. */
  makerName: string;
  words: DecisionWords;
  /** Who decided, when and why, said in the card; null when the kind's own section says it. */
  decided: DecidedFacts | null;
  /** What a stale request says instead of a decision, for a kind whose requests can go stale. */
  staleNotice?: string;
  children: ReactNode;
}) {
  const refusal = refusalIn(answer);
  const pending = status === "pending";
  const record =
    pending || decided === null ? null : status === "stale" && staleNotice ? (
      <p className="notice notice--warning notice__message" data-testid="stale-notice">
        {staleNotice}
      </p>
    ) : (
      <DecisionRecord status={status} decided={decided} />
    );
  return (
    <div className="page">
      <header className="page__header page__header--actions">
        <div>
          <p className="page__crumb">
            <Link to={crumb.to}>{crumb.label}</Link>
          </p>
          <h1>{title}</h1>
          {lead ? <p className="page__lead">{shownText(lead)}</p> : null}
        </div>
        <span data-testid="request-status">
          <StatusPill entity="approval" status={status} />
        </span>
      </header>

      {children}

      <FreshCheck check={checkOf(answer)} />
      {pending || record || refusal.form ? (
        <section className="card" aria-labelledby="decision-title">
          <h2 id="decision-title">{words.heading}</h2>
          {record}
          {pending && own ? (
            <p className="notice notice--info notice__message" data-testid="own-request">
              {words.ownNotice}
            </p>
          ) : null}
          {pending && !own && !mayDecide ? <p className="notice notice--info notice__message">{words.whoDecides}</p> : null}
          {refusal.form ? (
            <p className="notice notice--danger notice__message" role="alert">
              {refusal.form}
            </p>
          ) : null}
          {pending && !own && mayDecide ? (
            <DecisionForms words={words} makerName={makerName} reasonError={refusal.reason} reasonDefault={refusal.typed} />
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

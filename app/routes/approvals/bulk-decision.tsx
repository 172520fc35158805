// The queue's decision on the requests a checker ticks: Approve chosen, or Reject chosen with one reason. The boxes
// sit in the table's rows and belong to this form by its id, so it works before the script loads. What the rules
// refused is listed by name with its reason; the fresh check asked for the batch opens here.
import { Form } from "@remix-run/react";
import { checkOf, FreshCheck } from "#app/components/forms/fresh-check";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { formatCount } from "#app/lib/format";
import type { BulkOutcome } from "./bulk-decision.server";

export const BULK_FORM_ID = "bulk-decision";

/** The box that puts one request in the batch (in the row's first cell). */
export function ChooseRequest({ id, subject }: { id: string; subject: string }) {
  return <input type="checkbox" name="ids" value={id} form={BULK_FORM_ID} className="choose-box" aria-label={`Choose ${subject}`} />;
}

type Answer =
  { intent: "bulk"; outcome: BulkOutcome } | { intent?: string; errors: Record<string, string | undefined>; values: { reason: string } } | undefined;

function said(outcome: BulkOutcome): string {
  const done = outcome.intent === "approve-selected" ? "Approved" : "Rejected";
  return outcome.decided > 0
    ? `${done} ${formatCount(outcome.decided)} ${outcome.decided === 1 ? "request" : "requests"}; ${formatCount(outcome.refused.length)} could not be decided:`
    : "None of the chosen requests could be decided:";
}

/** `most`: how many requests one check covers (the form says so before anyone chooses more). */
export function BulkDecision({ answer, most }: { answer: unknown; most: number }) {
  const busy = useSending();
  const shown = answer as Answer;
  const errors = shown && "errors" in shown && shown.intent === "bulk" ? shown.errors : null;
  const outcome = shown && "outcome" in shown ? shown.outcome : null;
  return (
    <section className="card bulk-decision" aria-labelledby="bulk-title">
      <h2 id="bulk-title">Decide the requests you choose</h2>
      <FreshCheck check={checkOf(answer)} />
      {outcome && outcome.refused.length > 0 ? (
        <div className="notice notice--warning" role="alert" tabIndex={-1}>
          <p className="notice__message">{said(outcome)}</p>
          <ul>
            {outcome.refused.map((refused) => (
              <li key={refused.id}>{`${refused.subject}: ${refused.message}`}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {errors?.ids ? (
        <p className="field-error" role="alert">
          {errors.ids}
        </p>
      ) : null}
      <Form method="post" id={BULK_FORM_ID} className="bulk-decision__form" noValidate>
        <p className="field-hint">
          {`Tick up to ${most} requests in the list, then approve them or reject them with one reason. One check covers them, naming each; each is decided and recorded on its own.`}
        </p>
        <Field id="bulk-reason" label="Reason for rejecting" error={errors?.reason}>
          <input
            id="bulk-reason"
            name="reason"
            maxLength={500}
            defaultValue={shown && "values" in shown ? shown.values.reason : ""}
            {...describedBy("bulk-reason", errors?.reason)}
          />
        </Field>
        <div className="bulk-decision__buttons">
          <button type="submit" name="intent" value="approve-selected" className="button button--primary" disabled={busy}>
            Approve chosen
          </button>
          <button type="submit" name="intent" value="reject-selected" className="button button--danger" disabled={busy}>
            Reject chosen
          </button>
        </div>
      </Form>
    </section>
  );
}

// Approve, or Reject with a reason: the two forms of a checker's decision on one request, for a business's request
// page and the platform's (decision 039). Each posts its `intent` to the page's own action.
import { Form } from "@remix-run/react";
import { describedBy, Field } from "./form";

export function DecisionForms({
  approveNote,
  makerName,
  reasonError,
  reasonDefault,
  busy,
}: {
  /** What approving does, said before the button. */
  approveNote: string;
  makerName: string;
  reasonError: string | undefined;
  reasonDefault: string;
  busy: boolean;
}) {
  return (
    <div className="decision">
      <Form method="post" className="decision__approve">
        <p>{approveNote}</p>
        <input type="hidden" name="intent" value="approve" />
        <button type="submit" className="button button--primary" disabled={busy}>
          Approve
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

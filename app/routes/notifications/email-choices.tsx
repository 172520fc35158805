// The Profile tab's "Emails" card: a box a kind of notice, ticked when it also comes by email.
import { Form } from "@remix-run/react";
import { useSending } from "#app/components/forms/form";

export const EMAIL_CHOICES_INTENT = "email-choices";

/** The field of a kind's box: `email:request.waiting`. */
export const choiceField = (kind: string) => `email:${kind}`;

export interface EmailChoice {
  kind: string;
  /** What the kind is called (functions/notifications/kinds.ts KIND_NAMES). */
  name: string;
  on: boolean;
}

export function EmailChoices({ choices, email }: { choices: readonly EmailChoice[]; email: string }) {
  const busy = useSending(EMAIL_CHOICES_INTENT);
  return (
    <section className="card" aria-labelledby="notifications">
      <h2 id="notifications">Emails</h2>
      <p>
        Every notification shows under the bell. Tick those that should also reach you by email, at <span className="code">{email}</span>. Emails never carry a
        code, a key or a full phone, account or card number.
      </p>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value={EMAIL_CHOICES_INTENT} />
        <fieldset className="email-choices">
          <legend className="visually-hidden">Email me when</legend>
          {choices.map((choice) => (
            <label key={choice.kind}>
              <input type="checkbox" name={choiceField(choice.kind)} defaultChecked={choice.on} />
              <span>{choice.name}</span>
            </label>
          ))}
        </fieldset>
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={busy}>
            Save email choices
          </button>
        </div>
      </Form>
    </section>
  );
}

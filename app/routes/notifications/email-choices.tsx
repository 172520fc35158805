// The Profile tab's "Notifications" card: a row a kind of notice, a box a channel (email, SMS) where the kind can come
// by it. Security notices are always sent: their boxes are shown ticked and cannot be changed.
import { Form } from "@remix-run/react";
import { useSending } from "#app/components/forms/form";

export const EMAIL_CHOICES_INTENT = "notification-choices";

export const CHOICE_CHANNELS = [
  { channel: "email", label: "Email" },
  { channel: "sms", label: "SMS" },
] as const;
export type ChoiceChannel = (typeof CHOICE_CHANNELS)[number]["channel"];

/** The field of a kind's box on a channel: `email:request.waiting`. */
export const choiceField = (channel: ChoiceChannel, kind: string) => `${channel}:${kind}`;

export interface EmailChoice {
  kind: string;
  /** What the kind is called (functions/notifications/kinds.ts KIND_NAMES). */
  name: string;
  /** Per channel: absent when the kind never comes that way; `fixed` when it is always sent. */
  channels: Partial<Record<ChoiceChannel, { on: boolean; fixed: boolean }>>;
}

export function EmailChoices({ choices, email }: { choices: readonly EmailChoice[]; email: string }) {
  const busy = useSending(EMAIL_CHOICES_INTENT);
  return (
    <section className="card" aria-labelledby="notifications">
      <h2 id="notifications">Notifications</h2>
      <p>
        Every notification shows under the bell. Tick those that should also reach you by email, at <span className="code">{email}</span>, or by SMS, at the
        number your business has for you (never between 21:00 and 07:00, but for security notices). Messages never carry a code, a key or a full phone, account
        or card number.
      </p>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value={EMAIL_CHOICES_INTENT} />
        <table className="notification-choices">
          <caption className="visually-hidden">Send me a notification when</caption>
          <thead>
            <tr>
              <th scope="col">Notification</th>
              {CHOICE_CHANNELS.map(({ channel, label }) => (
                <th scope="col" key={channel}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {choices.map((choice) => (
              <tr key={choice.kind}>
                <th scope="row">{choice.name}</th>
                {CHOICE_CHANNELS.map(({ channel, label }) => {
                  const box = choice.channels[channel];
                  return (
                    <td key={channel}>
                      {box ? (
                        <input
                          type="checkbox"
                          name={choiceField(channel, choice.kind)}
                          aria-label={`${label}: ${choice.name}${box.fixed ? " (always sent)" : ""}`}
                          defaultChecked={box.on}
                          disabled={box.fixed}
                        />
                      ) : (
                        <>
                          <span aria-hidden="true">–</span>
                          <span className="visually-hidden">No {label}</span>
                        </>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <p className="field-hint">Security notices (their boxes greyed) are always sent, to keep your account yours.</p>
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={busy}>
            Save notification choices
          </button>
        </div>
      </Form>
    </section>
  );
}

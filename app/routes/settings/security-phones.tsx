// The Security tab's phone numbers: the ones the person signs in with, and adding one by a code sent to it
// (security-phones.server.ts; decision 029). No business can add a number to a person's account: only this can.
import { Form } from "@remix-run/react";
import { Field, describedBy, useSending } from "#app/components/forms/form";
import { PHONE_MAX_LENGTH } from "#app/lib/forms/phone";
import type { loadPhones, PhoneAnswer } from "./security-phones.server";
import { SECURITY_URL } from "./tabs";

function phoneFormOf(answer: unknown): PhoneAnswer["phoneForm"] | null {
  return typeof answer === "object" && answer !== null && "phoneForm" in answer ? (answer as PhoneAnswer).phoneForm : null;
}

export function PhonesSection({ phones, answer }: { phones: Awaited<ReturnType<typeof loadPhones>>; answer: unknown }) {
  const busy = useSending();
  const linking = useSending("confirm-phone");
  const sendingCode = useSending("add-phone");
  const state = phoneFormOf(answer);
  const errors = state?.errors ?? {};
  return (
    <>
      <h3 id="phones-title">Phone numbers</h3>
      <p>Sign-in codes go to these numbers. Only you can add one: we send a code to the new number and you type it here.</p>
      {phones.length === 0 ? (
        <p className="empty-state">No phone number is linked to your account yet.</p>
      ) : (
        <ul className="session-list" aria-labelledby="phones-title">
          {phones.map((phone) => (
            <li key={phone.masked} className="session" data-testid="linked-phone">
              <strong>
                {phone.masked}
                {phone.current ? <span className="badge">Used for this session</span> : null}
              </strong>
            </li>
          ))}
        </ul>
      )}
      {state?.sentTo ? (
        <Form method="post" action={SECURITY_URL} key={`confirm-${state.sentTo.msisdn}`}>
          <input type="hidden" name="intent" value="confirm-phone" />
          <input type="hidden" name="phone" value={state.sentTo.msisdn} />
          <p role="status">We sent a 6-digit code to {state.sentTo.masked}. It expires in 5 minutes.</p>
          <Field id="phone-code" label="Code from the text message" error={errors.code}>
            <input
              id="phone-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              required
              {...describedBy("phone-code", errors.code)}
            />
          </Field>
          <button type="submit" className="button button--primary" disabled={busy}>
            {linking ? "Linking…" : "Link this number"}
          </button>
        </Form>
      ) : (
        <Form method="post" action={SECURITY_URL}>
          <input type="hidden" name="intent" value="add-phone" />
          <Field id="add-phone" label="Add a phone number" hint="A Ghana mobile number, like 0244123456. We send a code to it." error={errors.phone}>
            <input
              id="add-phone"
              name="phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              maxLength={PHONE_MAX_LENGTH}
              required
              defaultValue={state?.typed}
              {...describedBy("add-phone", errors.phone, true)}
            />
          </Field>
          <button type="submit" className="button" disabled={busy}>
            {sendingCode ? "Sending…" : "Send code"}
          </button>
        </Form>
      )}
    </>
  );
}

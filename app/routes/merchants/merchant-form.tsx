// The merchant page's forms, shown only once the URL or a refusal opens one: Edit merchant and Deactivate merchant (the
// update-merchant and deactivate-merchant intents), and a settlement account's Add, Edit and Deactivate (the *-account
// intents), all loaded on demand (./form-code, decision 043).
import { Form } from "@remix-run/react";
import { SendButtons } from "#app/components/forms/form";
import type { Merchant } from "#server/merchants/merchants.db";
import type { SettlementAccount } from "#server/settlement/settlement-accounts.db";
import { MerchantFields, SettlementAccountFields } from "./merchant-fields";
import { accountValues, SENT_FOR_APPROVAL, type FieldErrors } from "./merchant-form-values";
import { merchantValues } from "#server/merchants/merchant-columns";
import { FormNotice, type OpenForm } from "./ui";
import { networkLabel, replaceBrandWords } from "#app/lib/format";

export function MerchantFormCard({
  merchant,
  intent,
  errors,
  values,
  busy,
  here,
}: {
  merchant: Merchant;
  intent: "update-merchant" | "deactivate-merchant";
  errors: FieldErrors;
  /** What was typed into a refused form. */
  values: Record<string, string> | null;
  busy: boolean;
  here: string;
}) {
  return (
    <section className="card" aria-labelledby="merchant-form-title">
      <h2 id="merchant-form-title">{intent === "update-merchant" ? "Edit merchant" : "Deactivate merchant"}</h2>
      <FormNotice errors={errors} />
      {intent === "update-merchant" ? (
        <Form method="post" action={here} className="form" noValidate key={JSON.stringify(values ?? {})}>
          <input type="hidden" name="intent" value="update-merchant" />
          <p className="field-hint">Only the fields you change go into the request. {SENT_FOR_APPROVAL}</p>
          <MerchantFields values={values ?? merchantValues(merchant)} errors={errors} prefix="edit" withCode={false} />
          <SendButtons busy={busy} cancelTo={here} />
        </Form>
      ) : (
        <Form method="post" action={here} className="form form--secondary">
          <input type="hidden" name="intent" value="deactivate-merchant" />
          <p>
            Deactivate {replaceBrandWords(merchant.name)}? Once approved it stops accepting payments and cannot be changed again. {SENT_FOR_APPROVAL}
          </p>
          <SendButtons busy={busy} label="Yes, request deactivation" danger cancelTo={here} />
        </Form>
      )}
    </section>
  );
}

export function SettlementAccountForm({
  open,
  edited,
  errors,
  values,
  busy,
  here,
}: {
  open: OpenForm;
  /** The account an Edit or Deactivate form is for (editableAccount); none when adding one. */
  edited: SettlementAccount | undefined;
  errors: FieldErrors;
  values: Record<string, string> | null;
  busy: boolean;
  here: string;
}) {
  return (
    <div className="subcard">
      <h3 id="account-form-title">
        {open.intent === "add-account"
          ? "Add a settlement account"
          : open.intent === "update-account"
            ? "Edit settlement account"
            : "Deactivate settlement account"}
      </h3>
      <FormNotice errors={errors} />
      {open.intent === "deactivate-account" && edited ? (
        <Form method="post" action={here} className="form form--secondary">
          <input type="hidden" name="intent" value="deactivate-account" />
          <input type="hidden" name="accountId" value={edited.id} />
          <p>
            Deactivate the {networkLabel(edited.provider)} account {edited.accountNumber}? Once approved, no money is paid out to it. {SENT_FOR_APPROVAL}
          </p>
          <SendButtons busy={busy} label="Yes, request deactivation" danger cancelTo={here} />
        </Form>
      ) : (
        <Form method="post" action={here} className="form" noValidate key={JSON.stringify(values ?? open)}>
          <input type="hidden" name="intent" value={open.intent} />
          {edited ? <input type="hidden" name="accountId" value={edited.id} /> : null}
          <p className="field-hint">
            {edited ? "Only the fields you change go into the request. " : ""}
            {SENT_FOR_APPROVAL} A new primary account replaces the current one when approved.
          </p>
          <SettlementAccountFields values={values ?? (edited ? accountValues(edited) : {})} errors={errors} prefix="account" />
          <SendButtons busy={busy} cancelTo={here} />
        </Form>
      )}
    </div>
  );
}

// The merchant page's Edit merchant and Deactivate merchant forms (the
// update-merchant and deactivate-merchant intents).
import { Form } from "@remix-run/react";
import { SendButtons } from "#app/components/forms/form";
import type { Merchant } from "#server/merchants/merchants.db";
import { MerchantFields } from "./merchant-fields";
import { SENT_FOR_APPROVAL, type FieldErrors } from "./merchant-form-values";
import { merchantValues } from "#server/merchants/merchant-columns";
import { FormNotice } from "./ui";
import { replaceBrandWords } from "#app/lib/format";

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

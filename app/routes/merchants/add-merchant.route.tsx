// /merchants/add-merchant: a new merchant is a request (maker-checker); it
// exists only once another person approves it. Code and TIN must be new to the
// business, counting pending requests, so a duplicate is refused here, by field.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { SendButtons, useSending } from "#app/components/forms/form";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requestChange } from "#server/approvals/approvals.db";
import { merchantClashes, nextMerchantCode } from "#server/merchants/merchants.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage, requireTenant } from "#server/guards";
import { refuse } from "#server/plumbing/http";
import { MerchantFields } from "./merchant-fields";
import { formFields, MerchantCreateForm, SENT_FOR_APPROVAL, typedValues, type FieldErrors } from "./merchant-forms";
import { MERCHANT_COLUMNS } from "#server/merchants/merchant-columns";
import { FormNotice } from "./ui";
import { formErrors, readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Add Merchant" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "request:merchant");
  // Prefilled and still editable; the action checks whatever is sent, this proposal included.
  return { proposedCode: await nextMerchantCode(tenant) };
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "request:merchant");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  const values = typedValues(form);
  const parsed = v.safeParse(MerchantCreateForm, formFields(form, MERCHANT_COLUMNS));
  // A taken code or TIN is said along with any other mistake, not one round later.
  const typedKey = (key: "code" | "tin") => (typeof form[key] === "string" ? form[key].trim().toUpperCase() : "");
  const clash = await merchantClashes(
    tenant,
    parsed.success ? { code: parsed.output.code, tin: parsed.output.tin } : { code: typedKey("code"), tin: typedKey("tin") },
  );
  const errors: FieldErrors = parsed.success ? {} : formErrors(parsed.issues);
  if (clash.code) errors.code ??= "Another merchant already has this code, or a pending request would give it one.";
  if (clash.tin) errors.tin ??= "Another merchant already has this TIN, or a pending request would give it one.";
  if (!parsed.success || Object.keys(errors).length > 0) return refuse(errors, values);
  const after = parsed.output;
  try {
    await requestChange(tenant, deps.meta, { kind: "merchant", action: "create", after });
  } catch (error) {
    return refuse({ form: refusalMessage(request, error) }, values);
  }
  throw await redirectWithFlash(request, context.config.app, "/merchants", { kind: "success", message: `${after.name}: ${SENT_FOR_APPROVAL}` });
}

export default function AddMerchant() {
  const { proposedCode } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useSending();
  const errors = result?.errors ?? {};
  return (
    <div className="page">
      <header className="page__header">
        <h1>Add merchant</h1>
        <p className="page__lead">
          The merchant is sent for approval: another person must approve it before it takes effect. Its points of sale and settlement accounts are added on its
          page once it exists.
        </p>
      </header>
      <section className="card" aria-labelledby="merchant-form-title">
        <h2 id="merchant-form-title">Merchant details</h2>
        <FormNotice errors={errors} />
        <Form method="post" className="form" noValidate key={JSON.stringify(result?.values ?? {})}>
          <MerchantFields values={result?.values ?? { code: proposedCode }} errors={errors} prefix="merchant" withCode />
          <SendButtons busy={busy} cancelTo="/merchants" />
        </Form>
      </section>
    </div>
  );
}

// /merchants/:merchantId/add-point-of-sale: asks for a new point of sale of a
// merchant. Nothing is created until another person approves the request.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requestChange } from "#server/approvals/approvals.db";
import { getMerchant } from "#server/merchants/merchants.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { refusalMessage, requireTenant } from "#server/guards";
import { PointOfSaleFieldset } from "./point-of-sale-fields";
import { pointOfSaleColumns, readPointOfSaleForm } from "./point-of-sale-form.server";
import { paths } from "#app/lib/paths";
import { useSending } from "#app/components/forms/form";
import { readForm } from "#server/forms";
import { replaceBrandWords } from "#app/lib/format";

// SPEC's table leaves this page out; it is named as Add Merchant is.
export const meta: MetaFunction = () => [{ title: "Add Point of Sale" }];

export const SENT_FOR_APPROVAL = "Point of sale sent for approval: another person must approve it before it takes effect.";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "request:point_of_sale");
  const merchant = await getMerchant(tenant, params.merchantId ?? "");
  if (!merchant) pageNotFound(request);
  return { merchant: { id: merchant.id, name: merchant.name, town: merchant.town, region: merchant.region, active: merchant.status === "active" } };
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "request:point_of_sale");
  const merchant = await getMerchant(tenant, params.merchantId ?? "");
  if (!merchant) pageNotFound(request);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = readPointOfSaleForm(read.fields);
  if (!form.ok) return refuse(form.errors, form.typed);
  if (merchant.status !== "active") return refuse({ form: "This merchant is inactive: it cannot get a new point of sale." }, form.typed);
  try {
    await requestChange(tenant, deps.meta, {
      kind: "point_of_sale",
      action: "create",
      after: { merchant_id: merchant.id, ...pointOfSaleColumns(form.output) },
    });
  } catch (error) {
    return refuse({ form: refusalMessage(request, error) }, form.typed);
  }
  throw await redirectWithFlash(request, context.config.app, paths.merchant(merchant.id), { kind: "success", message: SENT_FOR_APPROVAL });
}

export default function AddPointOfSale() {
  const { merchant } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useSending();
  return (
    <div className="page page--narrow">
      <header className="page__header">
        <p className="page__eyebrow">
          <Link to={paths.merchant(merchant.id)}>{replaceBrandWords(merchant.name)}</Link>
        </p>
        <h1>Add point of sale</h1>
        <p className="page__lead">A new place where {replaceBrandWords(merchant.name)} takes payments.</p>
      </header>
      <section className="card" aria-labelledby="pos-form-title">
        <h2 id="pos-form-title">Point of sale details</h2>
        {merchant.active ? (
          <Form method="post" className="form" noValidate>
            <p className="notice notice--info notice__message">Sent for approval: another person must approve it before it takes effect.</p>
            {result?.errors.form ? (
              <p className="notice notice--danger notice__message" role="alert">
                {result.errors.form}
              </p>
            ) : null}
            <PointOfSaleFieldset prefix="add" values={result?.values ?? { town: merchant.town, region: merchant.region }} errors={result?.errors} />
            <div className="button-row">
              <button type="submit" className="button button--primary" disabled={busy}>
                Send for approval
              </button>
              <Link to={paths.merchant(merchant.id)} className="button button--ghost">
                Cancel
              </Link>
            </div>
          </Form>
        ) : (
          <p>This merchant is inactive: it cannot get a new point of sale.</p>
        )}
      </section>
    </div>
  );
}

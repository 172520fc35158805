// /merchants/:merchantId/add-point-of-sale: asks for a new point of sale of a
// merchant. Nothing is created until another person approves the request.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { authDeps } from "../../functions/auth/deps";
import { requireBusiness } from "../../functions/auth/guards";
import { requireSameOrigin } from "../../functions/auth/origin";
import { requestChange } from "../../functions/data/approvals";
import { getMerchant } from "../../functions/data/merchants";
import { ForbiddenError, NotFoundError, RuleError } from "../../functions/data/tenant";
import { redirectWithFlash } from "../../functions/flash";
import { requirePermission } from "../../functions/guards";
import { pageNotFound } from "../../functions/http";
import { PointOfSaleFieldset } from "../components/point-of-sale-fields";
import { pointOfSaleColumns, readPointOfSaleForm } from "../lib/point-of-sale-form";

export const SENT_FOR_APPROVAL = "Point of sale sent for approval: another person must approve it before it takes effect.";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  const { tenant } = await requireBusiness(request, deps);
  requirePermission(tenant, "request:point_of_sale");
  const merchant = await getMerchant(tenant, deps.db, params.merchantId ?? "");
  if (!merchant) pageNotFound(request);
  return { merchant: { id: merchant.id, name: merchant.name, town: merchant.town, region: merchant.region, active: merchant.status === "active" } };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const { tenant } = await requireBusiness(request, deps);
  requirePermission(tenant, "request:point_of_sale");
  const merchant = await getMerchant(tenant, deps.db, params.merchantId ?? "");
  if (!merchant) pageNotFound(request);
  const form = readPointOfSaleForm(Object.fromEntries(await request.formData()));
  if (!form.ok) return data({ errors: form.errors, formError: null, values: form.typed }, { status: 400 });
  if (merchant.status !== "active") return data({ errors: {}, formError: "This merchant is inactive: it cannot get a new point of sale.", values: form.typed }, { status: 400 });
  try {
    await requestChange(tenant, deps.db, deps.meta, { kind: "point_of_sale", action: "create", after: { merchant_id: merchant.id, ...pointOfSaleColumns(form.output) } });
  } catch (error) {
    if (error instanceof NotFoundError) pageNotFound(request);
    if (error instanceof ForbiddenError) throw data({ message: error.message }, { status: 403 });
    if (error instanceof RuleError) return data({ errors: {}, formError: error.message, values: form.typed }, { status: 400 });
    throw error;
  }
  throw await redirectWithFlash(request, context.config, `/merchants/${merchant.id}`, { kind: "success", message: SENT_FOR_APPROVAL });
}

export default function AddPointOfSale() {
  const { merchant } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <div className="page page--narrow">
      <header className="page__header">
        <p className="page__eyebrow">
          <Link to={`/merchants/${merchant.id}`}>{merchant.name}</Link>
        </p>
        <h1>Add point of sale</h1>
        <p className="page__lead">A new place where {merchant.name} takes payments.</p>
      </header>
      <section className="card" aria-labelledby="pos-form-title">
        <h2 id="pos-form-title">Point of sale details</h2>
        {merchant.active ? (
          <Form method="post" className="form" noValidate>
            <p className="notice notice--info notice__message">Sent for approval: another person must approve it before it takes effect.</p>
            {result?.formError ? (
              <p className="notice notice--danger notice__message" role="alert">
                {result.formError}
              </p>
            ) : null}
            <PointOfSaleFieldset prefix="add" values={result?.values ?? { town: merchant.town, region: merchant.region }} errors={result?.errors} />
            <div className="button-row">
              <button type="submit" className="button button--primary" disabled={busy}>
                Send for approval
              </button>
              <Link to={`/merchants/${merchant.id}`} className="button button--ghost">
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

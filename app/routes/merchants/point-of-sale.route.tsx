// /merchants/:merchantId/point-of-sale/:branchId: one point of sale (branch) of
// a merchant: its details, its terminals and its recent payments. Edits and
// deactivation are requests another person approves (maker-checker).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { requestChange } from "#server/approvals/approvals.db";
import { getMerchant } from "#server/merchants/merchants.db";
import { getPointOfSale, pendingPointOfSaleRequest } from "#server/merchants/points-of-sale.db";
import { listTerminals } from "#server/merchants/terminals.db";
import type { Tenant } from "#server/tenancy/tenant";
import { listTransactions } from "#server/payments/transactions.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { refusalMessage, requireTenant } from "#server/guards";
import { DataTable } from "#app/components/lists/data-table";
import { PointOfSaleFieldset } from "./point-of-sale-fields";
import { RecentTransactions } from "#app/components/recent-transactions";
import { detailDate, proseDate, replaceBrandWords } from "#app/lib/format";
import { pointOfSaleColumns, readPointOfSaleForm } from "./point-of-sale-form.server";
import { terminalColumns } from "#app/components/columns/terminals";
import { paths } from "#app/lib/paths";
import { shownTransaction } from "#app/lib/transactions.server";
import { Details, shownText } from "#app/components/details";
import { useSending } from "#app/components/forms/form";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Point of Sale" }];

/** The point of sale, only under its own merchant and only of this business. */
async function loadPointOfSale(request: Request, tenant: Tenant, merchantId: string, branchId: string) {
  const pointOfSale = await getPointOfSale(tenant, branchId);
  if (!pointOfSale || pointOfSale.merchantId !== merchantId) pageNotFound(request);
  return pointOfSale;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:point_of_sale");
  const pointOfSale = await loadPointOfSale(request, tenant, params.merchantId ?? "", params.branchId ?? "");
  const [merchant, terminals, transactions, pending] = await Promise.all([
    getMerchant(tenant, pointOfSale.merchantId),
    listTerminals(tenant, {
      pointOfSaleId: pointOfSale.id,
      limit: 100,
    }),
    listTransactions(tenant, {
      pointOfSaleId: pointOfSale.id,
      limit: 10,
    }),
    pendingPointOfSaleRequest(tenant, pointOfSale.id),
  ]);
  if (!merchant) pageNotFound(request);
  return {
    pointOfSale,
    merchant: { id: merchant.id, name: merchant.name },
    terminals: terminals.rows,
    moreTerminals: terminals.next !== null,
    transactions: transactions.rows.map(shownTransaction),
    pending,
    canRequest: can(tenant.role, "request:point_of_sale"),
  };
}

const Intent = v.object({ intent: v.picklist(["update", "deactivate"]) });

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "request:point_of_sale");
  const pointOfSale = await loadPointOfSale(request, tenant, params.merchantId ?? "", params.branchId ?? "");
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const values = read.fields;
  const intent = v.safeParse(Intent, values);
  if (!intent.success) return refuse({ form: "That request was not understood. Reload the page and try again." }, null, "");
  let message: string;
  let typed: Record<string, string> | null = null;
  try {
    if (intent.output.intent === "update") {
      const form = readPointOfSaleForm(values);
      typed = form.typed;
      if (!form.ok) return refuse(form.errors, form.typed, "update");
      await requestChange(tenant, deps.meta, {
        kind: "point_of_sale",
        action: "update",
        targetId: pointOfSale.id,
        after: pointOfSaleColumns(form.output),
      });
      message = "Changes sent for approval: another person must approve them before they take effect.";
    } else {
      await requestChange(tenant, deps.meta, { kind: "point_of_sale", action: "deactivate", targetId: pointOfSale.id });
      message = "Deactivation sent for approval: another person must approve it before it takes effect.";
    }
  } catch (error) {
    // A rule refusal (nothing would change, a request already waits) keeps what was typed.
    return refuse({ form: refusalMessage(request, error) }, typed, intent.output.intent);
  }
  throw await redirectWithFlash(request, context.config.app, new URL(request.url).pathname, { kind: "success", message });
}

export default function PointOfSalePage() {
  const { pointOfSale: pos, merchant, terminals, moreTerminals, transactions, pending, canRequest } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useSending();
  const active = pos.status === "active";
  const editing = result?.intent === "update";
  return (
    <div className="page">
      <header className="page__header">
        <p className="page__eyebrow">
          <Link to={paths.merchant(merchant.id)}>{shownText(merchant.name)}</Link>
        </p>
        <h1>{shownText(pos.name)}</h1>
        <p className="page__lead">
          Point of sale in {shownText(pos.town)}, {pos.region} ·{" "}
          <span className={active ? "status status--good" : "status"}>{active ? "Active" : "Inactive"}</span>
        </p>
      </header>

      {pending ? (
        <p className="notice notice--warning notice__message" role="status">
          A request to {pending.action === "deactivate" ? "deactivate" : pending.action === "update" ? "change" : "create"} this point of sale, made by{" "}
          {pending.makerName} on {proseDate(pending.madeAt)}, is waiting for approval.
        </p>
      ) : null}
      {result?.errors.form && result.intent !== "update" ? (
        <p className="notice notice--danger notice__message" role="alert">
          {result.errors.form}
        </p>
      ) : null}

      <section className="card" aria-labelledby="branch-title">
        <h2 id="branch-title">Branch</h2>
        <Details
          rows={[
            ["Name", pos.name],
            [
              "Merchant",
              <Link key="m" to={paths.merchant(merchant.id)}>
                {merchant.name}
              </Link>,
            ],
            ["Town", pos.town],
            ["Region", pos.region],
            ["Address", pos.address],
            ["Contact phone", pos.contactPhone],
            ["Status", active ? "Active" : "Inactive"],
            ["Added", detailDate(pos.createdAt)],
          ]}
        />
        {canRequest && active && !pending ? (
          <details className="pos-edit" open={editing}>
            <summary className="button">Edit details</summary>
            <Form method="post" className="form" noValidate>
              <input type="hidden" name="intent" value="update" />
              <p className="field-hint">Sent for approval: another person must approve it before it takes effect.</p>
              {editing && result?.errors.form ? (
                <p className="notice notice--danger notice__message" role="alert">
                  {result.errors.form}
                </p>
              ) : null}
              <PointOfSaleFieldset
                prefix="edit"
                values={
                  editing && result?.values
                    ? result.values
                    : {
                        name: pos.name,
                        town: pos.town,
                        region: pos.region,
                        address: pos.address,
                        contactPhone: pos.contactPhone,
                      }
                }
                errors={editing ? result?.errors : undefined}
              />
              <div className="button-row">
                <button type="submit" className="button button--primary" disabled={busy}>
                  Send changes for approval
                </button>
              </div>
            </Form>
          </details>
        ) : null}
      </section>

      <section className="card" aria-labelledby="terminals-title">
        <h2 id="terminals-title">Terminals</h2>
        <DataTable
          caption="Terminals at this point of sale"
          rows={terminals}
          rowKey={(t) => t.id}
          columns={terminalColumns(["serial", "status", "seen", "software"])}
          empty={<p>No terminal stands here. Assign one from its page under POS Terminals.</p>}
        />
        {moreTerminals ? (
          <p>
            <Link to={paths.terminals({ merchant: merchant.id })}>All terminals of {replaceBrandWords(merchant.name)}</Link>
          </p>
        ) : null}
      </section>

      <section className="card" aria-labelledby="activity-title">
        <h2 id="activity-title">Recent activity</h2>
        <RecentTransactions rows={transactions} caption="Recent transactions at this point of sale" empty="No payments have been taken here yet." />
      </section>

      {canRequest && active && !pending ? (
        <section className="card" aria-labelledby="deactivate-title">
          <h2 id="deactivate-title">Deactivate</h2>
          <p>A deactivated point of sale takes no new payments. Sent for approval: another person must approve it before it takes effect.</p>
          <Form method="post">
            <input type="hidden" name="intent" value="deactivate" />
            <button type="submit" className="button button--danger" disabled={busy}>
              Request deactivation
            </button>
          </Form>
        </section>
      ) : null}
    </div>
  );
}

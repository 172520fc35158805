// /merchants/:merchantId (Manage Merchant): one merchant in stacked cards
// (overview, points of sale, terminals, settlement accounts, recent
// transactions, change history). Every change here is a request for another
// person to approve. The forms open from the URL (?edit=merchant,
// ?deactivate=merchant, ?account=new|<id>, ?deactivate-account=<id>) so they
// work before the script loads and survive a refused submission. The intents
// are handled in merchant/merchant-intents.server.ts (the merchant) and
// merchant/account-intents.server.ts (its settlement accounts).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useLocation, type ClientLoaderFunctionArgs } from "@remix-run/react";
import * as v from "valibot";
import type { ChangeValues } from "#server/approvals/change-kinds";
import { listAudit } from "#server/audit/audit.db";
import { getMerchant, pendingRequestsOfMerchant, type Merchant } from "#server/merchants/merchants.db";
import { listPointsOfSale } from "#server/merchants/points-of-sale.db";
import { listSettlementAccounts } from "#server/settlement/settlement-accounts.db";
import type { Tenant } from "#server/tenancy/tenant";
import { listTerminals } from "#server/merchants/terminals.db";
import { listTransactions } from "#server/payments/transactions.db";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { refusalMessage, requirePermission, requireTenant } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { terminalColumns } from "#app/components/columns/terminals";
import { DataTable } from "#app/components/lists/data-table";
import { OnThisPage } from "./on-this-page";
import { Details, shownText } from "#app/components/details";
import { RecentTransactions } from "#app/components/recent-transactions";
import { StatusPill } from "#app/components/status-pill";
import { detailDate, formatAmount, formatPathLike } from "#app/lib/format";
import { typedValues } from "./merchant-form-values";
import { paths } from "#app/lib/paths";
import { statusLabel } from "#app/lib/statuses";
import { shownTransaction } from "#app/lib/transactions.server";
import { ACCOUNT_INTENTS, accountIntent, type AccountIntent } from "./account-intents.server";
import { ChangeHistory, shownHistory } from "./history";
import { formCode, MerchantFormCard } from "./form-code";
import { MERCHANT_INTENTS, merchantIntent } from "./merchant-intents.server";
import { editableAccount, SettlementAccounts } from "./settlement-accounts";
import { openForm } from "./ui";
import { useSending } from "#app/components/forms/form";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Manage Merchant" }];

const LIST_LIMIT = 50;
const RECENT_TRANSACTIONS = 10;
const HISTORY_LIMIT = 20;
const TERMINALS = terminalColumns(["serial", "pos", "status", "seen"]);

async function loadMerchant(request: Request, tenant: Tenant, merchantId: string | undefined): Promise<Merchant> {
  const merchant = merchantId ? await getMerchant(tenant, merchantId) : null;
  return merchant ?? pageNotFound(request);
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "view:merchant");
  const merchant = await loadMerchant(request, tenant, params.merchantId);
  // The forms' code, so the server renders an open form whole (a refused one too: ./form-code).
  await formCode.preload();
  const canViewAccounts = can(tenant.role, "view:settlement_account");
  const canViewBalance = can(tenant.role, "view:balance");
  const [pointsOfSale, terminals, accounts, transactions, history, pending, balances] = await Promise.all([
    listPointsOfSale(tenant, { merchantId: merchant.id, limit: LIST_LIMIT }),
    listTerminals(tenant, { merchantId: merchant.id, limit: LIST_LIMIT }),
    canViewAccounts ? listSettlementAccounts(tenant, merchant.id) : Promise.resolve([]),
    listTransactions(tenant, { merchantId: merchant.id, limit: RECENT_TRANSACTIONS }),
    listAudit(tenant, { entity: "merchant", entityId: merchant.id, limit: HISTORY_LIMIT }),
    pendingRequestsOfMerchant(tenant, merchant.id),
    canViewBalance ? getMerchantBalances(tenant, merchant.id) : Promise.resolve(null),
  ]);
  return {
    merchant,
    pointsOfSale: pointsOfSale.rows,
    morePointsOfSale: pointsOfSale.next !== null,
    terminals: terminals.rows.map((t) => ({
      id: t.id,
      serial: t.serial,
      model: t.model,
      status: t.status,
      merchantId: t.merchantId,
      pointOfSaleId: t.pointOfSaleId,
      pointOfSaleName: pointsOfSale.rows.find((p) => p.id === t.pointOfSaleId)?.name ?? null,
      lastSeenAt: t.lastSeenAt,
    })),
    moreTerminals: terminals.next !== null,
    accounts,
    // Card numbers never show more than the BIN and the last four; other people's phones are masked.
    transactions: transactions.rows.map(shownTransaction),
    // Who changed what and when; addresses and browsers stay in the audit log.
    history: history.rows.map((entry) =>
      shownHistory({
        id: entry.id,
        action: entry.action,
        actorName: entry.actorName,
        before: entry.before as ChangeValues | null,
        after: entry.after as ChangeValues | null,
        createdAt: entry.createdAt,
      }),
    ),
    pending,
    balances,
    // Where the merchant's money is followed further: each link opens its list narrowed to this merchant.
    moneyLinks: [
      ...(can(tenant.role, "view:transaction") ? [{ label: "Transactions", href: paths.transactions({ merchant: merchant.id }) }] : []),
      ...(canViewBalance ? [{ label: "Balance in merchant funds", href: paths.merchantFunds({ merchant: merchant.id }) }] : []),
      ...(can(tenant.role, "view:settlement") ? [{ label: "Settlements", href: paths.settlements({ merchant: merchant.id }) }] : []),
      ...(can(tenant.role, "view:transfer") ? [{ label: "Transfer history", href: paths.transferHistory(merchant.id) }] : []),
    ],
    canRequestMerchant: can(tenant.role, "request:merchant"),
    canRequestAccount: can(tenant.role, "request:settlement_account"),
    canRequestPointOfSale: can(tenant.role, "request:point_of_sale"),
    canViewAccounts,
  };
}

const isAccountIntent = (intent: string): intent is AccountIntent => (ACCOUNT_INTENTS as readonly string[]).includes(intent);

// A navigation in the page that opens a form finishes once the forms' code is here too (./form-code); the first load
// uses the server's data.
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const opens = openForm(null, new URL(request.url).searchParams) !== null;
  const [data] = await Promise.all([serverLoader<typeof loader>(), opens ? formCode.preload().catch(() => undefined) : null]);
  return data;
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, params, context }: ActionFunctionArgs) {
  // The permission depends on what was posted: checked below.
  const { deps, tenant } = await requireTenant(request, context, null);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  const values = typedValues(form);
  // The schema is made here, in the action, so that neither it nor valibot is in the page's code (decision 043).
  const intent = v.safeParse(v.picklist([...MERCHANT_INTENTS, ...ACCOUNT_INTENTS], "That request was not understood."), form.intent);
  // Who may not ask for anything here hears 403 whatever they post; then the merchant must be theirs.
  if (!intent.success && !can(tenant.role, "request:merchant")) requirePermission(tenant, "request:settlement_account");
  if (intent.success) requirePermission(tenant, isAccountIntent(intent.output) ? "request:settlement_account" : "request:merchant");
  const merchant = await loadMerchant(request, tenant, params.merchantId);
  if (!intent.success) return refuse({ form: intent.issues[0].message }, values, "");
  const args = { request, context, deps, tenant, merchant, form, values, here: paths.merchant(merchant.id) };
  try {
    return isAccountIntent(intent.output) ? await accountIntent(args, intent.output) : await merchantIntent(args, intent.output);
  } catch (error) {
    // Already pending, already inactive, nothing to change: the engine's rules, in its words.
    return refuse({ form: refusalMessage(request, error) }, values, intent.output);
  }
}

export default function ManageMerchant() {
  const loaded = useLoaderData<typeof loader>();
  const { merchant, pending, canRequestMerchant, canRequestAccount, canViewAccounts } = loaded;
  const refused = useActionData<typeof action>() ?? null;
  const { search } = useLocation();
  const busy = useSending();

  const merchantPending = pending.find((p) => p.kind === "merchant");
  const active = merchant.status === "active";
  const mayChangeMerchant = canRequestMerchant && active && !merchantPending;
  const mayChangeAccounts = canRequestAccount && active;
  const open = openForm(refused, new URLSearchParams(search));
  const errors = refused?.errors ?? {};
  const here = paths.merchant(merchant.id);

  const merchantIntentOpen = open?.intent === "update-merchant" || open?.intent === "deactivate-merchant" ? open.intent : null;
  const merchantFormShown = Boolean(merchantIntentOpen && mayChangeMerchant);
  const accountFormShown = Boolean(open && mayChangeAccounts && (open.intent === "add-account" || editableAccount(loaded.accounts, pending, open)));
  // A refusal whose form is not on the page (the merchant got a pending request meanwhile, say) is said at the top.
  const formShown = merchantFormShown || accountFormShown;

  return (
    <div className="page merchant-page">
      <header className="page__header page__header--actions">
        <div>
          <h1>{shownText(merchant.name)}</h1>
          <p className="page__lead">
            {shownText(merchant.tradingName)} · {merchant.code} · <StatusPill entity="merchant" status={merchant.status} />
          </p>
        </div>
        {mayChangeMerchant ? (
          <div className="button-row">
            <Link to="?edit=merchant#merchant-form-title" className="button button--primary">
              Edit merchant
            </Link>
            <Link to="?deactivate=merchant#merchant-form-title" className="button">
              Deactivate
            </Link>
          </div>
        ) : null}
      </header>

      <OnThisPage
        sections={[
          { id: "overview-title", label: "Overview" },
          { id: "money-title", label: "Money" },
          { id: "pos-title", label: "Points of sale" },
          { id: "terminals-title", label: "POS terminals" },
          ...(canViewAccounts ? [{ id: "accounts-title", label: "Settlement accounts" }] : []),
          { id: "transactions-title", label: "Recent transactions" },
          { id: "history-title", label: "Change history" },
        ]}
      />

      {refused && !formShown ? (
        <p className="notice notice--danger notice__message" role="alert">
          {errors.form ?? "That request could not be sent: reload the page and try again."}
        </p>
      ) : null}

      {merchantPending ? (
        <div className="notice notice--warning" role="status">
          <p className="notice__message">
            A request to {merchantPending.action === "deactivate" ? "deactivate" : "change"} this merchant is waiting for approval; it cannot change again until
            it is decided. <Link to={paths.approval("merchant", merchantPending.id)}>See the request</Link>
          </p>
        </div>
      ) : null}

      {merchantIntentOpen && merchantFormShown ? (
        <MerchantFormCard merchant={merchant} intent={merchantIntentOpen} errors={errors} values={refused?.values ?? null} busy={busy} here={here} />
      ) : null}

      <section className="card" aria-labelledby="overview-title">
        <h2 id="overview-title">Overview</h2>
        <Details
          rows={[
            ["Registered name", merchant.name],
            ["Trading name", merchant.tradingName],
            ["Merchant code", merchant.code],
            ["TIN", merchant.tin],
            // A sector typed as a path ("Retail/Groceries") reads "Groceries Retail" (SPEC 5).
            ["Sector", formatPathLike(merchant.sector)],
            ["Town", merchant.town],
            ["Region", merchant.region],
            ["Address", merchant.address],
            ["Contact name", merchant.contactName],
            ["Contact phone", merchant.contactPhone],
            ["Contact email", merchant.contactEmail],
            ["Status", statusLabel("merchant", merchant.status)],
            ["Added", detailDate(merchant.createdAt)],
            ["Last changed", detailDate(merchant.updatedAt)],
          ]}
        />
      </section>

      <section className="card" aria-labelledby="money-title">
        <h2 id="money-title">Money</h2>
        {loaded.balances ? (
          <Details
            rows={[
              ["Available (GHS)", formatAmount(loaded.balances.available)],
              ["Pending clearance (GHS)", formatAmount(loaded.balances.pending)],
              ["Held by disputes (GHS)", formatAmount(loaded.balances.held)],
            ]}
          />
        ) : null}
        <nav aria-label={`Money of ${merchant.name}`}>
          <ul className="link-row">
            {loaded.moneyLinks.map((link) => (
              <li key={link.href}>
                <Link to={link.href}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </section>

      <section className="card" aria-labelledby="pos-title">
        <div className="card__header">
          <h2 id="pos-title">Points of sale</h2>
          {loaded.canRequestPointOfSale && active ? (
            <Link to={paths.addPointOfSale(merchant.id)} className="button">
              Add point of sale
            </Link>
          ) : null}
        </div>
        <DataTable
          caption="Points of sale"
          rows={loaded.pointsOfSale}
          rowKey={(p) => p.id}
          columns={[
            {
              id: "name",
              header: "Point of sale",
              cell: (p) => (
                <Link to={paths.pointOfSale(merchant.id, p.id)} className="cell-title">
                  <strong>{p.name}</strong>
                  <span className="cell-sub">{p.address}</span>
                </Link>
              ),
            },
            { id: "place", header: "Town", cell: (p) => `${p.town}, ${p.region}` },
            { id: "phone", header: "Phone", cell: (p) => p.contactPhone },
            { id: "status", header: "Status", cell: (p) => <StatusPill entity="point_of_sale" status={p.status} /> },
          ]}
          empty={<p>No points of sale yet.</p>}
        />
        {loaded.morePointsOfSale ? <p className="field-hint">Showing the first {LIST_LIMIT}.</p> : null}
      </section>

      <section className="card" aria-labelledby="terminals-title">
        <h2 id="terminals-title">POS terminals</h2>
        <DataTable
          caption="POS terminals at this merchant"
          rows={loaded.terminals}
          rowKey={(t) => t.id}
          columns={TERMINALS}
          empty={<p>No terminals at this merchant.</p>}
        />
        {loaded.moreTerminals ? <p className="field-hint">Showing the first {LIST_LIMIT}.</p> : null}
      </section>

      {canViewAccounts ? (
        <SettlementAccounts
          accounts={loaded.accounts}
          pending={pending}
          mayChange={mayChangeAccounts}
          open={open}
          formShown={accountFormShown}
          errors={errors}
          values={refused?.values ?? null}
          busy={busy}
          here={here}
        />
      ) : null}

      <section className="card" aria-labelledby="transactions-title">
        <div className="card__header">
          <h2 id="transactions-title">Recent transactions</h2>
          <Link to={paths.transactions({ merchant: merchant.id })}>All transactions of this merchant</Link>
        </div>
        <RecentTransactions caption="Recent transactions" rows={loaded.transactions} empty="No transactions yet." />
      </section>

      <ChangeHistory entries={loaded.history} />
    </div>
  );
}

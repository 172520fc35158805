// /merchants/:merchantId (Manage Merchant): one merchant in stacked cards
// (overview, points of sale, terminals, settlement accounts, recent
// transactions, change history). Every change here is a request for another
// person to approve. The forms open from the URL (?edit=merchant,
// ?deactivate=merchant, ?account=new|<id>, ?deactivate-account=<id>) so they
// work before the script loads and survive a refused submission.
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { payerOf } from "../lib/transactions-view";
import { requestChange, type ChangeValues } from "../../functions/data/approvals";
import { listAudit } from "../../functions/data/audit";
import { getMerchant, merchantClashes, pendingRequestsOfMerchant, type Merchant } from "../../functions/data/merchants";
import { listPointsOfSale } from "../../functions/data/points-of-sale";
import { getSettlementAccount, listSettlementAccounts, settlementAccountClashes, type SettlementAccount } from "../../functions/data/settlement-accounts";
import { type Tenant } from "../../functions/data/tenant";
import { listTerminals } from "../../functions/data/terminals";
import { listTransactions } from "../../functions/data/transactions";
import { redirectWithFlash } from "../../functions/flash";
import { refusalMessage, requirePermission, requireTenant } from "../../functions/guards";
import { pageNotFound, refuse } from "../../functions/http";
import { can } from "../../functions/permissions";
import { DataTable, type Column } from "../components/data-table";
import { MerchantFields, SettlementAccountFields } from "../components/merchant-fields";
import { formatAmount, formatDate } from "../lib/format";
import {
  ACCOUNT_FIELDS,
  fieldErrors,
  formFields,
  MERCHANT_FIELDS,
  MerchantUpdateForm,
  SENT_FOR_APPROVAL,
  SettlementAccountForm,
  typedValues,
  type FieldErrors,
} from "../lib/merchant-forms";
import { Details } from "../components/details";

const LIST_LIMIT = 50;
const RECENT_TRANSACTIONS = 10;
const HISTORY_LIMIT = 20;

const MERCHANT_LABELS: Record<string, string> = {
  code: "Code",
  name: "Registered name",
  trading_name: "Trading name",
  tin: "TIN",
  sector: "Sector",
  town: "Town",
  region: "Region",
  address: "Address",
  contact_name: "Contact name",
  contact_phone: "Contact phone",
  contact_email: "Contact email",
  status: "Status",
};

/** The merchant as its form's fields (the approval engine's column names). */
function merchantValues(m: Merchant): ChangeValues {
  return {
    code: m.code,
    name: m.name,
    trading_name: m.tradingName,
    tin: m.tin,
    sector: m.sector,
    town: m.town,
    region: m.region,
    address: m.address,
    contact_name: m.contactName,
    contact_phone: m.contactPhone,
    contact_email: m.contactEmail,
  };
}

function accountValues(a: SettlementAccount): ChangeValues {
  return {
    kind: a.kind,
    provider: a.provider,
    account_number: a.accountNumber,
    account_name: a.accountName,
    is_primary: a.isPrimary ? 1 : 0,
  };
}

const changedOnly = (wanted: ChangeValues, current: ChangeValues): ChangeValues =>
  Object.fromEntries(Object.entries(wanted).filter(([key, value]) => current[key] !== value));

async function loadMerchant(request: Request, tenant: Tenant, db: D1Database, merchantId: string | undefined): Promise<Merchant> {
  const merchant = merchantId ? await getMerchant(tenant, db, merchantId) : null;
  return merchant ?? pageNotFound(request);
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:merchant");
  const merchant = await loadMerchant(request, tenant, deps.db, params.merchantId);
  const [pointsOfSale, terminals, accounts, transactions, history, pending] = await Promise.all([
    listPointsOfSale(tenant, deps.db, {
      merchantId: merchant.id,
      limit: LIST_LIMIT,
    }),
    listTerminals(tenant, deps.db, {
      merchantId: merchant.id,
      limit: LIST_LIMIT,
    }),
    can(tenant.role, "view:settlement_account") ? listSettlementAccounts(tenant, deps.db, merchant.id) : Promise.resolve([]),
    listTransactions(tenant, deps.db, {
      merchantId: merchant.id,
      limit: RECENT_TRANSACTIONS,
    }),
    listAudit(tenant, deps.db, {
      entity: "merchant",
      entityId: merchant.id,
      limit: HISTORY_LIMIT,
    }),
    pendingRequestsOfMerchant(tenant, deps.db, merchant.id),
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
      pointOfSaleId: t.pointOfSaleId,
      lastSeenAt: t.lastSeenAt,
    })),
    moreTerminals: terminals.next !== null,
    accounts,
    transactions: transactions.rows.map((t) => ({
      id: t.id,
      reference: t.reference,
      channel: t.channel,
      network: t.network,
      amount: t.amount,
      status: t.status,
      // Card numbers never show more than the BIN and the last four; other people's phones are masked.
      customer: payerOf(t),
      createdAt: t.createdAt,
    })),
    // Who changed what and when; addresses and browsers stay in the audit log.
    history: history.rows.map((entry) => ({
      id: entry.id,
      action: entry.action,
      actorName: entry.actorName,
      before: entry.before as ChangeValues | null,
      after: entry.after as ChangeValues | null,
      createdAt: entry.createdAt,
    })),
    pending,
    canRequestMerchant: can(tenant.role, "request:merchant"),
    canRequestAccount: can(tenant.role, "request:settlement_account"),
    canRequestPointOfSale: can(tenant.role, "request:point_of_sale"),
    canViewAccounts: can(tenant.role, "view:settlement_account"),
  };
}

const Intent = v.picklist(
  ["update-merchant", "deactivate-merchant", "add-account", "update-account", "deactivate-account"],
  "That request was not understood.",
);
const AccountId = v.pipe(v.string("Say which account."), v.nonEmpty("Say which account."), v.maxLength(80));

export async function action({ request, params, context }: ActionFunctionArgs) {
  // The permission depends on what was posted: checked below.
  const { deps, tenant } = await requireTenant(request, context, null);
  const form = Object.fromEntries(await request.formData());
  const values = typedValues(form);
  const intent = v.safeParse(Intent, form.intent);
  // Who may not ask for anything here hears 403 whatever they post; then the merchant must be theirs.
  if (!intent.success && !can(tenant.role, "request:merchant")) requirePermission(tenant, "request:settlement_account");
  if (intent.success) requirePermission(tenant, intent.output.endsWith("-account") ? "request:settlement_account" : "request:merchant");
  const merchant = await loadMerchant(request, tenant, deps.db, params.merchantId);
  if (!intent.success) return refuse({ form: intent.issues[0].message }, values, "");
  const here = `/merchants/${merchant.id}`;

  let account: SettlementAccount | null = null;
  if (intent.output === "update-account" || intent.output === "deactivate-account") {
    const id = v.safeParse(AccountId, form.accountId);
    account = id.success ? await getSettlementAccount(tenant, deps.db, id.output) : null;
    // Another merchant's account, or another business's, is not found from here.
    if (!account || account.merchantId !== merchant.id) pageNotFound(request);
  }
  try {
    switch (intent.output) {
      case "update-merchant": {
        const parsed = v.safeParse(MerchantUpdateForm, formFields(form, MERCHANT_FIELDS));
        if (!parsed.success) return refuse(fieldErrors(parsed.issues), values, intent.output);
        const after = changedOnly(parsed.output, merchantValues(merchant));
        if (Object.keys(after).length === 0) return refuse({ form: "Nothing would change: edit a field first." }, values, intent.output);
        if (typeof after.tin === "string" && (await merchantClashes(tenant, deps.db, { tin: after.tin }, merchant.id)).tin) {
          return refuse({ tin: "Another merchant already has this TIN, or a pending request would give it one." }, values, intent.output);
        }
        await requestChange(tenant, deps.db, deps.meta, {
          kind: "merchant",
          action: "update",
          targetId: merchant.id,
          after,
        });
        throw await redirectWithFlash(request, context.config, here, {
          kind: "success",
          message: `The change to ${merchant.name}: ${SENT_FOR_APPROVAL}`,
        });
      }
      case "deactivate-merchant": {
        await requestChange(tenant, deps.db, deps.meta, {
          kind: "merchant",
          action: "deactivate",
          targetId: merchant.id,
        });
        throw await redirectWithFlash(request, context.config, here, {
          kind: "success",
          message: `Deactivating ${merchant.name}: ${SENT_FOR_APPROVAL}`,
        });
      }
      case "add-account": {
        if (merchant.status !== "active") return refuse({ form: "An inactive merchant cannot get a new settlement account." }, values, intent.output);
        const parsed = v.safeParse(SettlementAccountForm, formFields(form, ACCOUNT_FIELDS));
        if (!parsed.success) return refuse(fieldErrors(parsed.issues), values, intent.output);
        const wanted = parsed.output;
        if (
          await settlementAccountClashes(tenant, deps.db, {
            merchantId: merchant.id,
            kind: wanted.kind,
            provider: wanted.provider,
            accountNumber: wanted.account_number,
          })
        ) {
          return refuse({ account_number: "This merchant already has this account, or a pending request would add it." }, values, intent.output);
        }
        await requestChange(tenant, deps.db, deps.meta, {
          kind: "settlement_account",
          action: "create",
          after: { merchant_id: merchant.id, ...wanted },
        });
        throw await redirectWithFlash(request, context.config, here, {
          kind: "success",
          message: `The new settlement account: ${SENT_FOR_APPROVAL}`,
        });
      }
      case "update-account": {
        if (merchant.status !== "active") return refuse({ form: "The settlement accounts of an inactive merchant cannot change." }, values, intent.output);
        const parsed = v.safeParse(SettlementAccountForm, formFields(form, ACCOUNT_FIELDS));
        if (!parsed.success) return refuse(fieldErrors(parsed.issues), values, intent.output);
        const wanted = parsed.output;
        const after = changedOnly(wanted, accountValues(account!));
        if (Object.keys(after).length === 0) return refuse({ form: "Nothing would change: edit a field first." }, values, intent.output);
        if (
          (after.provider !== undefined || after.account_number !== undefined) &&
          (await settlementAccountClashes(
            tenant,
            deps.db,
            {
              merchantId: merchant.id,
              kind: wanted.kind,
              provider: wanted.provider,
              accountNumber: wanted.account_number,
            },
            account!.id,
          ))
        ) {
          return refuse({ account_number: "This merchant already has this account, or a pending request would add it." }, values, intent.output);
        }
        await requestChange(tenant, deps.db, deps.meta, {
          kind: "settlement_account",
          action: "update",
          targetId: account!.id,
          after,
        });
        throw await redirectWithFlash(request, context.config, here, {
          kind: "success",
          message: `The change to the settlement account: ${SENT_FOR_APPROVAL}`,
        });
      }
      case "deactivate-account": {
        await requestChange(tenant, deps.db, deps.meta, {
          kind: "settlement_account",
          action: "deactivate",
          targetId: account!.id,
        });
        throw await redirectWithFlash(request, context.config, here, {
          kind: "success",
          message: `Deactivating the settlement account: ${SENT_FOR_APPROVAL}`,
        });
      }
    }
  } catch (error) {
    // Already pending, already inactive, nothing to change: the engine's rules, in its words.
    return refuse({ form: refusalMessage(request, error) }, values, intent.output);
  }
}

const STATUS_PILL: Record<string, string> = {
  active: "status status--good",
  assigned: "status status--good",
  successful: "status status--good",
  inactive: "status",
  in_stock: "status",
  retired: "status",
  blocked: "status status--bad",
  faulty: "status status--bad",
  failed: "status status--bad",
  reversed: "status status--wait",
};

const label = (text: string) => text.charAt(0).toUpperCase() + text.slice(1).replace(/_/g, " ");

function Pill({ status }: { status: string }) {
  return <span className={STATUS_PILL[status] ?? "status"}>{label(status)}</span>;
}

function FormNotice({ errors }: { errors: FieldErrors }) {
  if (errors.form)
    return (
      <p className="notice notice--danger notice__message" role="alert">
        {errors.form}
      </p>
    );
  if (Object.keys(errors).length === 0) return null;
  return (
    <p className="notice notice--danger notice__message" role="alert">
      Some fields need attention: see the messages under them.
    </p>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

const ACTION_WORDS: Record<string, string> = {
  create: "Added",
  update: "Changed",
  deactivate: "Deactivated",
};

function historyChanges(entry: LoaderData["history"][number]): string[] {
  const after = entry.after ?? {};
  if (entry.action.endsWith(".create")) return ["Approved as a new merchant"];
  return Object.keys(after).map((key) => {
    const before = entry.before?.[key];
    return `${MERCHANT_LABELS[key] ?? key}: ${before ?? "none"} → ${after[key] ?? "none"}`;
  });
}

export default function ManageMerchant() {
  const loaded = useLoaderData<typeof loader>();
  const { merchant, pending, canRequestMerchant, canRequestAccount, canViewAccounts } = loaded;
  const result = useActionData<typeof action>();
  const { search } = useLocation();
  const busy = useNavigation().state !== "idle";
  const query = new URLSearchParams(search);
  const refused = result ?? null;

  const merchantPending = pending.find((p) => p.kind === "merchant");
  const active = merchant.status === "active";
  const mayChangeMerchant = canRequestMerchant && active && !merchantPending;
  const mayChangeAccounts = canRequestAccount && active;
  const accountPending = (id: string) => pending.find((p) => p.kind === "settlement_account" && p.targetId === id);
  const pendingNewAccounts = pending.filter((p) => p.kind === "settlement_account" && p.action === "create");

  // Which form is open: the one refused just now, else the one the URL asks for.
  const open = refused?.intent
    ? { intent: refused.intent, accountId: refused.values?.accountId ?? null }
    : query.get("edit") === "merchant"
      ? { intent: "update-merchant", accountId: null }
      : query.get("deactivate") === "merchant"
        ? { intent: "deactivate-merchant", accountId: null }
        : query.get("account") === "new"
          ? { intent: "add-account", accountId: null }
          : query.get("account")
            ? { intent: "update-account", accountId: query.get("account") }
            : query.get("deactivate-account")
              ? {
                  intent: "deactivate-account",
                  accountId: query.get("deactivate-account"),
                }
              : null;
  const errors = refused?.errors ?? {};
  const here = `/merchants/${merchant.id}`;
  const editedAccount = open?.accountId ? loaded.accounts.find((a) => a.id === open.accountId && a.status === "active" && !accountPending(a.id)) : undefined;

  const merchantFormShown = Boolean(open && (open.intent === "update-merchant" || open.intent === "deactivate-merchant") && mayChangeMerchant);
  const accountFormShown = Boolean(open && mayChangeAccounts && (open.intent === "add-account" || editedAccount));
  // A refusal whose form is not on the page (the merchant got a pending request meanwhile, say) is said at the top.
  const formShown = merchantFormShown || accountFormShown;

  const accountColumns: Column<SettlementAccount>[] = [
    {
      id: "provider",
      header: "Account",
      cell: (a) => (
        <span className="cell-title">
          <strong>{a.provider}</strong>
          <span className="cell-sub">{a.kind === "bank" ? "Bank account" : "Mobile money"}</span>
        </span>
      ),
    },
    {
      id: "number",
      header: "Number",
      cell: (a) => <span className="account-number">{a.accountNumber}</span>,
    },
    { id: "name", header: "Name on the account", cell: (a) => a.accountName },
    {
      id: "primary",
      header: "Primary",
      cell: (a) => (a.isPrimary ? "Primary" : "No"),
    },
    {
      id: "status",
      header: "Status",
      cell: (a) => {
        const request = accountPending(a.id);
        return request ? (
          <Link to={`/approvals/settlement-account/${request.id}`} className="status status--wait status--wrap">
            {request.action === "deactivate" ? "Deactivation" : "Change"} waiting for approval
          </Link>
        ) : (
          <Pill status={a.status} />
        );
      },
    },
    ...(mayChangeAccounts
      ? [
          {
            id: "actions",
            header: "Actions",
            cell: (a: SettlementAccount) =>
              a.status === "active" && !accountPending(a.id) ? (
                <span className="button-row">
                  <Link to={`?account=${a.id}#account-form-title`} className="button">
                    Edit
                  </Link>
                  <Link to={`?deactivate-account=${a.id}#account-form-title`} className="button">
                    Deactivate
                  </Link>
                </span>
              ) : (
                <span className="cell-sub">None</span>
              ),
          },
        ]
      : []),
  ];

  return (
    <div className="page merchant-page">
      <header className="page__header page__header--actions">
        <div>
          <h1>{merchant.name}</h1>
          <p className="page__lead">
            {merchant.tradingName} · {merchant.code} · <Pill status={merchant.status} />
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

      {refused && !formShown ? (
        <p className="notice notice--danger notice__message" role="alert">
          {errors.form ?? "That request could not be sent: reload the page and try again."}
        </p>
      ) : null}

      {merchantPending ? (
        <div className="notice notice--warning" role="status">
          <p className="notice__message">
            A request to {merchantPending.action === "deactivate" ? "deactivate" : "change"} this merchant is waiting for approval; it cannot change again until
            it is decided. <Link to={`/approvals/merchant/${merchantPending.id}`}>See the request</Link>
          </p>
        </div>
      ) : null}

      {open && merchantFormShown ? (
        <section className="card" aria-labelledby="merchant-form-title">
          <h2 id="merchant-form-title">{open.intent === "update-merchant" ? "Edit merchant" : "Deactivate merchant"}</h2>
          <FormNotice errors={errors} />
          {open.intent === "update-merchant" ? (
            <Form method="post" action={here} className="form" noValidate key={JSON.stringify(refused?.values ?? {})}>
              <input type="hidden" name="intent" value="update-merchant" />
              <p className="field-hint">Only the fields you change go into the request. {SENT_FOR_APPROVAL}</p>
              <MerchantFields values={refused?.values ?? merchantValues(merchant)} errors={errors} prefix="edit" withCode={false} />
              <div className="button-row">
                <button type="submit" className="button button--primary" disabled={busy}>
                  {busy ? "Sending…" : "Send for approval"}
                </button>
                <Link to={here} className="button">
                  Cancel
                </Link>
              </div>
            </Form>
          ) : (
            <Form method="post" action={here} className="form form--secondary">
              <input type="hidden" name="intent" value="deactivate-merchant" />
              <p>
                Deactivate {merchant.name}? Once approved it stops accepting payments and cannot be changed again. {SENT_FOR_APPROVAL}
              </p>
              <div className="button-row">
                <button type="submit" className="button button--danger" disabled={busy}>
                  {busy ? "Sending…" : "Yes, request deactivation"}
                </button>
                <Link to={here} className="button">
                  Cancel
                </Link>
              </div>
            </Form>
          )}
        </section>
      ) : null}

      <section className="card" aria-labelledby="overview-title">
        <h2 id="overview-title">Overview</h2>
        <Details
          rows={[
            ["Registered name", merchant.name],
            ["Trading name", merchant.tradingName],
            ["Merchant code", merchant.code],
            ["TIN", merchant.tin],
            ["Sector", merchant.sector],
            ["Town", merchant.town],
            ["Region", merchant.region],
            ["Address", merchant.address],
            ["Contact name", merchant.contactName],
            ["Contact phone", merchant.contactPhone],
            ["Contact email", merchant.contactEmail],
            ["Status", label(merchant.status)],
            ["Added", formatDate(merchant.createdAt)],
            ["Last changed", formatDate(merchant.updatedAt)],
          ]}
        />
      </section>

      <section className="card" aria-labelledby="pos-title">
        <div className="card__header">
          <h2 id="pos-title">Points of sale</h2>
          {loaded.canRequestPointOfSale && active ? (
            <Link to={`${here}/add-point-of-sale`} className="button">
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
                <Link to={`${here}/point-of-sale/${p.id}`} className="cell-title">
                  <strong>{p.name}</strong>
                  <span className="cell-sub">{p.address}</span>
                </Link>
              ),
            },
            {
              id: "place",
              header: "Town",
              cell: (p) => `${p.town}, ${p.region}`,
            },
            { id: "phone", header: "Phone", cell: (p) => p.contactPhone },
            {
              id: "status",
              header: "Status",
              cell: (p) => <Pill status={p.status} />,
            },
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
          columns={[
            {
              id: "serial",
              header: "Serial number",
              cell: (t) => (
                <Link to={`/pos-terminals/device-details/${t.id}`} className="cell-title">
                  <strong>{t.serial}</strong>
                  <span className="cell-sub">{t.model}</span>
                </Link>
              ),
            },
            {
              id: "pos",
              header: "Point of sale",
              cell: (t) => loaded.pointsOfSale.find((p) => p.id === t.pointOfSaleId)?.name ?? "N/A",
            },
            {
              id: "status",
              header: "Status",
              cell: (t) => <Pill status={t.status} />,
            },
            {
              id: "seen",
              header: "Last seen",
              cell: (t) => formatDate(t.lastSeenAt),
            },
          ]}
          empty={<p>No terminals at this merchant.</p>}
        />
        {loaded.moreTerminals ? <p className="field-hint">Showing the first {LIST_LIMIT}.</p> : null}
      </section>

      {canViewAccounts ? (
        <section className="card" aria-labelledby="accounts-title">
          <div className="card__header">
            <h2 id="accounts-title">Settlement accounts</h2>
            {mayChangeAccounts ? (
              <Link to="?account=new#account-form-title" className="button">
                Add settlement account
              </Link>
            ) : null}
          </div>
          {pendingNewAccounts.length > 0 ? (
            <ul className="pending-list">
              {pendingNewAccounts.map((p) => (
                <li key={p.id}>
                  <span className="status status--wait">Waiting for approval</span> A new settlement account.{" "}
                  <Link to={`/approvals/settlement-account/${p.id}`}>See the request</Link>
                </li>
              ))}
            </ul>
          ) : null}
          <DataTable
            caption="Settlement accounts"
            rows={loaded.accounts}
            rowKey={(a) => a.id}
            columns={accountColumns}
            empty={<p>No settlement accounts yet.</p>}
          />
          {open && accountFormShown ? (
            <div className="subcard">
              <h3 id="account-form-title">
                {open.intent === "add-account"
                  ? "Add a settlement account"
                  : open.intent === "update-account"
                    ? "Edit settlement account"
                    : "Deactivate settlement account"}
              </h3>
              <FormNotice errors={errors} />
              {open.intent === "deactivate-account" && editedAccount ? (
                <Form method="post" action={here} className="form form--secondary">
                  <input type="hidden" name="intent" value="deactivate-account" />
                  <input type="hidden" name="accountId" value={editedAccount.id} />
                  <p>
                    Deactivate the {editedAccount.provider} account {editedAccount.accountNumber}? Once approved, no money is paid out to it.{" "}
                    {SENT_FOR_APPROVAL}
                  </p>
                  <div className="button-row">
                    <button type="submit" className="button button--danger" disabled={busy}>
                      {busy ? "Sending…" : "Yes, request deactivation"}
                    </button>
                    <Link to={here} className="button">
                      Cancel
                    </Link>
                  </div>
                </Form>
              ) : (
                <Form method="post" action={here} className="form" noValidate key={JSON.stringify(refused?.values ?? open)}>
                  <input type="hidden" name="intent" value={open.intent} />
                  {editedAccount ? <input type="hidden" name="accountId" value={editedAccount.id} /> : null}
                  <p className="field-hint">
                    {editedAccount ? "Only the fields you change go into the request. " : ""}
                    {SENT_FOR_APPROVAL} A new primary account replaces the current one when approved.
                  </p>
                  <SettlementAccountFields values={refused?.values ?? (editedAccount ? accountValues(editedAccount) : {})} errors={errors} prefix="account" />
                  <div className="button-row">
                    <button type="submit" className="button button--primary" disabled={busy}>
                      {busy ? "Sending…" : "Send for approval"}
                    </button>
                    <Link to={here} className="button">
                      Cancel
                    </Link>
                  </div>
                </Form>
              )}
            </div>
          ) : null}
        </section>
      ) : null}

      <section className="card" aria-labelledby="transactions-title">
        <h2 id="transactions-title">Recent transactions</h2>
        <DataTable
          caption="Recent transactions"
          rows={loaded.transactions}
          rowKey={(t) => String(t.id)}
          columns={[
            {
              id: "date",
              header: "Date",
              cell: (t) => formatDate(t.createdAt),
            },
            { id: "reference", header: "Reference", cell: (t) => t.reference },
            {
              id: "channel",
              header: "Channel",
              cell: (t) => `${t.channel === "card" ? "Card" : "Mobile money"} · ${t.network}`,
            },
            {
              id: "customer",
              header: "Customer",
              cell: (t) => <span className="account-number">{t.customer}</span>,
            },
            {
              id: "amount",
              header: "Amount (GHS)",
              numeric: true,
              cell: (t) => formatAmount(t.amount),
            },
            {
              id: "status",
              header: "Status",
              cell: (t) => <Pill status={t.status} />,
            },
          ]}
          empty={<p>No transactions yet.</p>}
        />
      </section>

      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title">Change history</h2>
        {loaded.history.length === 0 ? (
          <p>No approved changes yet.</p>
        ) : (
          <ol className="history">
            {loaded.history.map((entry) => (
              <li key={entry.id} className="history__entry">
                <strong>{ACTION_WORDS[entry.action.split(".")[1] ?? ""] ?? entry.action}</strong>
                <span className="cell-sub">
                  {formatDate(entry.createdAt)} · approved by {entry.actorName ?? "the system"}
                </span>
                <ul>
                  {historyChanges(entry).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

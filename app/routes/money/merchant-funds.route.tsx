// /money/merchant-funds: what each merchant collected in a period, the fees,
// what waits for clearance, what is available and what was settled; and
// "transfer funds": from a merchant account to its settlement account or to
// another merchant account, as a request another person approves.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import * as v from "valibot";
import { listMerchantFunds } from "#server/ledger/funds.db";
import { getMerchantBalances } from "#server/ledger/ledger.db";
import { getMerchant, listMerchants } from "#server/merchants/merchants.db";
import { DEFAULT_PAGE_SIZE, numberedPage } from "#server/lists/page";
import { listSettlementAccounts } from "#server/settlement/settlement-accounts.db";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import { refusalMessage, requireTenant } from "#server/guards";
import { DataTable, ListCount, ListToolbar, Pager, type Column } from "#app/components/lists/data-table";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { MerchantFinder } from "#app/components/merchant-finder";
import { checkOf, FreshCheck, refusalOf } from "#app/components/forms/fresh-check";
import { amountLimitError, cedisAmount, type AmountLimit } from "#app/lib/amount-limits";
import { calendarDay, formatAmount, networkLabel } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { exportHref } from "#app/lib/lists/export-url";
import { PeriodPicker } from "#app/components/lists/period-picker";
import { fundsFilter } from "./merchant-funds-filter.server";
import { merchantChoices } from "#app/lib/merchant-choices.server";
import { MERCHANT_FINDER_PARAM } from "#app/lib/merchant-search";
import { formErrors, readForm } from "#server/forms";
import { narrationField } from "#app/lib/forms/fields";
import { NARRATION_MAX } from "#app/lib/forms/validation";

export const meta: MetaFunction = () => [{ title: "Merchant Funds" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:balance");
  const { query, filters, period, page, trail } = fundsFilter(new URL(request.url), deps.now());
  const only = filters.merchant ? await getMerchant(tenant, filters.merchant) : null;
  // One merchant is its own page of one (or of none: another business's id has nothing here).
  const [result, total] = filters.merchant
    ? [{ rows: only ? [only] : [], number: 1, trail: [] as string[], next: null }, only ? 1 : 0]
    : await Promise.all([
        numberedPage((after) => listMerchants(tenant, { ...query, after }), trail, page),
        listMerchants(tenant, { ...query, limit: 1, withTotal: true }).then((counted) => counted.total ?? 0),
      ]);
  const funds = await listMerchantFunds(
    tenant,
    result.rows.map((m) => m.id),
    period,
  );
  const canTransfer = can(tenant.role, "request:transfer");
  let transfer = null;
  if (filters.transfer && canTransfer) {
    const from = await getMerchant(tenant, filters.transfer);
    if (!from) pageNotFound(request);
    const [balances, accounts, others] = await Promise.all([
      getMerchantBalances(tenant, from.id),
      listSettlementAccounts(tenant, from.id),
      merchantChoices(tenant, { status: "active", exceptId: from.id, typed: new URL(request.url).searchParams.get(MERCHANT_FINDER_PARAM) }),
    ]);
    // Active accounts only, the primary first, then by provider.
    const active = accounts
      .filter((a) => a.status === "active")
      .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0));
    transfer = {
      from: { id: from.id, name: from.name },
      available: balances.available,
      destinations: [
        ...active.map((a) => ({ value: `sa:${a.id}`, label: `Settlement account: ${a.provider} ${a.accountNumber} (${a.accountName})` })),
        ...others.choices.map((m) => ({ value: `mer:${m.id}`, label: `Merchant account: ${m.name}` })),
      ],
      moreMerchants: others.more || new URL(request.url).searchParams.has(MERCHANT_FINDER_PARAM),
      // A new key for each form shown: submitting it twice asks once.
      idempotencyKey: crypto.randomUUID(),
    };
  }
  return {
    rows: result.rows.map((m) => ({ id: m.id, name: m.name, code: m.code, ...funds[m.id]! })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    period: { range: period.range, fromDay: period.fromDay, toDay: period.toDay, error: period.error },
    narrowedTo: filters.merchant ? (only?.name ?? "Unknown merchant") : null,
    canTransfer,
    canExport: can(tenant.role, "export:transaction"),
    transfer,
  };
}

const TransferForm = v.object({
  intent: v.literal("transfer"),
  from: v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/)),
  to: v.pipe(v.string("Choose where the money goes."), v.regex(/^(sa|mer):[\w-]{1,64}$/, "Choose where the money goes.")),
  amount: cedisAmount,
  narration: narrationField(),
  idempotencyKey: v.pipe(v.string(), v.uuid()),
});

type FieldErrors = Partial<Record<"to" | "amount" | "narration" | "form", string>>;

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  const signedIn = await requireTenant(request, context, "request:transfer");
  const { deps, tenant } = signedIn;
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  const text = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : "");
  const values = { to: text(form.to), amount: text(form.amount), narration: text(form.narration) };
  const parsed = v.safeParse(TransferForm, form);
  if (!parsed.success) {
    return refuse(formErrors(parsed.issues, { fields: ["to", "amount", "narration"], otherwise: "This form has expired. Open the transfer again." }), values);
  }
  const { from, to, amount, narration, idempotencyKey } = parsed.output;
  const [kind, id] = to.split(":") as ["sa" | "mer", string];
  // Asking moves no money yet, but a second person approves what is asked: the one who asks checks it is them.
  return underFreshCheck(request, signedIn, checkBindings.transfer(from, kind, id, amount), form, async () => {
    try {
      const made = await requestTransfer(tenant, deps.meta, {
        fromMerchantId: from,
        to: kind === "sa" ? { kind: "settlement_account", id } : { kind: "merchant", id },
        amount,
        narration,
        idempotencyKey,
      });
      throw await redirectWithFlash(request, context.config.app, "/money/merchant-funds", {
        kind: "success",
        message: `Transfer of GHS ${formatAmount(amount)} sent for approval: another person must approve it before money moves.${made.duplicate ? " (It was already sent; nothing was asked twice.)" : ""}`,
      });
    } catch (error) {
      const message = refusalMessage(request, error);
      const field = /amount|balance/i.test(message) ? "amount" : /settlement account|merchant account to transfer to/i.test(message) ? "to" : "form";
      return refuse({ [field]: message }, values);
    }
  });
}

/**
 * The amount, refused next to the field as soon as it is above the available
 * balance ("1,250.50" as typed): the server checks again when it is sent.
 */
function TransferAmount({ limit, answer }: { limit: AmountLimit; answer?: { values: { amount?: string }; errors: FieldErrors } }) {
  // typed is null until the amount is changed after the server's answer: its error shows till then.
  const [state, setState] = useState<{ answer: typeof answer; typed: string | null }>({ answer, typed: null });
  if (state.answer !== answer) setState({ answer, typed: null });
  const typed = state.answer === answer ? state.typed : null;
  const error = typed === null ? answer?.errors.amount : (amountLimitError(typed, [limit]) ?? undefined);
  return (
    <Field id="amount" label="Amount (GHS)" error={error} hint="Up to the available balance, e.g. 1,250.00">
      <input
        id="amount"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={answer?.values.amount ?? ""}
        required
        onChange={(event) => setState({ answer, typed: event.currentTarget.value })}
        {...describedBy("amount", error, true)}
      />
    </Field>
  );
}

/** An amount over its limit is not sent: the message is already next to the field. */
function refuseOverLimit(event: FormEvent<HTMLFormElement>, limit: AmountLimit) {
  const amount = event.currentTarget.elements.namedItem("amount");
  if (amount instanceof HTMLInputElement && amountLimitError(amount.value, [limit])) {
    event.preventDefault();
    amount.focus();
  }
}

type FundsRow = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

export default function MerchantFunds() {
  const { rows, page, trail, hasNext, total, period, narrowedTo, canTransfer, canExport, transfer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const answer = refusalOf(actionData);
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  const busy = useSending();
  const columns: Column<FundsRow>[] = [
    {
      id: "merchant",
      header: "Merchant",
      cell: (r) => (
        <span className="cell-title">
          <strong>{r.name}</strong>
          <span className="cell-sub">{r.code}</span>
        </span>
      ),
    },
    { id: "collected", header: "Collected (GHS)", numeric: true, cell: (r) => formatAmount(r.collected) },
    { id: "fees", header: "Fees (GHS)", numeric: true, cell: (r) => formatAmount(r.fees) },
    { id: "pending", header: "Pending clearance (GHS)", numeric: true, cell: (r) => formatAmount(r.pending) },
    { id: "available", header: "Available (GHS)", numeric: true, cell: (r) => formatAmount(r.available) },
    { id: "held", header: "Held by disputes (GHS)", numeric: true, cell: (r) => formatAmount(r.held) },
    { id: "settled", header: "Settled (GHS)", numeric: true, cell: (r) => formatAmount(r.settled) },
    ...(canTransfer
      ? [
          {
            id: "transfer",
            header: "Transfer",
            action: true,
            cell: (r: FundsRow) =>
              r.available > 0 ? (
                <Link to={filterHref(params, { transfer: r.id })} preventScrollReset aria-label={`Transfer funds from ${r.name}`}>
                  Transfer funds
                </Link>
              ) : (
                <span className="cell-sub">Nothing available</span>
              ),
          },
        ]
      : []),
  ];
  const errors: FieldErrors = answer?.errors ?? {};
  const limit: AmountLimit = { pesewas: transfer?.available ?? 0, name: "available balance" };
  return (
    <div className="page">
      <header className="page__header">
        <h1>Merchant Funds</h1>
        <p className="page__lead">{`Collected, fees and settled from ${calendarDay(period.fromDay)} to ${calendarDay(period.toDay)}; pending and available as of now.`}</p>
      </header>
      <PeriodPicker period={period} drops={["transfer"]} fallback="the last 30 days" />

      {transfer ? (
        <section className="card" aria-labelledby="transfer-title" data-testid="transfer-form">
          <h2 id="transfer-title">{`Transfer funds from ${transfer.from.name}`}</h2>
          <p>{`Available now: GHS ${formatAmount(transfer.available)}. The transfer is a request: another person must approve it before any money moves.`}</p>
          {errors.form ? (
            <p className="notice notice--danger notice__message" role="alert">
              {errors.form}
            </p>
          ) : null}
          {transfer.moreMerchants ? (
            <MerchantFinder param={MERCHANT_FINDER_PARAM} id="transfer-merchant-finder" label="Find the merchant account to transfer to" />
          ) : null}
          <FreshCheck check={checkOf(actionData)} />
          <Form method="post" className="form" noValidate onSubmit={(event) => refuseOverLimit(event, limit)}>
            <input type="hidden" name="intent" value="transfer" />
            <input type="hidden" name="from" value={transfer.from.id} />
            <input type="hidden" name="idempotencyKey" value={transfer.idempotencyKey} />
            <Field id="to" label="To" error={errors.to}>
              <select id="to" name="to" defaultValue={answer?.values.to ?? ""} required {...describedBy("to", errors.to)}>
                <option value="" disabled>
                  Choose a settlement account or a merchant account
                </option>
                {transfer.destinations.map((d) => (
                  <option key={d.value} value={d.value}>
                    {networkLabel(d.label)}
                  </option>
                ))}
              </select>
            </Field>
            <TransferAmount limit={limit} answer={answer} />
            <Field
              id="narration"
              label="Narration (optional)"
              error={errors.narration}
              hint={`What the money is for, shown to the checker; up to ${NARRATION_MAX} characters`}
            >
              <input
                id="narration"
                name="narration"
                type="text"
                maxLength={NARRATION_MAX}
                autoComplete="off"
                defaultValue={answer?.values.narration ?? ""}
                {...describedBy("narration", errors.narration, true)}
              />
            </Field>
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={busy}>
                {busy ? "Sending…" : "Send for approval"}
              </button>
              <Link to={filterHref(params, { transfer: null })} className="button button--ghost" preventScrollReset>
                Cancel
              </Link>
            </div>
          </Form>
        </section>
      ) : null}

      {narrowedTo ? (
        <p className="chips">
          <Link to={filterHref(params, { merchant: null, transfer: null })} className="chip" aria-label={`Remove the merchant filter: ${narrowedTo}`}>
            {`${narrowedTo} ×`}
          </Link>
        </p>
      ) : null}
      <ListToolbar
        alsoDrops={["transfer"]}
        searchLabel="Search merchant funds"
        searchPlaceholder="Merchant name, code, phone or TIN"
        filters={[]}
        actions={
          canExport && total > 0 ? (
            <a href={exportHref("/money/merchant-funds/export", search, ["transfer"])} className="button" download>
              Export CSV
            </a>
          ) : null
        }
      />
      <ListCount page={page} pageSize={DEFAULT_PAGE_SIZE} shown={rows.length} total={total} noun={total === 1 ? "merchant" : "merchants"} />
      <DataTable page caption="Merchant funds" columns={columns} rows={rows} rowKey={(r) => r.id} empty={<h2>No merchants yet</h2>} compare />
      <Pager page={page} totalPages={Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))} trail={trail} hasNext={hasNext} />
    </div>
  );
}

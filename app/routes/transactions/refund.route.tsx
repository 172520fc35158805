// /transactions/{id}/refund: asking for a payment's refund, full or partial, with a reason. The payment,
// what is already refunded or waits for approval, what is left and the merchant's available money are shown; the
// request goes to an administrator who did not ask (/approvals/refund/{id}) and no money moves until then.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import { checkOf, FreshCheck, refusalOf } from "#app/components/forms/fresh-check";
import { useState, type FormEvent } from "react";
import * as v from "valibot";
import { namesOf } from "#server/lists/names.db";
import { notRefundable, RefundFieldError, refundableOf, requestRefund } from "#server/refunds/refund-requests.db";
import { NotFoundError } from "#server/tenancy/tenant";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage, requireTenant } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { Details } from "#app/components/details";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { amountLimitError, cedisAmount, type AmountLimit } from "#app/lib/amount-limits";
import { detailDate, formatAmount } from "#app/lib/format";
import { paths } from "#app/lib/paths";
import { statusLabel } from "#app/lib/statuses";
import { refundedPaymentView } from "#app/lib/transactions-view";
import { formErrors, readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Refund Payment" }];

const TransactionId = v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/), v.transform(Number), v.safeInteger());

async function refundablePayment(request: Request, context: LoaderFunctionArgs["context"], param: string | undefined) {
  // Viewers (and any role without the permission) get the 403 here, on the page as on the form.
  const signedIn = await requireTenant(request, context, "request:refund");
  const { deps, tenant } = signedIn;
  const id = v.safeParse(TransactionId, param ?? "");
  if (!id.success) pageNotFound(request);
  try {
    return { signedIn, deps, tenant, ...(await refundableOf(tenant, id.output)) };
  } catch (error) {
    if (error instanceof NotFoundError) pageNotFound(request);
    throw error;
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, payment, refunded, pending, left, available } = await refundablePayment(request, context, params.transactionId);
  const names = await namesOf(tenant, "merchant", [payment.merchantId]);
  return {
    payment: refundedPaymentView(payment, names.get(payment.merchantId)),
    refunded,
    pending,
    left,
    available,
    refusal: notRefundable(payment) ?? (left === 0 ? "This payment is already refunded in full, or waits for refunds that would refund it in full." : null),
    // A new key for each form shown: submitting it twice asks once.
    idempotencyKey: crypto.randomUUID(),
  };
}

const RefundForm = v.object({
  amount: cedisAmount,
  reason: v.pipe(
    v.string("Say why the payment is refunded."),
    v.trim(),
    v.minLength(3, "Say why the payment is refunded."),
    v.maxLength(500, "Keep the reason under 500 characters."),
  ),
  idempotencyKey: v.pipe(v.string(), v.uuid()),
});

type FieldErrors = Partial<Record<"amount" | "reason" | "form", string>>;

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { signedIn, deps, tenant, payment } = await refundablePayment(request, context, params.transactionId);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  const text = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : "");
  const values = { amount: text(form.amount), reason: text(form.reason) };
  const parsed = v.safeParse(RefundForm, form);
  if (!parsed.success) {
    return refuse(formErrors(parsed.issues, { fields: ["amount", "reason"], otherwise: "This form has expired. Open the refund again." }), values);
  }
  const { amount, reason, idempotencyKey } = parsed.output;
  // The one who asks checks it is them, for this payment and this amount.
  return underFreshCheck(request, signedIn, checkBindings.refund(payment.id, amount), form, async () => {
    let duplicate: boolean;
    try {
      ({ duplicate } = await requestRefund(tenant, deps.meta, { transactionId: payment.id, amount, reason, idempotencyKey }));
    } catch (error) {
      if (error instanceof RefundFieldError) return refuse({ [error.field]: error.message }, values);
      return refuse({ form: refusalMessage(request, error) }, values);
    }
    throw await redirectWithFlash(request, context.config.app, paths.payment(payment.id), {
      kind: "success",
      message: `Refund of GHS ${formatAmount(amount)} sent for approval: an administrator must approve it before any money goes back.${duplicate ? " (It was already sent; nothing was asked twice.)" : ""}`,
    });
  });
}

/** An amount over what is left (or over the available money) is said next to the field as it is typed; the server checks again. */
function RefundAmount({
  limits,
  left,
  available,
  answer,
}: {
  limits: AmountLimit[];
  left: number;
  available: number;
  answer?: { values: { amount?: string }; errors: FieldErrors };
}) {
  const [state, setState] = useState<{ answer: typeof answer; typed: string | null }>({ answer, typed: null });
  if (state.answer !== answer) setState({ answer, typed: null });
  const typed = state.answer === answer ? state.typed : null;
  const error = typed === null ? answer?.errors.amount : (amountLimitError(typed, limits) ?? undefined);
  return (
    <Field
      id="amount"
      label="Amount to refund (GHS)"
      error={error}
      hint={`The full GHS ${formatAmount(left)} left, or less for a partial refund.${
        available < left ? ` The merchant has only GHS ${formatAmount(available)} available: no more can be refunded now.` : ""
      }`}
    >
      <input
        id="amount"
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={answer?.values.amount ?? formatAmount(left)}
        required
        onChange={(event) => setState({ answer, typed: event.currentTarget.value })}
        {...describedBy("amount", error, true)}
      />
    </Field>
  );
}

function refuseOverLimit(event: FormEvent<HTMLFormElement>, limits: AmountLimit[]) {
  const amount = event.currentTarget.elements.namedItem("amount");
  if (amount instanceof HTMLInputElement && amountLimitError(amount.value, limits)) {
    event.preventDefault();
    amount.focus();
  }
}

export default function RefundPayment() {
  const { payment, refunded, pending, left, available, refusal, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const answer = refusalOf(actionData);
  const busy = useSending();
  const errors: FieldErrors = answer?.errors ?? {};
  const limits: AmountLimit[] = [
    { pesewas: left, name: "amount left to refund" },
    { pesewas: available, name: "available balance" },
  ];
  return (
    <div className="page">
      <header className="page__header">
        <p className="breadcrumb">
          <Link to={paths.payment(payment.id)}>{`Transactions / ${payment.reference}`}</Link>
        </p>
        <h1>Refund Payment</h1>
        <p className="page__lead">A refund is a request: an administrator who did not ask must approve it before any money goes back to the payer.</p>
      </header>
      <section className="card" aria-labelledby="payment-heading">
        <h2 id="payment-heading">The payment</h2>
        <Details
          rows={[
            ["Reference", <span className="code">{payment.reference}</span>],
            ["Merchant", payment.merchant],
            ["Channel", payment.method],
            ["Status", statusLabel("transaction", payment.status)],
            ["Paid", detailDate(payment.createdAt)],
            ["Amount (GHS)", formatAmount(payment.amount)],
            ["Already refunded (GHS)", formatAmount(refunded)],
            ["Waiting for approval (GHS)", formatAmount(pending)],
            ["Left to refund (GHS)", formatAmount(left)],
            ["Merchant's available balance (GHS)", formatAmount(available)],
          ]}
        />
      </section>
      {refusal ? (
        <p className="notice notice--warning notice__message" role="status">
          {refusal}
        </p>
      ) : (
        <section className="card" aria-labelledby="refund-heading" data-testid="refund-form">
          <h2 id="refund-heading">Ask for a refund</h2>
          {errors.form ? (
            <p className="notice notice--danger notice__message" role="alert">
              {errors.form}
            </p>
          ) : null}
          <FreshCheck check={checkOf(actionData)} />
          <Form method="post" className="form" noValidate onSubmit={(event) => refuseOverLimit(event, limits)}>
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <RefundAmount limits={limits} left={left} available={available} answer={answer} />
            <Field id="reason" label="Reason" error={errors.reason} hint="What the payer and the merchant agreed, e.g. goods returned.">
              <textarea
                id="reason"
                name="reason"
                rows={3}
                maxLength={500}
                required
                defaultValue={answer?.values.reason ?? ""}
                {...describedBy("reason", errors.reason, true)}
              />
            </Field>
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={busy}>
                {busy ? "Sending…" : "Send for approval"}
              </button>
              <Link to={paths.payment(payment.id)} className="button button--ghost">
                Cancel
              </Link>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}

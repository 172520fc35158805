// /disputes/{disputeId}: the payment, the dispute and the response, one card each. Operations, Finance and
// administrators write the response, attach evidence (PDF, JPEG, PNG or WebP up to 10 MB, its type checked from its
// bytes) and submit it before the deadline; after that, or once the processor closed it, the page is read-only.
// A Viewer reads it; the server refuses their writes (403) whatever the page shows.
import { methodRefusal, readForm } from "#server/forms";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import * as v from "valibot";
import { getDispute, saveResponse, submitResponse } from "#server/disputes/disputes.db";
import { isAnswerable, MAX_EVIDENCE_BYTES, reasonCodeLabel, MAX_EVIDENCE_FILES, MAX_RESPONSE_CHARS } from "#server/disputes/dispute-rules";
import { uploadEvidence } from "#server/disputes/evidence-upload";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage, requirePermission, requireTenant } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { Details } from "#app/components/details";
import { describedBy, Field, useSending } from "#app/components/forms/form";
import { StatusPill } from "#app/components/status-pill";
import { deadlineLabel, dueDay } from "#app/lib/disputes";
import { calendarDay, detailDate, formatAmount, formatCount, proseDate, tableDate } from "#app/lib/format";
import { paths } from "#app/lib/paths";
import { paymentMethod } from "#app/lib/transactions-view";

export const meta: MetaFunction = () => [{ title: "Dispute" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:dispute");
  const dispute = params.disputeId ? await getDispute(tenant, params.disputeId) : null;
  if (!dispute) pageNotFound(request);
  const now = deps.now();
  return {
    now,
    dispute: {
      ...dispute,
      evidence: dispute.evidence.map((e) => ({ id: e.id, fileName: e.fileName, contentType: e.contentType, size: e.size, uploadedAt: e.uploadedAt })),
    },
    canAnswer: can(tenant.role, "respond:dispute") && isAnswerable(dispute, now),
    mayAnswer: can(tenant.role, "respond:dispute"),
  };
}

const Intent = v.variant("intent", [
  v.object({
    intent: v.literal("respond"),
    response: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, "Write the response: what happened, and what the evidence shows."),
      v.maxLength(MAX_RESPONSE_CHARS, `Keep the response to ${formatCount(MAX_RESPONSE_CHARS)} characters.`),
    ),
  }),
  v.object({ intent: v.literal("submit") }),
]);

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:dispute");
  requirePermission(tenant, "respond:dispute");
  const id = params.disputeId ?? "";
  const back = paths.dispute(id);
  const wrongMethod = methodRefusal(request);
  if (wrongMethod) return wrongMethod;
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    const answer = await uploadEvidence(request, context.cloudflare.env.EVIDENCE, tenant, deps.meta, id, deps.now());
    if ("errors" in answer) return refuse(answer.errors, null, "upload");
    throw await redirectWithFlash(request, context.config.app, back, { kind: "success", message: `${answer.fileName} attached.` });
  }
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(Intent, read.fields);
  if (!parsed.success) return refuse({ response: parsed.issues[0].message }, null, "respond");
  try {
    if (parsed.output.intent === "respond") await saveResponse(tenant, deps.meta, id, parsed.output.response, deps.now());
    else await submitResponse(tenant, deps.meta, id, deps.now());
  } catch (error) {
    return refuse({ form: refusalMessage(request, error) }, null, parsed.output.intent);
  }
  const message =
    parsed.output.intent === "respond" ? "Response saved. Submit it when the evidence is attached." : "Response submitted: it can no longer be changed.";
  throw await redirectWithFlash(request, context.config.app, back, { kind: "success", message });
}

const MEGABYTE = 1024 * 1024;
const sizeText = (bytes: number) => (bytes >= MEGABYTE ? `${(bytes / MEGABYTE).toFixed(1)} MB` : `${formatCount(Math.max(1, Math.round(bytes / 1024)))} KB`);
const TYPE_WORDS: Record<string, string> = { "application/pdf": "PDF", "image/jpeg": "JPEG photo", "image/png": "PNG image", "image/webp": "WebP image" };

export default function DisputePage() {
  const { now, dispute, canAnswer, mayAnswer } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useSending();
  // The one thing the server refuses a submission for while the dispute is open: no saved written response.
  const unwritten = dispute.responseText.trim() === "";
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const deadline = deadlineLabel(dispute.evidenceDueAt, now);
  const fileError = tooLarge ?? (answer?.intent === "upload" ? answer.errors.file : undefined);
  const readOnlyWhy =
    dispute.status === "won" || dispute.status === "lost"
      ? `The dispute was closed as ${dispute.status}.`
      : dispute.status === "submitted"
        ? `The response was submitted${dispute.submittedByName ? ` by ${dispute.submittedByName}` : ""} on ${proseDate(dispute.submittedAt)}: it can no longer be changed.`
        : deadline.overdue
          ? "The deadline for evidence has passed: the response can no longer be changed."
          : mayAnswer
            ? null
            : "Your role reads disputes: Operations, Finance and administrators answer them.";
  return (
    <div className="page">
      <header className="page__header">
        <p className="breadcrumb">
          <Link to={paths.disputes()}>Disputes</Link>
        </p>
        <h1>Dispute</h1>
        <p className="page__lead">
          <StatusPill entity="dispute" status={dispute.status} />{" "}
          {dispute.status === "open" ? <span className={deadline.overdue ? "status status--bad" : "status status--wait"}>{deadline.text}</span> : null}
        </p>
      </header>
      {answer?.errors.form ? (
        <p className="notice notice--danger notice__message" role="alert">
          {answer.errors.form}
        </p>
      ) : null}
      <section className="card" aria-labelledby="payment-heading">
        <h2 id="payment-heading">The payment</h2>
        <Details
          rows={
            [
              ["Reference", <span className="code">{dispute.paymentReference}</span>],
              ["Merchant", dispute.merchantName],
              ["Method", paymentMethod({ channel: dispute.paymentChannel, network: dispute.paymentNetwork })],
              ["Amount (GHS)", formatAmount(dispute.paymentAmount)],
              ["Paid", detailDate(dispute.paymentCreatedAt)],
            ] as const
          }
        />
      </section>
      <section className="card" aria-labelledby="dispute-heading">
        <h2 id="dispute-heading">The dispute</h2>
        <Details
          rows={
            [
              ["Reason code", reasonCodeLabel(dispute.reasonCode)],
              ["Disputed (GHS)", formatAmount(dispute.amount)],
              ["Opened", detailDate(dispute.openedAt)],
              ["Evidence due by", `${calendarDay(dueDay(dispute.evidenceDueAt))} (end of day, Accra)`],
              ...(dispute.closedAt ? ([["Closed", detailDate(dispute.closedAt)]] as const) : []),
            ] as const
          }
        />
      </section>
      <section className="card" aria-labelledby="response-heading">
        <h2 id="response-heading">The response</h2>
        {readOnlyWhy ? <p className="notice notice--info notice__message">{readOnlyWhy}</p> : null}
        {canAnswer ? (
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="respond" />
            <Field id="response" label="Response to the scheme or network" error={answer?.intent === "respond" ? answer.errors.response : undefined}>
              <textarea
                id="response"
                name="response"
                rows={6}
                maxLength={MAX_RESPONSE_CHARS}
                defaultValue={dispute.responseText}
                {...describedBy("response", answer?.intent === "respond" ? answer.errors.response : undefined)}
              />
            </Field>
            <button type="submit" className="button" disabled={busy}>
              Save response
            </button>
          </Form>
        ) : (
          <p className="dispute-response" data-testid="response-text">
            {dispute.responseText || "No response was written."}
          </p>
        )}
        <h3>{`Evidence (${formatCount(dispute.evidence.length)})`}</h3>
        {dispute.evidence.length === 0 ? (
          <p>No files attached.</p>
        ) : (
          <ul className="latest" data-testid="evidence">
            {dispute.evidence.map((e) => (
              <li key={e.id} className="latest__item">
                <div>
                  <a href={paths.disputeEvidence(dispute.id, e.id)} download>
                    {/* A stored name from before the rule cannot turn the words after it around. */}
                    <bdi>{e.fileName}</bdi>
                  </a>
                  <span className="cell-sub">{`${TYPE_WORDS[e.contentType] ?? e.contentType} · ${sizeText(e.size)} · ${tableDate(e.uploadedAt)}`}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
        {canAnswer && dispute.evidence.length < MAX_EVIDENCE_FILES ? (
          <Form
            method="post"
            encType="multipart/form-data"
            className="form"
            onSubmit={(event) => {
              // Said before a large file is sent at all; the server checks again.
              const file = (event.currentTarget.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
              if (file && file.size > MAX_EVIDENCE_BYTES) {
                event.preventDefault();
                setTooLarge(`${file.name} is ${sizeText(file.size)}: a file may be at most 10 MB.`);
              } else setTooLarge(null);
            }}
          >
            <Field id="file" label="Attach a file" hint="A receipt, a photo or a PDF: PDF, JPEG, PNG or WebP, up to 10 MB." error={fileError}>
              <input
                id="file"
                name="file"
                type="file"
                accept="application/pdf,image/jpeg,image/png,image/webp"
                required
                {...describedBy("file", fileError, true)}
              />
            </Field>
            <button type="submit" className="button" disabled={busy}>
              Upload
            </button>
          </Form>
        ) : null}
        {canAnswer ? (
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="submit" />
            <p className="field-hint">Submitting sends the response and its evidence: nothing can be changed afterwards.</p>
            <button type="submit" className="button button--primary" disabled={busy || unwritten} aria-describedby={unwritten ? "submit-blocked" : undefined}>
              Submit the response
            </button>
            {unwritten ? (
              <p className="field-hint" id="submit-blocked">
                Write the response above and save it first: the scheme or network reads it with the evidence.
              </p>
            ) : null}
          </Form>
        ) : null}
      </section>
    </div>
  );
}

// /settings/developers/endpoints/{endpointId}: one webhook endpoint's delivery log,
// the newest the portal made first (a payment sent
// days late is a new delivery, not an old one), each delivery with the payment it is
// about, why it failed, and every attempt (when, the answer's status or none,
// latency, error, the answer's first KB); "Send again" per delivery (under a fresh
// check) and "Send a test event". Administrators and Super Administrators only;
// another business's endpoint is a 404.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { numberedPage } from "#server/lists/page";
import { getWebhookEndpoint } from "#server/webhooks/endpoints.db";
import { listWebhookDeliveries } from "#server/webhooks/delivery-log.db";
import { requirePermission, requireTenant } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { Pager } from "#app/components/lists/data-table";
import { StatusPill } from "#app/components/status-pill";
import { detailDate, formatCount, proseDate, tableDate } from "#app/lib/format";
import { readPage, readTrail } from "#app/lib/lists/list-url";
import { paths } from "#app/lib/paths";
import { ENDPOINTS_URL, outcomeText, repeatsStatus } from "./webhook-endpoints";
import { checkOf, FreshCheck } from "#app/components/forms/fresh-check";
import { endpointsAction, isEndpointIntent } from "./developers-endpoints.server";
import { EndpointStatus, EventChips } from "./endpoint-badges";
import { ErrorNotice } from "#app/routes/settings/notice";
import { NOT_UNDERSTOOD } from "#app/routes/settings/tabs";
import { RESEND_FAILED_LIMIT } from "#server/webhooks/recovery.db";
import { DAY_MS } from "#server/plumbing/time";
import { useSending } from "#app/components/forms/form";
import { DateInput } from "#app/components/lists/period-picker";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Delivery Log" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "manage:developer");
  const endpoint = await getWebhookEndpoint(tenant, params.endpointId ?? "");
  if (!endpoint) pageNotFound(request);
  const url = new URL(request.url);
  const result = await numberedPage((after) => listWebhookDeliveries(tenant, endpoint.id, { after }), readTrail(url.searchParams), readPage(url.searchParams));
  return {
    endpoint: {
      id: endpoint.id,
      url: endpoint.url,
      description: endpoint.description,
      eventTypes: endpoint.eventTypes,
      status: endpoint.status,
      disabledReason: endpoint.disabledReason,
      disabledAt: endpoint.disabledAt,
      lastSuccessAt: endpoint.lastSuccessAt,
    },
    deliveries: result.rows.map((d) => ({
      id: d.id,
      eventId: d.eventId,
      eventType: d.eventType,
      eventAt: d.eventAt,
      madeAt: d.createdAt,
      paymentReference: d.paymentReference,
      status: d.status,
      // Why a delivery failed for good when no attempt says it (its endpoint was disabled) or the portal itself failed.
      lastError: d.lastError,
      attempts: d.attempts,
      nextAttemptAt: d.status === "pending" ? d.nextAttemptAt : null,
      attemptLog: d.attemptLog.map((a) => ({
        id: a.id,
        attempt: a.attempt,
        at: a.at,
        responseStatus: a.responseStatus,
        latencyMs: a.latencyMs,
        responseBody: a.responseBody,
        error: a.error,
        manual: a.manual,
      })),
    })),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    // "Send again every failed delivery since": a day ago by default (Accra's time is UTC): its day and its time of day.
    resendSince: new Date(Date.now() - DAY_MS).toISOString().slice(0, 16).split("T") as [string, string],
    resendLimit: RESEND_FAILED_LIMIT,
  };
}

// No cache keeps the log, nor the answer to "Reveal secret".
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

// A lost connection while sending keeps the page, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

/** This endpoint's intents (the Developers tab's handler): a form naming another endpoint is refused as unknown. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const signedIn = await requireTenant(request, context, null);
  const { tenant } = signedIn;
  requirePermission(tenant, "manage:developer");
  const endpoint = await getWebhookEndpoint(tenant, params.endpointId ?? "");
  if (!endpoint) pageNotFound(request);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  // This page acts on its own endpoint only; endpoints are added on the Developers tab.
  if (!isEndpointIntent(form.intent) || form.intent === "create") return refuse({ form: NOT_UNDERSTOOD });
  if (form.endpointId !== endpoint.id) pageNotFound(request);
  return endpointsAction(request, context, signedIn, form, paths.webhookEndpointLog(endpoint.id));
}

type Delivery = ReturnType<typeof useLoaderData<typeof loader>>["deliveries"][number];

export default function EndpointLog() {
  const { endpoint, deliveries, page, trail, hasNext, resendSince, resendLimit } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = useSending();
  const sendingTest = busy && navigation.formData?.get("intent") === "test";
  return (
    <div className="page">
      <FreshCheck check={checkOf(answer)} />
      <header className="page__header">
        <p className="breadcrumb">
          <Link to={ENDPOINTS_URL}>Settings · Developers</Link>
        </p>
        <h1>Delivery Log</h1>
        <p className="page__lead endpoint__url">{endpoint.url}</p>
      </header>
      <section className="card endpoint" aria-label="Endpoint">
        <div className="endpoint__head">
          {endpoint.description ? <p className="endpoint__description">{endpoint.description}</p> : <span />}
          <EndpointStatus endpoint={endpoint} />
        </div>
        <EventChips eventTypes={endpoint.eventTypes} label="Event types" />
        <p className="cell-sub">Last success: {endpoint.lastSuccessAt ? proseDate(endpoint.lastSuccessAt) : "never"}</p>
        {answer && "errors" in answer && answer.intent !== `resend-failed:${endpoint.id}` ? <ErrorNotice error={answer.errors.form} /> : null}
        {answer && "result" in answer ? (
          <p className={`notice ${answer.result.delivered ? "notice--success" : "notice--danger"}`} role="status">
            Test event: {outcomeText(answer.result)}
          </p>
        ) : null}
        <div className="button-row">
          {endpoint.status === "enabled" ? (
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="test" />
              <input type="hidden" name="endpointId" value={endpoint.id} />
              <button type="submit" className="button button--primary" disabled={busy}>
                {sendingTest ? "Sending…" : "Send a test event"}
              </button>
            </Form>
          ) : (
            <p className="field-hint">Enable the endpoint on the Developers tab to send to it.</p>
          )}
          <Link to={ENDPOINTS_URL} className="button">
            Back to Developers
          </Link>
        </div>
        {endpoint.status === "enabled" ? (
          <ResendFailed
            endpointId={endpoint.id}
            defaultSince={resendSince}
            limit={resendLimit}
            busy={busy}
            refusal={answer && "errors" in answer && answer.intent === `resend-failed:${endpoint.id}` ? answer.errors : null}
          />
        ) : null}
      </section>
      {deliveries.length === 0 ? (
        <div className="card empty-state">
          <h2>No deliveries yet</h2>
          <p>Each event this endpoint subscribes to appears here with every attempt to deliver it. Send a test event to see one now.</p>
        </div>
      ) : (
        <ol className="delivery-list" aria-label="Deliveries, newest first">
          {deliveries.map((delivery) => (
            <DeliveryItem key={delivery.id} delivery={delivery} endpointId={endpoint.id} busy={busy} canSend={endpoint.status === "enabled"} />
          ))}
        </ol>
      )}
      <Pager page={page} totalPages={null} trail={trail} hasNext={hasNext} />
    </div>
  );
}

/** After the receiver was down: every delivery that failed for good since a time is sent again, each with a fresh retry window. */
function ResendFailed({
  endpointId,
  defaultSince,
  limit,
  busy,
  refusal,
}: {
  endpointId: string;
  /** YYYY-MM-DD and HH:MM. */
  defaultSince: [string, string];
  limit: number;
  busy: boolean;
  refusal: Record<string, string> | null;
}) {
  const navigation = useNavigation();
  const sending = busy && navigation.formData?.get("intent") === "resend-failed";
  return (
    <Form method="post" preventScrollReset className="resend-failed" aria-labelledby="resend-failed-title">
      <h2 id="resend-failed-title" className="card__title">
        Send failed deliveries again
      </h2>
      <input type="hidden" name="intent" value="resend-failed" />
      <input type="hidden" name="endpointId" value={endpointId} />
      <div className="form-grid resend-failed__since">
        <div className="field">
          <label htmlFor="resend-failed-since-day">Failed deliveries made since: day</label>
          <DateInput
            id="resend-failed-since-day"
            name="sinceDay"
            label="since"
            required
            defaultValue={defaultSince[0]}
            aria-invalid={refusal?.sinceDay ? true : undefined}
            aria-describedby={refusal?.sinceDay ? "resend-failed-since-day-error" : undefined}
          />
          {refusal?.sinceDay ? (
            <p id="resend-failed-since-day-error" className="field-error">
              {refusal.sinceDay}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="resend-failed-since-time">Time (Accra, 24-hour)</label>
          <input
            id="resend-failed-since-time"
            name="sinceTime"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            placeholder="HH:MM"
            required
            defaultValue={defaultSince[1]}
            aria-invalid={refusal?.sinceTime ? true : undefined}
            aria-describedby={refusal?.sinceTime ? "resend-failed-since-time-error" : undefined}
          />
          {refusal?.sinceTime ? (
            <p id="resend-failed-since-time-error" className="field-error">
              {refusal.sinceTime}
            </p>
          ) : null}
        </div>
      </div>
      <p className="field-hint">
        Each delivery that failed for good since then is sent again within a minute, with a new 24-hour retry window. At most {formatCount(limit)} at a time.
        You will be asked to confirm it is you.
      </p>
      {refusal?.form ? <ErrorNotice error={refusal.form} /> : null}
      <button type="submit" className="button" disabled={busy}>
        {sending ? "Sending…" : "Send failed deliveries again"}
      </button>
    </Form>
  );
}

function DeliveryItem({ delivery, endpointId, busy, canSend }: { delivery: Delivery; endpointId: string; busy: boolean; canSend: boolean }) {
  return (
    <li className="card delivery" aria-labelledby={`delivery-${delivery.id}`}>
      <div className="delivery__head">
        <h2 className="card__title delivery__type" id={`delivery-${delivery.id}`}>
          {delivery.eventType}
        </h2>
        <StatusPill entity="webhook_delivery" status={delivery.status} />
      </div>
      <dl className="details">
        {delivery.paymentReference ? (
          <div className="details__row details__row--wide">
            <dt>Payment reference</dt>
            <dd>
              <bdi className="code">{delivery.paymentReference}</bdi>
            </dd>
          </div>
        ) : null}
        <div className="details__row details__row--wide">
          <dt>Event</dt>
          <dd>
            <code>{delivery.eventId}</code>
          </dd>
        </div>
        <div className="details__row">
          <dt>Made</dt>
          <dd>{detailDate(delivery.madeAt)}</dd>
        </div>
        {delivery.eventAt !== delivery.madeAt ? (
          <div className="details__row">
            <dt>Happened</dt>
            <dd>{detailDate(delivery.eventAt)}</dd>
          </div>
        ) : null}
        <div className="details__row">
          <dt>Attempts</dt>
          <dd>{formatCount(delivery.attempts)}</dd>
        </div>
        {delivery.nextAttemptAt ? (
          <div className="details__row">
            <dt>Next attempt</dt>
            <dd>{detailDate(delivery.nextAttemptAt)}</dd>
          </div>
        ) : null}
      </dl>
      {delivery.status === "failed" && delivery.lastError && delivery.lastError !== delivery.attemptLog.at(-1)?.error ? (
        <p className="attempt__error" role="note">
          Failed: {delivery.lastError}
        </p>
      ) : null}
      {delivery.attemptLog.length ? (
        <ol className="attempt-list" aria-label={`Attempts of ${delivery.eventType} ${delivery.eventId}`}>
          {delivery.attemptLog.map((a) => (
            <li key={a.id} className="attempt">
              <p className="attempt__line">
                <strong>Attempt {a.attempt}</strong>
                <span>{tableDate(a.at)}</span>
                <span className={a.responseStatus !== null && a.responseStatus >= 200 && a.responseStatus < 300 ? "status status--good" : "status status--bad"}>
                  {a.responseStatus === null ? "No answer" : a.responseStatus}
                </span>
                <span>{a.latencyMs === null ? "N/A" : `${formatCount(a.latencyMs)} ms`}</span>
                {a.manual ? <span className="cell-sub">Sent by a person</span> : null}
              </p>
              {a.error && !repeatsStatus(a.error, a.responseStatus) ? <p className="attempt__error">{a.error}</p> : null}
              {a.responseBody ? (
                <details className="attempt__body">
                  <summary>Response (first KB)</summary>
                  <pre>{a.responseBody}</pre>
                </details>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="field-hint">Not attempted yet.</p>
      )}
      {canSend ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="endpointId" value={endpointId} />
          <input type="hidden" name="deliveryId" value={delivery.id} />
          <button type="submit" className="button" disabled={busy} aria-label={`Send ${delivery.eventType} ${delivery.eventId} again`}>
            Send again
          </button>
        </Form>
      ) : null}
    </li>
  );
}

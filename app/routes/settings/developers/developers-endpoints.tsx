// The webhook endpoints section of Settings > Developers:
// each endpoint with its status, event types and last success, its actions
// (test, reveal and roll the secret, edit, enable or disable, delete), a link to
// its delivery log, and the form that adds one. The forms post to the tab
// (ENDPOINTS_FORM_ACTION), whose action hands ENDPOINT_INTENTS to endpointsAction.
import { Form, Link } from "@remix-run/react";
import { Field, describedBy, useSending } from "#app/components/forms/form";
import { proseDate } from "#app/lib/format";
import type { WebhookEventType } from "#server/webhooks/types";
import { paths } from "#app/lib/paths";
import { ENDPOINTS_FORM_ACTION, eventFieldName, outcomeText } from "./webhook-endpoints";
import { EndpointStatus, EventChips } from "./endpoint-badges";
import { ErrorNotice } from "#app/routes/settings/notice";
import type { EndpointActionData, EndpointsData, EndpointValues } from "./developers-endpoints.server";

type Endpoint = EndpointsData["endpoints"][number];

/** What an endpoint intent answered: a refusal (by field, with what was typed) or reveal's and test's data. */
type Answer = { intent?: string; errors: Record<string, string>; values: EndpointValues | null } | EndpointActionData;

/** The part of the tab's action data that is this section's (the tab's other forms answer too). */
function answerOf(actionData: unknown): Answer | null {
  if (!actionData || typeof actionData !== "object") return null;
  const intent = (actionData as { intent?: unknown }).intent;
  if (typeof intent !== "string") return null;
  return /^(create|edit|enable|disable|delete|roll|reveal|test|resend|resend-failed)(:|$)/.test(intent) ? (actionData as Answer) : null;
}

export function EndpointsSection({ endpoints: loaded, actionData }: { endpoints: EndpointsData; actionData: unknown }) {
  const answer = answerOf(actionData);
  return (
    <section className="settings-panel" id="endpoints" aria-labelledby="endpoints-title">
      <div className="page__header--actions">
        <div>
          <h2 id="endpoints-title">Webhook endpoints</h2>
          <p className="page__lead">Your servers get a signed POST for each event they subscribe to, within seconds of it happening.</p>
        </div>
        <a href="#new-endpoint" className="button button--primary">
          Add endpoint
        </a>
      </div>
      {loaded.endpoints.length === 0 ? (
        <div className="card empty-state">
          <h3 className="card__title">No webhook endpoints yet</h3>
          <p>Add an endpoint to hear about payments, settlements, transfers, approvals and silent terminals as they happen, instead of asking the API.</p>
        </div>
      ) : (
        <ul className="endpoint-list" aria-label="Webhook endpoints">
          {loaded.endpoints.map((endpoint) => (
            <EndpointCard key={endpoint.id} endpoint={endpoint} eventTypes={loaded.eventTypes} currentVersion={loaded.currentVersion} answer={answer} />
          ))}
        </ul>
      )}
      <EndpointForm
        eventTypes={loaded.eventTypes}
        answer={answer?.intent === "create" && "errors" in answer ? answer : null}
        resetKey={loaded.endpoints.map((e) => e.id).join(" ")}
      />
    </section>
  );
}

function EndpointCard({
  endpoint,
  eventTypes,
  currentVersion,
  answer,
}: {
  endpoint: Endpoint;
  eventTypes: readonly WebhookEventType[];
  currentVersion: string;
  answer: Answer | null;
}) {
  const busy = useSending();
  const mine = answer && (answer.intent?.endsWith(`:${endpoint.id}`) || ("endpointId" in answer && answer.endpointId === endpoint.id)) ? answer : null;
  const refusal = mine && "errors" in mine ? mine : null;
  const editRefusal = refusal?.intent === `edit:${endpoint.id}` ? refusal : null;
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="endpointId" value={endpoint.id} />
    </>
  );
  return (
    <li className="card endpoint" aria-labelledby={`endpoint-${endpoint.id}`}>
      <div className="endpoint__head">
        <h3 className="card__title endpoint__url" id={`endpoint-${endpoint.id}`}>
          {endpoint.url}
        </h3>
        <EndpointStatus endpoint={endpoint} />
      </div>
      {endpoint.description ? <p className="endpoint__description">{endpoint.description}</p> : null}
      <EventChips eventTypes={endpoint.eventTypes} label={`Event types of ${endpoint.url}`} />
      <p className="cell-sub">
        Last success: {endpoint.lastSuccessAt ? proseDate(endpoint.lastSuccessAt) : "never"}
        {endpoint.rollingUntil ? ` · The previous secret also signs until ${proseDate(endpoint.rollingUntil)}` : ""}
      </p>
      <p className="cell-sub">
        {`API version ${endpoint.apiVersion}: deliveries carry that version's shapes.`}
        {endpoint.olderVersion
          ? ` In version ${currentVersion} each event's data is the object as the API's GET answers it: to receive that, add a new endpoint (it gets the current version), move your receiver to it and delete this one.`
          : ""}
      </p>
      {refusal && !editRefusal ? <ErrorNotice error={refusal.errors.form} /> : null}
      {mine && mine.intent === "test" && "result" in mine ? (
        <p className={`notice ${mine.result.delivered ? "notice--success" : "notice--danger"}`} role="status">
          Test event: {outcomeText(mine.result)}
        </p>
      ) : null}
      {mine && mine.intent === "reveal" && "secret" in mine ? (
        <div className="notice notice--info endpoint__secret" role="status">
          <p>Signing secret (keep it on your server; it is not shown again unless you reveal it):</p>
          <code>{mine.secret}</code>
          {mine.previousSecret ? (
            <>
              <p>Previous secret, still signing until the roll ends:</p>
              <code>{mine.previousSecret}</code>
            </>
          ) : null}
        </div>
      ) : null}
      <div className="button-row">
        <Link to={paths.webhookEndpointLog(endpoint.id)} className="button">
          Delivery log
        </Link>
        {endpoint.status === "enabled" ? (
          <Form method="post" action={ENDPOINTS_FORM_ACTION} preventScrollReset>
            {hidden("test")}
            <button type="submit" className="button" disabled={busy}>
              Send a test event
            </button>
          </Form>
        ) : null}
        <Form method="post" action={ENDPOINTS_FORM_ACTION} preventScrollReset>
          {hidden("reveal")}
          <button type="submit" className="button" disabled={busy}>
            Reveal secret
          </button>
        </Form>
        <Form method="post" action={ENDPOINTS_FORM_ACTION}>
          {hidden(endpoint.status === "enabled" ? "disable" : "enable")}
          <button type="submit" className="button" disabled={busy}>
            {endpoint.status === "enabled" ? "Disable" : "Enable"}
          </button>
        </Form>
      </div>
      <details className="endpoint__more" open={editRefusal ? true : undefined}>
        <summary>Edit URL and event types</summary>
        <EndpointForm
          eventTypes={eventTypes}
          endpoint={endpoint}
          answer={editRefusal}
          resetKey={JSON.stringify([endpoint.url, endpoint.description, endpoint.eventTypes])}
        />
      </details>
      <details className="endpoint__more">
        <summary>Roll secret…</summary>
        <Form method="post" action={ENDPOINTS_FORM_ACTION} className="endpoint__confirm">
          {hidden("roll")}
          <p>
            A new secret signs every delivery from now on. The old one keeps signing them too (a second signature) for 24 hours: install the new secret on your
            server within that time.
          </p>
          <button type="submit" name="confirm" value="yes" className="button button--primary" disabled={busy}>
            Roll the secret
          </button>
        </Form>
      </details>
      <details className="endpoint__more">
        <summary>Delete…</summary>
        <Form method="post" action={ENDPOINTS_FORM_ACTION} className="endpoint__confirm">
          {hidden("delete")}
          <p>Nothing more is sent to {endpoint.url}, and its delivery log is deleted. This cannot be undone.</p>
          <button type="submit" name="confirm" value="yes" className="button button--danger" disabled={busy}>
            Delete the endpoint
          </button>
        </Form>
      </details>
    </li>
  );
}

type FormAnswer = { errors: Record<string, string>; values: EndpointValues | null } | null;

function EndpointForm({
  eventTypes,
  endpoint,
  answer,
  resetKey,
}: {
  eventTypes: readonly WebhookEventType[];
  endpoint?: Endpoint;
  answer: FormAnswer;
  /** Changes when what the form starts from changes (an endpoint added, or this one saved): the form then starts afresh. */
  resetKey: string;
}) {
  const busy = useSending();
  const errors = answer?.errors ?? {};
  const values = answer?.values ?? (endpoint ? { url: endpoint.url, description: endpoint.description, eventTypes: endpoint.eventTypes } : null);
  const prefix = endpoint ? `edit-${endpoint.id}` : "new-endpoint";
  const intent = endpoint ? "edit" : "create";
  const sending = useSending(intent);
  const body = (
    // Emptied once an endpoint is added (or refilled once this one is saved), never by another form's send: what is typed here stays.
    <Form method="post" action={ENDPOINTS_FORM_ACTION} className="form endpoint-form" noValidate key={resetKey}>
      <input type="hidden" name="intent" value={intent} />
      {endpoint ? <input type="hidden" name="endpointId" value={endpoint.id} /> : null}
      <ErrorNotice error={errors.form} />
      <Field id={`${prefix}-url`} label="URL" hint="An https address your server listens on, like https://example.com/webhooks/portal." error={errors.url}>
        <input
          id={`${prefix}-url`}
          name="url"
          type="url"
          inputMode="url"
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          required
          defaultValue={values?.url}
          {...describedBy(`${prefix}-url`, errors.url, true)}
        />
      </Field>
      <Field id={`${prefix}-description`} label="Description (optional)" error={errors.description}>
        <input
          id={`${prefix}-description`}
          name="description"
          autoComplete="off"
          maxLength={500}
          defaultValue={values?.description}
          {...describedBy(`${prefix}-description`, errors.description)}
        />
      </Field>
      <fieldset className="endpoint-form__events" aria-describedby={errors.eventTypes ? `${prefix}-events-error` : undefined}>
        <legend>Event types</legend>
        {eventTypes.map((type) => (
          <label key={type} className="checkbox">
            <input type="checkbox" name={eventFieldName(type)} value="on" defaultChecked={values?.eventTypes.includes(type)} />
            {type}
          </label>
        ))}
        {errors.eventTypes ? (
          <p className="field-error" id={`${prefix}-events-error`} role="alert">
            {errors.eventTypes}
          </p>
        ) : null}
      </fieldset>
      <div className="button-row">
        <button type="submit" className="button button--primary" disabled={busy}>
          {sending ? "Saving…" : endpoint ? "Save changes" : "Add endpoint"}
        </button>
      </div>
    </Form>
  );
  if (endpoint) return body;
  return (
    <section className="card" id="new-endpoint" aria-labelledby="new-endpoint-title">
      <h3 id="new-endpoint-title" className="card__title">
        Add a webhook endpoint
      </h3>
      <p className="field-hint">
        What will happen: for each event you choose, the portal sends a POST with a JSON body to this URL and signs it with a secret only your business and the
        portal know (the Standard Webhooks headers, which its libraries verify unchanged, and PP-Signature). After adding, reveal the secret and check every
        delivery&apos;s signature with it. An answer other than 2xx is retried for 24 hours; an endpoint that fails for 24 hours is disabled and your
        administrators are told.
      </p>
      {body}
    </section>
  );
}

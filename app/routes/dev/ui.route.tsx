// Development only: every shared UI piece of the shell on one page (alerts, the
// response modal, the error handler, flash after redirect, error pages, the
// display formats), for building screens against and for the end-to-end tests.
// In production it is a 404 like any page that fails its page-level check.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { useState } from "react";
import * as v from "valibot";
import { redirectWithFlash } from "#server/plumbing/flash";
import { pageNotFound } from "#server/plumbing/http";
import { useNotifications } from "#app/components/notifications";
import {
  axisDay,
  calendarDay,
  detailDate,
  fieldDay,
  formatAmount,
  formatCount,
  formatPathLike,
  formatPercentage,
  proseDate,
  replaceBrandWords,
  tableDate,
} from "#app/lib/format";
import { NOTICE_KINDS } from "#app/lib/shell/notifications";
import { pageWindow } from "#app/lib/lists/pagination";
import { formErrors, readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "UI kit" }];

function requireDevelopment(request: Request, environment: string) {
  if (environment === "production") pageNotFound(request);
}

export function loader({ request, context }: LoaderFunctionArgs) {
  requireDevelopment(request, context.config.app.environment);
  if (new URL(request.url).searchParams.get("fail") === "loader") {
    throw new Error("Deliberate failure from the UI kit: internal detail that must never reach the browser");
  }
  return null;
}

const FlashForm = v.object({
  intent: v.literal("flash"),
  kind: v.picklist(NOTICE_KINDS),
  message: v.pipe(v.string(), v.trim(), v.minLength(1, "Type a message"), v.maxLength(200, "At most 200 characters")),
});

type FlashFormErrors = Partial<Record<"kind" | "message", string>>;

export async function action({ request, context }: ActionFunctionArgs) {
  requireDevelopment(request, context.config.app.environment);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(FlashForm, read.fields);
  if (!parsed.success) {
    return data({ errors: formErrors(parsed.issues) }, { status: 400 });
  }
  const { kind, message } = parsed.output;
  return redirectWithFlash(request, context.config.app, "/__dev/ui", { kind, message });
}

const SAMPLE_INSTANT = "2026-11-21T16:05:00Z";

function RenderFailure(): never {
  throw new Error("Deliberate render failure from the UI kit");
}

export default function UiKit() {
  const { showAlert, resetAlert, showResponse, handleError } = useNotifications();
  const [failRender, setFailRender] = useState(false);
  const errors = useActionData<{ errors: FlashFormErrors }>()?.errors;

  return (
    <div className="page">
      <header className="page__header">
        <h1>UI kit</h1>
        <p className="page__lead">Development only. The shared pieces every screen uses.</p>
      </header>

      <section className="card" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Alerts</h2>
        <div className="button-row">
          {NOTICE_KINDS.map((kind) => (
            <button key={kind} type="button" className="button" onClick={() => showAlert({ kind, message: `A ${kind} alert.` })}>
              Show {kind}
            </button>
          ))}
          <button
            type="button"
            className="button"
            onClick={() => showAlert({ kind: "warning", message: "A priority alert stays 12 seconds.", priority: true })}
          >
            Priority alert
          </button>
          <button type="button" className="button button--ghost" onClick={resetAlert}>
            Reset alert
          </button>
        </div>
      </section>

      <section className="card" aria-labelledby="response-title-kit">
        <h2 id="response-title-kit">Response modal</h2>
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={() => showResponse({ kind: "success", title: "Request submitted", message: "The change waits for a second person to approve it." })}
          >
            Show response
          </button>
          <button
            type="button"
            className="button"
            onClick={() => showResponse({ kind: "info", message: "A priority response closes itself after 12 seconds.", priority: true })}
          >
            Priority response
          </button>
        </div>
      </section>

      <section className="card" aria-labelledby="handler-title">
        <h2 id="handler-title">Error handler</h2>
        <div className="button-row">
          <button type="button" className="button" onClick={() => handleError({ data: { message: "Message from data" }, message: "ignored" })}>
            data.message
          </button>
          <button type="button" className="button" onClick={() => handleError({ response: { data: { message: "Message from response data" } } })}>
            response.data.message
          </button>
          <button type="button" className="button" onClick={() => handleError(new Error("Message of the error"))}>
            error.message
          </button>
          <button type="button" className="button" onClick={() => handleError({}, { fallback: "The fallback message" })}>
            fallback
          </button>
          <button type="button" className="button" onClick={() => handleError({})}>
            no message
          </button>
        </div>
      </section>

      <section className="card" aria-labelledby="flash-title">
        <h2 id="flash-title">Flash after redirect</h2>
        <Form method="post" className="inline-form">
          <input type="hidden" name="intent" value="flash" />
          <label>
            Kind
            <select name="kind" defaultValue="success">
              {NOTICE_KINDS.map((kind) => (
                <option key={kind}>{kind}</option>
              ))}
            </select>
          </label>
          <label>
            Message
            <input
              name="message"
              defaultValue="Saved and redirected."
              maxLength={200}
              aria-invalid={errors?.message ? true : undefined}
              aria-describedby={errors?.message ? "flash-message-error" : undefined}
            />
            {errors?.message ? (
              <span id="flash-message-error" className="field-error">
                {errors.message}
              </span>
            ) : null}
          </label>
          <button type="submit" className="button button--primary">
            Submit and redirect
          </button>
        </Form>
      </section>

      <section className="card" aria-labelledby="errors-title">
        <h2 id="errors-title">Error pages</h2>
        <div className="button-row">
          <Link className="button" to="/__dev/ui?fail=loader">
            Server failure
          </Link>
          <button type="button" className="button" onClick={() => setFailRender(true)}>
            Browser failure
          </button>
          <Link className="button" to="/no-such-page?from=kit">
            Unknown page
          </Link>
        </div>
        {failRender ? <RenderFailure /> : null}
      </section>

      <section className="card" aria-labelledby="formats-title">
        <h2 id="formats-title">Display formats</h2>
        <dl className="format-list">
          {(
            [
              ["in a table", tableDate(SAMPLE_INSTANT)],
              ["as a detail field", detailDate(SAMPLE_INSTANT)],
              ["in a sentence", proseDate(SAMPLE_INSTANT)],
              ["a day", calendarDay(SAMPLE_INSTANT)],
              ["on a chart's axis", axisDay(SAMPLE_INSTANT)],
              ["in a day field", fieldDay(SAMPLE_INSTANT.slice(0, 10))],
            ] as const
          ).map(([place, text]) => (
            <div key={place}>
              <dt>Date ({place})</dt>
              <dd>{text}</dd>
            </div>
          ))}
          <div>
            <dt>Amount (123456789 pesewas)</dt>
            <dd>{formatAmount(123_456_789, "GHS")}</dd>
          </div>
          <div>
            <dt>Count</dt>
            <dd>{formatCount(1_234_567)}</dd>
          </div>
          <div>
            <dt>Percentage (97.5, then 140)</dt>
            <dd>
              {formatPercentage(97.5)} / {formatPercentage(140)}
            </dd>
          </div>
          <div>
            <dt>Path-like (Retail/Groceries)</dt>
            <dd>{formatPathLike("Retail/Groceries")}</dd>
          </div>
          <div>
            <dt>Brand (Vodafone Cash)</dt>
            <dd>{replaceBrandWords("Vodafone Cash")}</dd>
          </div>
          <div>
            <dt>Pagination (page 1, 5 and 9 of 9)</dt>
            <dd>{[1, 5, 9].map((page) => pageWindow(page, 9).join(" ")).join(" / ")}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

// Development only: the analytics events the queue consumer stored in D1 because
// no EVENTS_ENDPOINT is set, newest first. An HTML page, or JSON with
// `Accept: application/json`. In production it is a 404, like /__dev/ui.
//
// A resource route (no default export): a Remix page cannot also answer raw JSON
// at the same URL, so the page is rendered here as a small static document.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { ReactElement, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import * as v from "valibot";
import { listStoredEvents, type StoredEvent, type StoredEvents } from "../../functions/events/stored";
import stylesheet from "../styles/app.css?url";
import { formatDate } from "../lib/format";

const Query = v.object({
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,4}$/, "limit must be a whole number"), v.transform(Number), v.minValue(1, "limit must be at least 1"), v.maxValue(500, "limit must be at most 500")),
    "100",
  ),
});

const HEADERS = { "Cache-Control": "no-store, max-age=0", Vary: "Accept" };

function wantsJson(request: Request): boolean {
  return (request.headers.get("Accept") ?? "").includes("application/json");
}

function htmlResponse(element: ReactElement, status = 200): Response {
  return new Response(`<!doctype html>${renderToStaticMarkup(element)}`, { status, headers: { ...HEADERS, "Content-Type": "text/html; charset=utf-8" } });
}

function Document({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <link rel="stylesheet" href={stylesheet} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body>
        <main className="main">{children}</main>
      </body>
    </html>
  );
}

function valueText({ event }: StoredEvent): string {
  const { type, value } = event.eventValue;
  return `${type}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`;
}

function EventsPage({ total, events }: StoredEvents) {
  return (
    <Document title="Analytics events">
      <div className="page">
        <header className="page__header">
          <h1>Analytics events</h1>
          <p className="page__lead">
            Development only. Events stored because no EVENTS_ENDPOINT is set, newest first: showing {events.length} of {total}.
          </p>
        </header>
        {events.length === 0 ? (
          <section className="card">
            <p>No events yet.</p>
          </section>
        ) : (
          events.map((stored) => (
            <section className="card" key={stored.hash} aria-label={stored.event.eventId}>
              <dl className="format-list">
                <div>
                  <dt>Event</dt>
                  <dd>{stored.event.eventId}</dd>
                </div>
                <div>
                  <dt>Type</dt>
                  <dd>{stored.event.eventType}</dd>
                </div>
                <div>
                  <dt>Section</dt>
                  <dd>{stored.event.sectionName || "(none)"}</dd>
                </div>
                <div>
                  <dt>Value</dt>
                  <dd>{valueText(stored)}</dd>
                </div>
                <div>
                  <dt>Occurred</dt>
                  <dd title={new Date(stored.event.occurredAt).toISOString()}>{formatDate(stored.event.occurredAt)}</dd>
                </div>
                <div>
                  <dt>Received</dt>
                  <dd title={stored.receivedAt}>{formatDate(stored.receivedAt)}</dd>
                </div>
                <div>
                  <dt>User</dt>
                  <dd>{stored.event.userEmail ?? stored.event.userId ?? "(signed out)"}</dd>
                </div>
                <div>
                  <dt>Hash</dt>
                  <dd>
                    <code>{stored.hash.slice(0, 16)}</code>
                  </dd>
                </div>
              </dl>
              <details>
                <summary>Whole event</summary>
                <pre>{JSON.stringify(stored.event, null, 2)}</pre>
              </details>
            </section>
          ))
        )}
      </div>
    </Document>
  );
}

function NotFoundPage({ message }: { message: string }) {
  return (
    <Document title="Page Not Found">
      <div className="error-page">
        <p className="error-page__code">404</p>
        <h1>Page Not Found</h1>
        <p className="error-page__message">{message}</p>
      </div>
    </Document>
  );
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (context.config.environment === "production") {
    const message = `Page Not Found: ${url.pathname}${url.search}`;
    return wantsJson(request) ? Response.json({ message }, { status: 404, headers: HEADERS }) : htmlResponse(<NotFoundPage message={message} />, 404);
  }
  const query = v.safeParse(Query, { limit: url.searchParams.get("limit") ?? undefined });
  if (!query.success) {
    return Response.json({ message: query.issues.map((issue) => issue.message).join("; ") }, { status: 400, headers: HEADERS });
  }
  const stored = await listStoredEvents(context.cloudflare.env.DB, query.output.limit);
  return wantsJson(request) ? Response.json(stored, { headers: HEADERS }) : htmlResponse(<EventsPage {...stored} />);
}

// Development only: the text messages (one-time codes) the dev outbox stored in D1
// because no SMS_GATEWAY_URL is set, newest first. An HTML page, or JSON with
// `Accept: application/json`. In production it is a 404, like /__dev/events.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { ReactElement, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import * as v from "valibot";
import { listOutbox, type OutboxMessage } from "../../functions/auth/sms";
import stylesheet from "../styles/app.css?url";

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

function OutboxPage({ total, messages }: { total: number; messages: OutboxMessage[] }) {
  return (
    <Document title="Dev outbox">
      <div className="page">
        <header className="page__header">
          <h1>Dev outbox</h1>
          <p className="page__lead">
            Development only. Text messages kept here because no SMS_GATEWAY_URL is set, newest first: showing {messages.length} of {total}.
          </p>
        </header>
        {messages.length === 0 ? (
          <section className="card">
            <p>No messages yet.</p>
          </section>
        ) : (
          messages.map((message, index) => (
            <section className="card" key={`${message.createdAt}-${index}`} aria-label={`Message to ${message.to}`}>
              <dl className="format-list">
                <div>
                  <dt>To</dt>
                  <dd>{message.to}</dd>
                </div>
                <div>
                  <dt>Sent</dt>
                  <dd>{message.createdAt}</dd>
                </div>
                <div>
                  <dt>Message</dt>
                  <dd>{message.body}</dd>
                </div>
              </dl>
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
  const outbox = await listOutbox(context.cloudflare.env.DB, query.output.limit);
  return wantsJson(request) ? Response.json(outbox, { headers: HEADERS }) : htmlResponse(<OutboxPage {...outbox} />);
}

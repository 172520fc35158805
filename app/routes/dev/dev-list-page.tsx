// Development-only list pages (/__dev/events, /__dev/outbox): a small static HTML
// document, or JSON with `Accept: application/json`, and a 404 in production.
// They are resource routes because a Remix page cannot also answer raw JSON at
// the same URL.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { ReactElement, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import * as v from "valibot";
import stylesheet from "../../styles/app.css?url";

const Query = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, "limit must be a whole number"),
      v.transform(Number),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(500, "limit must be at most 500"),
    ),
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

export function DevDocument({ title, children }: { title: string; children: ReactNode }) {
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

function NotFoundPage({ message }: { message: string }) {
  return (
    <DevDocument title="Page Not Found">
      <div className="error-page">
        <p className="error-page__code">404</p>
        <h1>Page Not Found</h1>
        <p className="error-page__message">{message}</p>
      </div>
    </DevDocument>
  );
}

/** Answers the newest `limit` rows from `list` as `page` (HTML) or JSON; 404 in production. */
export async function devListResponse<T>(
  { request, context }: LoaderFunctionArgs,
  list: (db: D1Database, limit: number) => Promise<T>,
  page: (data: T) => ReactElement,
): Promise<Response> {
  const url = new URL(request.url);
  if (context.config.app.environment === "production") {
    const message = `Page Not Found: ${url.pathname}${url.search}`;
    return wantsJson(request) ? Response.json({ message }, { status: 404, headers: HEADERS }) : htmlResponse(<NotFoundPage message={message} />, 404);
  }
  const query = v.safeParse(Query, { limit: url.searchParams.get("limit") ?? undefined });
  if (!query.success) {
    return Response.json({ message: query.issues.map((issue) => issue.message).join("; ") }, { status: 400, headers: HEADERS });
  }
  const data = await list(context.cloudflare.env.DB, query.output.limit);
  return wantsJson(request) ? Response.json(data, { headers: HEADERS }) : htmlResponse(page(data));
}

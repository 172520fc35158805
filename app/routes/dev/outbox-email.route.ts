// Development only: one email of the dev outbox as its HTML, as a mail client would show it. Served sandboxed (no
// script, no request anywhere) with a policy of its own: an email's styles are inline, which the portal's pages refuse.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { outboxEmailHtml } from "#server/notifications/email-outbox.db";

export const EMAIL_VIEW_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = /^\d{1,12}$/.test(params.id ?? "") ? Number(params.id) : null;
  const html = context.config.app.environment === "production" || id === null ? null : await outboxEmailHtml(context.cloudflare.env.DB, id);
  if (html === null) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(html, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": EMAIL_VIEW_POLICY, "Cache-Control": "no-store" },
  });
}

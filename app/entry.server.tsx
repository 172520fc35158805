import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream, renderToStaticMarkup } from "react-dom/server";
import type { ReactNode } from "react";
import { logError } from "#server/plumbing/log";
import { DocumentContext } from "./components/document-context";
import { ServerScripts } from "./components/paint-first-scripts.server";
import stylesheet from "./styles/app.css?inline";
import { AccessDenied } from "./routes/errors/access-denied";
import { BRAND_LABEL, BrandContent } from "./components/shell";
import { SERVER_ERROR_TITLE } from "./lib/shell/page";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { nonce, requestId, timing } = loadContext;
  timing?.loadersDone();
  const rendered = timing?.enter("render");
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <DocumentContext.Provider value={{ nonce, requestId, buildId: __BUILD_ID__, styles: { textContent: stylesheet, nonce }, scripts: ServerScripts }}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </DocumentContext.Provider>,
    {
      nonce,
      signal: request.signal,
      onError(error: unknown) {
        if (!request.signal.aborted) logError(requestId, request, error);
        status = 500;
      },
    },
  );
  // Crawlers and link previews get the whole document at once; so does a timed request, to time all of it.
  if (rendered || isbot(request.headers.get("user-agent") ?? "")) await body.allReady;
  rendered?.();
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

/** A deliberate answer (a 403 or 404 thrown by a guard), not a failure: nothing to log. */
function isDeliberateAnswer(error: unknown): boolean {
  if (error instanceof Response) return error.status < 500;
  if (isRouteErrorResponse(error)) return error.status < 500;
  // data() thrown from a resource route reaches here as it was thrown.
  if (typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit") {
    const status = (error as { init?: { status?: number } | null }).init?.status ?? 200;
    return status < 500;
  }
  return false;
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || isDeliberateAnswer(error)) return;
  logError(context.requestId, request, error);
};

const PlainLink = ({ to, className, children }: { to: string; className: string; children: ReactNode }) => (
  <a href={to} className={className}>
    {children}
  </a>
);

/**
 * The portal's 403 page as a document of its own, for a resource route opened in the browser (a CSV export's link,
 * functions/guards.ts requireExport): the words of the page the shell shows (AccessDenied), in the sign-in steps'
 * card with the brand and the portal's stylesheet under this response's nonce. No script: nothing on it needs one.
 * The worker hands it to the load context (functions/load-context.ts `forbiddenDocument`).
 */
export function forbiddenDocument(message: string, nonce: string): string {
  return `<!doctype html>${renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{SERVER_ERROR_TITLE}</title>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: stylesheet }} />
      </head>
      <body>
        <div className="standard">
          <main id="main" className="standard__card" tabIndex={-1}>
            <div className="standard__brand">
              <a href="/" className="brand" aria-label={BRAND_LABEL}>
                <BrandContent />
              </a>
            </div>
            <AccessDenied message={message} Home={PlainLink} />
          </main>
        </div>
      </body>
    </html>,
  )}`;
}

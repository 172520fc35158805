import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { logError } from "../functions/log";
import { DocumentContext } from "./components/document-context";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { nonce, requestId } = loadContext;
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <DocumentContext.Provider value={{ nonce, requestId }}>
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
  // Crawlers and link previews get the whole document at once.
  if (isbot(request.headers.get("user-agent") ?? "")) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  logError(context.requestId, request, error);
};

// Which id to show on the error page. A document that failed on the server
// carries its request id in a meta tag; a client navigation whose data request
// failed gets it from that response's X-Request-Id; an error raised in the
// browser alone gets an id made here (and logged with it).
import { installFetchObserver, onFetchResponse } from "#app/components/analytics/fetch-observer";

let lastServerErrorId: string | null = null;

/** Remix's single-fetch data requests: "/merchants.data", "/_root.data". */
function isDataRequest(url: string): boolean {
  try {
    return new URL(url, window.location.href).pathname.endsWith(".data");
  } catch {
    return false;
  }
}

/** Data requests that fail on the server leave their id behind. */
export function trackServerErrorIds(): void {
  installFetchObserver();
  onFetchResponse(({ url, response }) => {
    if (isDataRequest(url) && response.status >= 500) lastServerErrorId = response.headers.get("X-Request-Id");
  });
}

/** The id of the most recent server failure seen by this page, consumed on read. */
export function takeServerErrorId(): string | null {
  const id = lastServerErrorId;
  lastServerErrorId = null;
  return id;
}

/** "C-" marks an error that never reached the server, so support knows not to search server logs. */
export function newClientErrorId(): string {
  return `C-${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
}

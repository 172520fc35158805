// State-changing requests must come from this site's own pages. A browser sends
// Origin with every POST (and other non-safe methods) and Sec-Fetch-Site when it
// knows it; a request with neither is not from a page of ours.
import { data } from "@remix-run/cloudflare";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const CROSS_ORIGIN_MESSAGE = "This request did not come from the portal's own pages.";

/** Whether a state-changing request comes from the same origin (safe methods always pass). */
export function isSameOriginRequest(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return true;
  const site = request.headers.get("Sec-Fetch-Site");
  const origin = request.headers.get("Origin");
  if (site === null && origin === null) return false;
  if (site !== null && site !== "same-origin") return false;
  if (origin !== null && origin !== new URL(request.url).origin) return false;
  return true;
}

/** Throws a 403 for a state-changing request from another origin. Call first in every action. */
export function requireSameOrigin(request: Request): void {
  if (!isSameOriginRequest(request)) throw data({ message: CROSS_ORIGIN_MESSAGE }, { status: 403 });
}

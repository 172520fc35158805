import { data } from "@remix-run/cloudflare";

export interface NotFoundData {
  message: string;
}

/** An unknown route: 404 with the path alone (SPEC section 2). */
export function routeNotFound(request: Request): never {
  throw data<NotFoundData>({ message: `Page not found: ${new URL(request.url).pathname}` }, { status: 404 });
}

/**
 * A known route whose page-level check failed (an id that is not this
 * business's, a page not available here): 404 with the full path and query.
 */
export function pageNotFound(request: Request): never {
  const url = new URL(request.url);
  throw data<NotFoundData>({ message: `Page Not Found: ${url.pathname}${url.search}` }, { status: 404 });
}

// What the shell needs from the page it wraps. Each route module names its own document title (`meta`) and, when it
// is not the default, its layout (`handle`); the root reads the matched routes, so no table of URL patterns repeats
// them (decision 036).
import type { UIMatch } from "@remix-run/react";

export const APP_NAME = "Partners Portal";
export const NOT_FOUND_TITLE = "Page Not Found";
export const SERVER_ERROR_TITLE = "Internal Server Error";

/**
 * The element "Skip to the list" goes to (app/components/shell.tsx): a page's own list (DataTable's `page`) when it has
 * rows. The link is shown only while the page holds it (a CSS :has rule), so a page without a list has no dead link.
 */
export const LIST_ID = "list";

/**
 * SPEC section 2: the sign-in steps and the business choice use standard (a card, no navigation); the rest default.
 * The platform's own screens (/platform, decision 039) have the default's frame with the platform's navigation.
 */
export type Layout = "standard" | "default" | "platform";

/** A route module's `handle`. */
export interface PageHandle {
  layout?: Layout;
}

function isPageHandle(handle: unknown): handle is PageHandle {
  return typeof handle === "object" && handle !== null && "layout" in handle;
}

/**
 * The layout of the deepest matched route that names one. The matches stay those of the URL when a loader fails, so
 * the error page of /login is a card like /login; a path no screen claims gets the default.
 */
export function layoutOf(matches: readonly Pick<UIMatch, "handle">[]): Layout {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isPageHandle(handle) && handle.layout) return handle.layout;
  }
  return "default";
}

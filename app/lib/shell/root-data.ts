import { useMatches, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/cloudflare";
import { isNetworkFailure } from "#app/lib/errors";
import { layoutOf, type Layout } from "./page";
import type { loader } from "#app/root.server";

type RootData = SerializeFrom<typeof loader>;

/** The root's data as last seen in this tab; never kept on the server, where one module serves every request. */
let lastSeen: RootData | undefined;

/**
 * The root route's data (who is signed in, the flash, the environment) from any component; undefined on error pages,
 * except "No connection": a navigation that got no answer has no new root data, and the shell keeps showing the
 * business and the person it showed a moment ago.
 */
export function useRootData(): RootData | undefined {
  const data = useRouteLoaderData<typeof loader>("root");
  const error = useRouteError();
  if (data) {
    if (typeof document !== "undefined") lastSeen = data;
    return data;
  }
  return isNetworkFailure(error) ? lastSeen : undefined;
}

/**
 * The shell of the page: its route's layout, but the platform's only for platform staff. Anyone else on a platform
 * route is answered its 404 (functions/operators/guards.ts), which must look like any page that does not exist.
 */
export function usePageLayout(): Layout {
  const staff = useRootData()?.platform;
  const layout = layoutOf(useMatches());
  return layout === "platform" && !staff ? "default" : layout;
}

import { useMatches, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/cloudflare";
import { isNetworkFailure } from "./errors";
import { layoutFor, type Layout } from "./page";
import type { loader } from "../root.server";

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

/** The shell of the page: its route's layout, the platform's only for platform staff (app/lib/page.ts layoutFor). */
export function usePageLayout(): Layout {
  return layoutFor(useMatches(), Boolean(useRootData()?.platform));
}

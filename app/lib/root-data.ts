import { useRouteLoaderData } from "@remix-run/react";
import type { loader } from "../root.server";

/** The root route's data (who is signed in, the flash, the environment) from any component; undefined on error pages. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

import { useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { BUILD_CHECK_INTERVAL_OVERRIDE, isNewerBuild, latestBuildUrl, pollInterval, reloadAllowed } from "#app/lib/shell/build-check";

const LAST_RELOAD_KEY = "pp:last-build-reload";

// Module state, not a ref: Remix remounts the root layout when it switches to
// the error boundary, and a newer build seen before that must not be forgotten.
let newerBuildSeen = false;

function lastReloadAt(): number | null {
  try {
    const value = sessionStorage.getItem(LAST_RELOAD_KEY);
    return value === null ? null : Number(value);
  } catch {
    return null;
  }
}

/**
 * Polls for a newer deployed build; once one is seen, the next navigation is a
 * full page load of its destination so the browser runs the new code.
 */
export function BuildUpdateCheck() {
  const navigation = useNavigation();

  useEffect(() => {
    const { dataset } = document.documentElement;
    dataset.hydrated = "true";
    // The build this document came from (app/root.tsx); one that does not say cannot tell a newer one.
    const buildId = dataset.build;
    if (!buildId) return;
    const override = (window as unknown as Record<string, unknown>)[BUILD_CHECK_INTERVAL_OVERRIDE];
    const check = async () => {
      try {
        const response = await fetch(latestBuildUrl(Date.now()), { cache: "no-store" });
        if (!response.ok) return;
        const body: unknown = await response.json();
        const latest = typeof body === "object" && body !== null ? (body as { buildId?: unknown }).buildId : undefined;
        if (isNewerBuild(buildId, latest)) newerBuildSeen = true;
      } catch {
        // Offline or mid-deploy: try again at the next tick.
      }
    };
    const timer = setInterval(() => void check(), pollInterval(override));
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (!newerBuildSeen || navigation.state !== "loading" || navigation.formMethod) return;
    const now = Date.now();
    if (!reloadAllowed(lastReloadAt(), now)) return;
    try {
      sessionStorage.setItem(LAST_RELOAD_KEY, String(now));
    } catch {
      // Private mode without storage: the guard cannot hold, reload anyway once.
    }
    newerBuildSeen = false;
    const { pathname, search, hash } = navigation.location;
    window.location.assign(pathname + search + hash);
  }, [navigation]);

  return null;
}

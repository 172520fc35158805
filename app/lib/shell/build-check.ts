// Build-update check (SPEC sections 2, 7, 9): poll the latest build id hourly;
// when it differs from the id baked into this client, the next navigation is a
// full page load, at most once per RELOAD_GUARD_MS so a half-finished deploy
// cannot put a browser into a reload loop.

export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const RELOAD_GUARD_MS = 10_000;

/**
 * Test-only: end-to-end tests set this window property (before the app loads)
 * to shorten the poll. It only makes the poll more frequent for that browser.
 */
export const BUILD_CHECK_INTERVAL_OVERRIDE = "__PP_BUILD_CHECK_INTERVAL_MS__";

export function latestBuildUrl(now: number): string {
  return `/builds/latest.json?t=${now}`;
}

/** Whether the deployed build differs from the one running here. */
export function isNewerBuild(currentId: string, latestId: unknown): boolean {
  return typeof latestId === "string" && latestId !== "" && latestId !== currentId;
}

/** Whether a full reload is allowed now, given when the last one happened. */
export function reloadAllowed(lastReloadAt: number | null, now: number): boolean {
  if (lastReloadAt === null || !Number.isFinite(lastReloadAt)) return true;
  // A clock set back since the last reload must not block reloads until it catches up.
  return now < lastReloadAt || now - lastReloadAt >= RELOAD_GUARD_MS;
}

/** The override when it is a number from 100 ms to the hourly interval; otherwise hourly. */
export function pollInterval(override: unknown): number {
  return typeof override === "number" && Number.isFinite(override) && override >= 100 && override <= BUILD_CHECK_INTERVAL_MS
    ? override
    : BUILD_CHECK_INTERVAL_MS;
}

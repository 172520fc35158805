// Lengths of time and the UTC day of an instant, spelled once. Africa/Accra is UTC+0 all year, so the UTC day is the
// day people in Ghana read. Pure: the browser takes it too (scripts/server-code-boundary.ts SHARED_WITH_BROWSER).

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The UTC day of an instant (epoch ms), as YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

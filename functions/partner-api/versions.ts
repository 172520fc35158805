// Dated versions of the Partner API (decision 044). A key is pinned to the version current when it was made
// (api_keys.api_version, platform_keys.api_version); a request may name another in PP-Version; every answer says in
// PP-Version which version it was answered as. docs/api-changelog.md says what each version changed. A version is only
// ever added: a change that would break a processor's code waits for a new date and is answered only to keys pinned to
// it or requests that name it. Webhook endpoints are pinned the same way (webhook_endpoints.api_version, migration
// 0037): each delivery is rendered in its endpoint's version (functions/webhooks/event-versions.ts).

/** Every version this portal answers, oldest first. 2026-12-01: every event's data is the object as GET answers it. */
export const API_VERSIONS = ["2026-11-27", "2026-12-01"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;
export const VERSION_HEADER = "PP-Version";

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === "string" && (API_VERSIONS as readonly string[]).includes(value);
}

/** The version a request is answered as: the one it names, or its key's; null when it names one this portal lacks. */
export function versionOf(request: Request, pinned: string): ApiVersion | null {
  const named = request.headers.get(VERSION_HEADER)?.trim();
  if (named) return isApiVersion(named) ? named : null;
  // A key pinned to a version this deployment no longer knows (none is ever removed) would read as the current one.
  return isApiVersion(pinned) ? pinned : CURRENT_API_VERSION;
}

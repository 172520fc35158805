// /platform/keys's addresses and field names, shared by its route, its section and its server module.
import { platformPaths } from "#app/lib/platform-paths";

export const PLATFORM_KEYS_URL = platformPaths.platformKeys();

/** One checkbox per scope: "scope.payments" and so on (Object.fromEntries keeps each). */
export const SCOPE_FIELD_PREFIX = "scope.";

/** The confirmation of Roll or Revoke, opened from the URL (so it works before the script loads). */
export function confirmPlatformKey(confirm: "roll" | "revoke", keyId: string): string {
  return `${PLATFORM_KEYS_URL}?${new URLSearchParams({ confirm, key: keyId }).toString()}#confirm-key-title`;
}

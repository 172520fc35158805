// What the two key screens share on the server: a business's API keys (Settings → Developers) and the platform's keys
// (/platform/keys, the switch's credential). Both list keys by status, confirm Roll and Revoke from the URL, take a
// name by the same rules, and hand out a new key's secret once, in the action's answer only.
import { data } from "@remix-run/cloudflare";
import * as v from "valibot";
import type { FieldErrors } from "#server/plumbing/http";
import type { ApiKeyStatus } from "#app/lib/statuses";
import { bidiControlMessage, hasBidiControl } from "#app/lib/forms/validation";
import { KEY_NAME_MAX, type NewKey } from "#app/lib/api-keys";

export type { NewKey };

interface KeyFacts {
  id: string;
  name: string;
  prefix: string;
  createdByName: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

function keyStatus(key: Pick<KeyFacts, "revokedAt" | "expiresAt">, now: number): ApiKeyStatus {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null) return key.expiresAt > now ? "rolled" : "expired";
  return "active";
}

/** A key as the list shows it: never its secret (only the hash is kept), with what may be done to it. */
export function keyRow(key: KeyFacts, now: number) {
  const status = keyStatus(key, now);
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdByName: key.createdByName,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    expiresAt: key.expiresAt,
    status,
    canRoll: status === "active",
    canRevoke: status === "active" || status === "rolled",
  };
}
export type KeyRow = ReturnType<typeof keyRow>;

const ConfirmParams = v.object({
  confirm: v.picklist(["roll", "revoke"]),
  key: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
});

/** The confirmation step of Roll and Revoke, opened from the URL; a key that is not listed (or cannot be) opens nothing. */
export function confirmOf(url: URL, rows: readonly KeyRow[]): { action: "roll" | "revoke"; keyId: string; name: string; prefix: string } | null {
  const asked = v.safeParse(ConfirmParams, { confirm: url.searchParams.get("confirm"), key: url.searchParams.get("key") });
  const target = asked.success ? rows.find((row) => row.id === asked.output.key) : undefined;
  return asked.success && target && (asked.output.confirm === "roll" ? target.canRoll : target.canRevoke)
    ? { action: asked.output.confirm, keyId: target.id, name: target.name, prefix: target.prefix }
    : null;
}

export const KeyName = v.pipe(
  v.string("Name the key."),
  v.trim(),
  v.nonEmpty("Name the key, for example after the system that will use it."),
  v.maxLength(KEY_NAME_MAX, `Keep the name to ${KEY_NAME_MAX} characters or fewer.`),
  v.check((typed) => !hasBidiControl(typed), bidiControlMessage("name")),
);

export const KeyForm = v.object({
  intent: v.picklist(["roll-key", "revoke-key"]),
  keyId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
});

/**
 * A new key comes back in this answer's data and nowhere else: not in a redirect's
 * URL, not in the flash cookie (it would ride along with later requests), not in
 * the audit log (only the prefix goes there). `no-store` keeps it out of caches.
 */
export function shownOnce(key: NewKey) {
  // No errors, in the refusals' shape, so the route reads every answer alike.
  const errors: FieldErrors = {};
  return data({ intent: key.rolled ? "roll-key" : "create-key", newKey: key, errors, values: null }, { headers: { "Cache-Control": "no-store" } });
}

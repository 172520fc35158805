// What the two key screens share on the server: a business's API keys (Settings → Developers) and the platform's keys
// (/platform/keys, the switch's credential). Both list keys by status, confirm Roll and Revoke from the URL, take a
// name by the same rules, make, roll and revoke a key by the same steps (each screen says only how its keys are
// checked for, made and kept: a KeyKeeper), and hand out a new key's secret once, in the action's answer only.
import { data } from "@remix-run/cloudflare";
import * as v from "valibot";
import { pageNotFound, refuse, type FieldErrors } from "#server/plumbing/http";
import type { NewKeyRow } from "#server/partner-api/api-keys.db";
import { fingerprintOf, type checkNeeded } from "#server/auth/fresh-check";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage } from "#server/guards";
import type { AppConfig } from "#server/env";
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

const NOT_UNDERSTOOD = "That request was not understood. Reload the page and try again.";

/** What a fresh check answers when it is still to be given: the page then asks for it. */
export type CheckAsked = ReturnType<typeof checkNeeded>;

/** How one screen's keys are checked for, made and kept; the steps around them are the same on both screens. */
export interface KeyKeeper<Asked> {
  /** The screen's fresh check, bound as given: a key's secret is handed out only under it. */
  checked: <T>(binding: string, act: () => Promise<T>) => Promise<T | Asked>;
  binding: (action: "create" | "roll", subject: string) => string;
  make: (name: string) => Promise<{ secret: string; row: NewKeyRow }>;
  create: (row: NewKeyRow) => Promise<unknown>;
  list: () => Promise<readonly { id: string; name: string }[]>;
  /** The new key keeps the old one's name (and whatever else the keeper keeps), so the list reads as one key that changed. */
  roll: (keyId: string, row: NewKeyRow) => Promise<unknown>;
  revoke: (keyId: string) => Promise<unknown>;
  /** Revoking a platform key stops the switch for every business at once, so there it runs under a check bound so. */
  revokeBinding?: (keyId: string) => string;
  revoked: { url: string; message: string };
}

/**
 * Makes a key named as parsed, under a check bound to what names it (`bound`: the name, and for a platform key its
 * scopes, so a check given for one key does not make another). A refusal of the data layer keeps what was typed.
 */
export async function createKey<Asked>(request: Request, keeper: KeyKeeper<Asked>, name: string, bound: string, typed: Record<string, unknown>) {
  return keeper.checked(keeper.binding("create", await fingerprintOf(bound)), async () => {
    const { secret, row } = await keeper.make(name);
    try {
      await keeper.create(row);
    } catch (error) {
      return refuse({ name: refusalMessage(request, error) }, typed, "create-key");
    }
    return shownOnce({ name: row.name, prefix: row.prefix, secret, rolled: false });
  });
}

/** Roll (a new secret, shown once) or Revoke (a redirect back with the flash, thrown); an unknown key is the 404 page. */
export async function rollOrRevokeKey<Asked>(request: Request, app: AppConfig, keeper: KeyKeeper<Asked>, form: Record<string, FormDataEntryValue>) {
  const parsed = v.safeParse(KeyForm, form);
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD });
  const { intent, keyId } = parsed.output;
  try {
    if (intent === "roll-key") {
      const old = (await keeper.list()).find((key) => key.id === keyId);
      if (!old) pageNotFound(request);
      return await keeper.checked(keeper.binding("roll", keyId), async () => {
        const { secret, row } = await keeper.make(old.name);
        await keeper.roll(keyId, row);
        return shownOnce({ name: row.name, prefix: row.prefix, secret, rolled: true });
      });
    }
    const revoke = async (): Promise<never> => {
      await keeper.revoke(keyId);
      throw await redirectWithFlash(request, app, keeper.revoked.url, { kind: "success", message: keeper.revoked.message });
    };
    return keeper.revokeBinding ? await keeper.checked(keeper.revokeBinding(keyId), revoke) : await revoke();
  } catch (error) {
    // The redirect of a key revoked and the 404 page go on; a key already rolled or revoked is said on the page.
    if (error instanceof Response) throw error;
    return refuse({ form: refusalMessage(request, error) });
  }
}

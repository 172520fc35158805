// /platform/keys: the switch's platform keys (functions/operators/platform-keys.db.ts), for platform staff with
// platform:keys. Made, rolled and revoked as a business's API keys are on Settings → Developers (the same list, the
// same confirmations and the same one showing of a secret: app/lib/api-keys.server.ts), plus the scopes a key holds.
// Making and rolling hand out a secret, and revoking stops the switch for every business at once, so each runs under
// the platform's fresh check; every change is audited on the platform's chain by the data module.
import * as v from "valibot";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { makePlatformKey, ROLL_GRACE_MS } from "#server/partner-api/keys";
import { createPlatformKey, listPlatformKeys, revokePlatformKey, rollPlatformKey } from "#server/operators/platform-keys.db";
import { PLATFORM_SCOPES, PlatformScopes, SCOPE_WORDS } from "#server/operators/platform-scopes";
import { checkBindings, fingerprintOf, underPlatformCheck } from "#server/auth/fresh-check";
import type { PlatformRequest } from "#server/operators/guards";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { confirmOf, KeyForm, KeyName, keyRow, shownOnce } from "#app/lib/api-keys.server";
import { PLATFORM_KEYS_URL, SCOPE_FIELD_PREFIX } from "./platform-keys";

const NOT_UNDERSTOOD = "That request was not understood. Reload the page and try again.";

export async function loadPlatformKeys(request: Request, { deps }: PlatformRequest, context: AppLoadContext) {
  const now = deps.now();
  const keys = (await listPlatformKeys(deps.db, now)).map((key) => ({ ...keyRow(key, now), scopes: key.scopes }));
  return {
    environment: context.config.app.environment,
    keys,
    confirm: confirmOf(new URL(request.url), keys),
    scopes: PLATFORM_SCOPES.map((scope) => ({ scope, words: SCOPE_WORDS[scope] })),
  };
}

export type PlatformKeysData = Awaited<ReturnType<typeof loadPlatformKeys>>;

const CreateForm = v.object({ intent: v.literal("create-key"), name: KeyName, scopes: PlatformScopes });

/** What the create form sent, to show again when it is refused: the name and the scopes ticked. */
function typedOf(form: Record<string, FormDataEntryValue>) {
  return {
    name: typeof form.name === "string" ? form.name : "",
    scopes: Object.keys(form)
      .filter((name) => name.startsWith(SCOPE_FIELD_PREFIX))
      .map((name) => name.slice(SCOPE_FIELD_PREFIX.length)),
  };
}

/** A refusal (the create form's keeps what was typed), the new key's one showing, or a thrown redirect back with the flash. */
export async function platformKeysAction(request: Request, context: AppLoadContext, signedIn: PlatformRequest, form: Record<string, FormDataEntryValue>) {
  const { deps, staff } = signedIn;
  const actor = { userId: staff.userId };
  const checked = <T>(binding: string, act: () => Promise<T>) => underPlatformCheck(request, signedIn, binding, form, act);
  if (form.intent === "create-key") {
    const typed = typedOf(form);
    const parsed = v.safeParse(CreateForm, { intent: form.intent, ...typed });
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue.path?.[0]?.key === "scopes" ? "scopes" : "name";
      return refuse({ [field]: issue.message }, typed, "create-key");
    }
    const { name, scopes } = parsed.output;
    // Bound to the name and the scopes: a check given for one key does not make another.
    return checked(checkBindings.platformKey("create", await fingerprintOf(`${name}\n${scopes.join(" ")}`)), async () => {
      const { secret, row } = await makePlatformKey(name, context.config.app.environment);
      try {
        await createPlatformKey(deps.db, actor, deps.meta, row, scopes, deps.now());
      } catch (error) {
        return refuse({ name: refusalMessage(request, error) }, typed, "create-key");
      }
      return shownOnce({ name: row.name, prefix: row.prefix, secret, rolled: false });
    });
  }

  const parsed = v.safeParse(KeyForm, form);
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD });
  const { intent, keyId } = parsed.output;
  try {
    if (intent === "roll-key") {
      const old = (await listPlatformKeys(deps.db, deps.now())).find((key) => key.id === keyId);
      if (!old) pageNotFound(request);
      return await checked(checkBindings.platformKey("roll", keyId), async () => {
        // The new key keeps the old one's name and scopes, so the list reads as one key that changed.
        const { secret, row } = await makePlatformKey(old.name, context.config.app.environment);
        await rollPlatformKey(deps.db, actor, deps.meta, keyId, row, ROLL_GRACE_MS, deps.now());
        return shownOnce({ name: row.name, prefix: row.prefix, secret, rolled: true });
      });
    }
    return await checked(checkBindings.platformKey("revoke", keyId), async () => {
      await revokePlatformKey(deps.db, actor, deps.meta, keyId, deps.now());
      throw await redirectWithFlash(request, context.config.app, PLATFORM_KEYS_URL, {
        kind: "success",
        message: "The platform key is revoked. The switch's requests made with it are refused from now on.",
      });
    });
  } catch (error) {
    // The redirect of a key revoked; an unknown key is the 404 page; a key already rolled or revoked is said on the page.
    if (error instanceof Response) throw error;
    return refuse({ form: refusalMessage(request, error) });
  }
}

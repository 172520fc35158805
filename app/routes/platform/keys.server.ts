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
import { checkBindings, underPlatformCheck } from "#server/auth/fresh-check";
import type { PlatformRequest } from "#server/operators/guards";
import { refuse } from "#server/plumbing/http";
import { confirmOf, createKey, KeyName, keyRow, rollOrRevokeKey, type CheckAsked, type KeyKeeper } from "#app/lib/api-keys.server";
import { PLATFORM_KEYS_URL, SCOPE_FIELD_PREFIX } from "./platform-keys";

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
  const environment = context.config.app.environment;
  const keeper = (scopes: v.InferOutput<typeof PlatformScopes> = []): KeyKeeper<CheckAsked> => ({
    checked: (binding, act) => underPlatformCheck(request, signedIn, binding, form, act),
    binding: checkBindings.platformKey,
    make: (name) => makePlatformKey(name, environment),
    create: (row) => createPlatformKey(deps.db, actor, deps.meta, row, scopes, deps.now()),
    list: () => listPlatformKeys(deps.db, deps.now()),
    // The rolled key keeps its scopes as well as its name.
    roll: (keyId, row) => rollPlatformKey(deps.db, actor, deps.meta, keyId, row, ROLL_GRACE_MS, deps.now()),
    revoke: (keyId) => revokePlatformKey(deps.db, actor, deps.meta, keyId, deps.now()),
    revokeBinding: (keyId) => checkBindings.platformKey("revoke", keyId),
    revoked: { url: PLATFORM_KEYS_URL, message: "The platform key is revoked. The switch's requests made with it are refused from now on." },
  });
  if (form.intent === "create-key") {
    const typed = typedOf(form);
    const parsed = v.safeParse(CreateForm, { intent: form.intent, ...typed });
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue.path?.[0]?.key === "scopes" ? "scopes" : "name";
      return refuse({ [field]: issue.message }, typed, "create-key");
    }
    const { name, scopes } = parsed.output;
    return createKey(request, keeper(scopes), name, `${name}\n${scopes.join(" ")}`, typed);
  }
  return rollOrRevokeKey(request, context.config.app, keeper(), form);
}

// The Developers tab of /settings (administrators only): the
// business's Partner API keys (make, roll, revoke) and the payments the API
// received for a reference the portal holds with other content. Webhook
// endpoints join this tab later, with their own loader and intents beside these.
import { keyModeOf } from "#server/tenancy/test-mode";
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { makeApiKey, ROLL_GRACE_MS } from "#server/partner-api/keys";
import type { AuthDeps } from "#server/auth/deps";
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey, type NewKeyRow } from "#server/partner-api/api-keys.db";
import { registerKeyHashStatement } from "#server/tenancy/directory.db";
import { numberedPage } from "#server/lists/page";
import { countPaymentConflicts, listPaymentConflicts } from "#server/payments/payment-conflicts.db";
import type { Tenant } from "#server/tenancy/tenant";
import { refuse } from "#server/plumbing/http";
import { listParams } from "#app/lib/lists/list-params";
import { confirmOf, createKey, KeyName, keyRow, rollOrRevokeKey, type CheckAsked, type KeyKeeper, type NewKey } from "#app/lib/api-keys.server";
import { API_KEY_INTENTS, DEVELOPERS_URL } from "#app/routes/settings/tabs";
import { checkBindings, underFreshCheck } from "#server/auth/fresh-check";
import type { TenantRequest } from "#server/guards";
import { loadRefused } from "./developers-refused.server";

export const DEVELOPER_INTENTS = API_KEY_INTENTS;

export async function loadDevelopers(request: Request, deps: AuthDeps, tenant: Tenant) {
  const url = new URL(request.url);
  const { page, trail } = listParams(url, {});
  const now = deps.now();
  const [keys, conflicts, conflictTotal, refused] = await Promise.all([
    listApiKeys(tenant),
    numberedPage((after) => listPaymentConflicts(tenant, { after }), trail, page),
    countPaymentConflicts(tenant),
    loadRefused(tenant, now),
  ]);
  const rows = keys.map((key) => keyRow(key, now));
  const confirm = confirmOf(url, rows);
  return {
    // pp_live_ keys in live data, pp_test_ in test mode, on every deployment (decision 045).
    keyMode: keyModeOf(tenant.businessId),
    keys: rows,
    confirm,
    conflicts: {
      page: conflicts.number,
      trail: conflicts.trail,
      hasNext: conflicts.next !== null,
      total: conflictTotal,
      rows: conflicts.rows,
    },
    refused,
  };
}

export type DevelopersData = Awaited<ReturnType<typeof loadDevelopers>>;

// Exported for its unit test (tests/unit/name-fields.test.ts).
export const CreateForm = v.object({ intent: v.literal("create-key"), name: KeyName });

export type { NewKey };

/** A refusal (the name form's keeps what was typed), the new key's one showing, or a thrown redirect back to the tab with the flash. */
export async function developersAction(request: Request, context: AppLoadContext, signedIn: TenantRequest, form: Record<string, FormDataEntryValue>) {
  const { deps, tenant } = signedIn;
  // The directory first: a key whose own row never lands is found there but is no key.
  const registered = (row: NewKeyRow) => registerKeyHashStatement(deps.db, tenant.businessId, row.secretHash).run();
  const keeper: KeyKeeper<CheckAsked> = {
    checked: (binding, act) => underFreshCheck(request, signedIn, binding, form, act),
    binding: checkBindings.apiKey,
    make: (name) => makeApiKey(name, tenant.businessId),
    create: async (row) => (await registered(row), createApiKey(tenant, deps.meta, row, deps.now())),
    list: () => listApiKeys(tenant),
    roll: async (keyId, row) => (await registered(row), rollApiKey(tenant, deps.meta, keyId, row, ROLL_GRACE_MS, deps.now())),
    revoke: (keyId) => revokeApiKey(tenant, deps.meta, keyId, deps.now()),
    revoked: { url: DEVELOPERS_URL, message: "The key is revoked. Requests made with it are refused from now on." },
  };
  if (form.intent === "create-key") {
    const typed = { name: typeof form.name === "string" ? form.name : "" };
    const parsed = v.safeParse(CreateForm, form);
    if (!parsed.success) return refuse({ name: parsed.issues[0].message }, typed, "create-key");
    return createKey(request, keeper, parsed.output.name, parsed.output.name, typed);
  }
  return rollOrRevokeKey(request, context.config.app, keeper, form);
}

// Settings → Profile's "Emails": which notices also reach the person by email (decision 053). A box a kind; a box
// left unticked is that kind off. Every person sets their own, whatever their role.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { KIND_NAMES, NOTIFICATION_KINDS } from "#server/notifications/kinds";
import { preferencesOf, setPreferences } from "#server/notifications/preferences.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import type { TenantRequest } from "#server/guards";
import type { Tenant } from "#server/tenancy/tenant";
import { paths } from "#app/lib/paths";

import { choiceField, EMAIL_CHOICES_INTENT, type EmailChoice } from "./email-choices";

export { EMAIL_CHOICES_INTENT };

export async function loadEmailChoices(tenant: Tenant): Promise<EmailChoice[]> {
  const preferences = await preferencesOf(tenant, tenant.userId);
  return NOTIFICATION_KINDS.map((kind) => ({ kind, name: KIND_NAMES[kind], on: preferences[kind].email }));
}

export async function emailChoicesAction(request: Request, context: AppLoadContext, { deps, tenant }: TenantRequest, form: Record<string, unknown>) {
  // Only the known kinds are read: any other field is left alone, a box is on when sent at all.
  const choices = NOTIFICATION_KINDS.map((kind) => ({ kind, channel: "email" as const, wanted: form[choiceField(kind)] !== undefined }));
  await setPreferences(tenant, tenant.userId, choices, deps.now());
  const on = choices.filter((choice) => choice.wanted).length;
  throw await redirectWithFlash(request, context.config.app, `${paths.settings()}#notifications`, {
    kind: "success",
    message: on === 0 ? "Saved: no notification reaches you by email now. They all still show under the bell." : "Saved: your email choices are kept.",
  });
}

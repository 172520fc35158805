// Settings → Profile's "Notifications": which notices also reach the person by email or SMS (decision 053). A box a
// kind and channel, for the kinds the person's role receives; a box left unticked is that kind off on that channel.
// Security notices are always sent. Every person sets their own, whatever their role.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { choicesFor, isAlwaysSent, isChoosable, KIND_NAMES, kindHasChannel } from "#server/notifications/kinds";
import { preferencesOf, setPreferences } from "#server/notifications/preferences.db";
import { redirectWithFlash } from "#server/plumbing/flash";
import type { TenantRequest } from "#server/guards";
import type { Tenant } from "#server/tenancy/tenant";
import { paths } from "#app/lib/paths";

import { CHOICE_CHANNELS, choiceField, EMAIL_CHOICES_INTENT, type EmailChoice } from "./email-choices";

export { EMAIL_CHOICES_INTENT };

export async function loadEmailChoices(tenant: Tenant): Promise<EmailChoice[]> {
  const preferences = await preferencesOf(tenant, tenant.userId, tenant.role);
  return choicesFor(tenant.role).map((kind) => ({
    kind,
    name: KIND_NAMES[kind],
    channels: Object.fromEntries(
      CHOICE_CHANNELS.filter(({ channel }) => kindHasChannel(kind, channel)).map(({ channel }) => [
        channel,
        { on: preferences[kind][channel], fixed: isAlwaysSent(kind) },
      ]),
    ),
  }));
}

export async function emailChoicesAction(request: Request, context: AppLoadContext, { deps, tenant }: TenantRequest, form: Record<string, unknown>) {
  // Only the known kinds of the person's role are read: any other field is left alone, a box is on when sent at all.
  const choices = choicesFor(tenant.role).flatMap((kind) =>
    CHOICE_CHANNELS.filter(({ channel }) => isChoosable(kind, channel)).map(({ channel }) => ({
      kind,
      channel,
      wanted: form[choiceField(channel, kind)] !== undefined,
    })),
  );
  await setPreferences(tenant, tenant.userId, choices, deps.now());
  const on = choices.filter((choice) => choice.wanted).length;
  throw await redirectWithFlash(request, context.config.app, `${paths.settings()}#notifications`, {
    kind: "success",
    message:
      on === 0
        ? "Saved: only security notices reach you by email or SMS now. Every notification still shows under the bell."
        : "Saved: your notification choices are kept.",
  });
}

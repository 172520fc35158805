// What a person chose to get by email, per kind (decision 053): a row only where they chose; otherwise the kind's
// default (functions/notifications/kinds.ts). Set from Settings → Profile, or one kind off from an email's link.
import type { BusinessDb } from "../tenancy/tenant";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, wantsByDefault, type NotificationChannel, type NotificationKind } from "./kinds";

export type Preferences = Record<NotificationKind, Record<NotificationChannel, boolean>>;

/** The person's choices with the defaults filled in. */
export async function preferencesOf(business: BusinessDb, userId: string): Promise<Preferences> {
  const { results } = await business.db
    .prepare("SELECT kind, channel, wanted FROM notification_preferences WHERE business_id = ? AND user_id = ?")
    .bind(business.businessId, userId)
    .all<{ kind: string; channel: string; wanted: number }>();
  const preferences = Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, wantsByDefault(kind, channel)]))]),
  ) as Preferences;
  for (const row of results) {
    const kind = preferences[row.kind as NotificationKind];
    if (kind && row.channel in kind) kind[row.channel as NotificationChannel] = row.wanted === 1;
  }
  return preferences;
}

/** Sets the given choices (each kind and channel named), in one statement. */
export async function setPreferences(
  business: BusinessDb,
  userId: string,
  choices: { kind: NotificationKind; channel: NotificationChannel; wanted: boolean }[],
  now: number,
): Promise<void> {
  if (choices.length === 0) return;
  await business.db
    .prepare(
      `INSERT INTO notification_preferences (business_id, user_id, kind, channel, wanted, updated_at)
       SELECT ?1, ?2, j.value->>'kind', j.value->>'channel', j.value->>'wanted', ?3 FROM json_each(?4) j
       WHERE true
       ON CONFLICT (business_id, user_id, kind, channel) DO UPDATE SET wanted = excluded.wanted, updated_at = excluded.updated_at`,
    )
    .bind(business.businessId, userId, new Date(now).toISOString(), JSON.stringify(choices.map((c) => ({ ...c, wanted: c.wanted ? 1 : 0 }))))
    .run();
}

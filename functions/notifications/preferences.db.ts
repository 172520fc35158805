// What a person chose to get by email and SMS, per kind (decision 053): a row only where they chose; otherwise the
// kind's default for their role (functions/notifications/kinds.ts). Set from Settings → Profile, or one kind off from
// an email's link. A test business's people keep their live business's choices (decision 045).
import type { Role } from "../permissions";
import type { BusinessDb } from "../tenancy/tenant";
import { liveBusinessOf } from "../tenancy/test-mode";
import { isChoosable, NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, wantsByDefault, type NotificationChannel, type NotificationKind } from "./kinds";

export type Preferences = Record<NotificationKind, Record<NotificationChannel, boolean>>;

/** The person's choices with the defaults of their role filled in. */
export async function preferencesOf(business: BusinessDb, userId: string, role: Role): Promise<Preferences> {
  const { results } = await business.db
    .prepare("SELECT kind, channel, wanted FROM notification_preferences WHERE business_id = ? AND user_id = ?")
    .bind(liveBusinessOf(business.businessId), userId)
    .all<{ kind: string; channel: string; wanted: number }>();
  const preferences = Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, wantsByDefault(kind, channel, role)]))]),
  ) as Preferences;
  for (const row of results) {
    const kind = preferences[row.kind as NotificationKind];
    if (kind && row.channel in kind && isChoosable(row.kind as NotificationKind, row.channel as NotificationChannel)) {
      kind[row.channel as NotificationChannel] = row.wanted === 1;
    }
  }
  return preferences;
}

/** Sets the given choices (each kind and channel named), in one statement; a security notice's cannot be set. */
export async function setPreferences(
  business: BusinessDb,
  userId: string,
  choices: { kind: NotificationKind; channel: NotificationChannel; wanted: boolean }[],
  now: number,
): Promise<void> {
  const kept = choices.filter((choice) => isChoosable(choice.kind, choice.channel));
  if (kept.length === 0) return;
  await business.db
    .prepare(
      `INSERT INTO notification_preferences (business_id, user_id, kind, channel, wanted, updated_at)
       SELECT ?1, ?2, j.value->>'kind', j.value->>'channel', j.value->>'wanted', ?3 FROM json_each(?4) j
       WHERE true
       ON CONFLICT (business_id, user_id, kind, channel) DO UPDATE SET wanted = excluded.wanted, updated_at = excluded.updated_at`,
    )
    .bind(liveBusinessOf(business.businessId), userId, new Date(now).toISOString(), JSON.stringify(kept.map((c) => ({ ...c, wanted: c.wanted ? 1 : 0 }))))
    .run();
}

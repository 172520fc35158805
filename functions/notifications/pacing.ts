// How fast notices reach a person (decision 053): no SMS in Accra's quiet hours (it waits for the morning), and at most
// a few messages a person an hour on each channel; what is over the cap is folded into the person's next digest
// instead of sent. Security notices are never held: a sign-in or a new passkey at 02:00 is exactly what to hear of at
// once. Pure, so its rules are tested with generated input.
import type { NotificationChannel } from "./kinds";

/** Quiet hours for SMS, in Africa/Accra (UTC+0, no daylight saving): from 21:00 until 07:00. */
export const QUIET_HOURS = { from: 21, until: 7 } as const;
/** At most this many messages a person an hour on a channel. */
export const HOURLY_CAP: Readonly<Record<NotificationChannel, number>> = { email: 10, sms: 3 };
export const HOUR_MS = 3_600_000;

export interface SendToPace {
  id: string;
  userId: string;
  channel: NotificationChannel;
  /** A security notice: sent at once whatever the hour or the count (it still counts toward the cap). */
  urgent: boolean;
}

export type Pace = { id: string; step: "send" } | { id: string; step: "later"; at: number } | { id: string; step: "fold" };

/** Whether an instant falls in the quiet hours. */
export function inQuietHours(now: number): boolean {
  const hour = new Date(now).getUTCHours();
  return hour >= QUIET_HOURS.from || hour < QUIET_HOURS.until;
}

/** The end of the quiet hours an instant is in: the next 07:00 in Accra. */
export function quietHoursEnd(now: number): number {
  const day = new Date(now);
  const morning = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), QUIET_HOURS.until);
  return morning > now ? morning : morning + 24 * HOUR_MS;
}

export const paceKey = (userId: string, channel: NotificationChannel) => `${userId} ${channel}`;

/**
 * What to do with each due send, in the order given: send it, try it again at the end of the quiet hours (SMS only),
 * or fold it (the person had their hour's cap). `sentLastHour` counts what each (person, channel) was sent in the hour
 * before `now` (paceKey); what this run sends counts too.
 */
export function paceSends(due: readonly SendToPace[], sentLastHour: ReadonlyMap<string, number>, now: number): Pace[] {
  const counts = new Map(sentLastHour);
  const quiet = inQuietHours(now);
  return due.map((send): Pace => {
    const key = paceKey(send.userId, send.channel);
    const count = counts.get(key) ?? 0;
    if (!send.urgent) {
      if (send.channel === "sms" && quiet) return { id: send.id, step: "later", at: quietHoursEnd(now) };
      if (count >= HOURLY_CAP[send.channel]) return { id: send.id, step: "fold" };
    }
    counts.set(key, count + 1);
    return { id: send.id, step: "send" };
  });
}

// The 5-minute cron's webhook work: re-queue deliveries whose queue message was lost,
// announce terminals that went silent (terminal.silent, once per silence), and hand
// every not-yet-queued delivery to the queue (the outbox's safety net).
import { SILENT_AFTER_MS } from "../merchants/terminal-silence";
import { markSilentAnnouncedStatement, silentTerminalsToAnnounce } from "./sweep.db";
import { requeueLostDeliveries, webhookEventStatements } from "./outbox.db";
import type { BusinessDb } from "../tenancy/tenant";
import { everyBusinessDb } from "../tenancy/shards";
import { errorText, logEvent } from "../plumbing/log";
import { dispatchPendingDeliveries } from "./dispatch";
import { terminalView } from "./views";

/** A pending delivery this overdue has lost its queue message. */
export const LOST_AFTER_MS = 15 * 60_000;
const SILENT_BATCH = 50;

/** Emits terminal.silent for the business's newly silent terminals; returns how many. */
export async function announceSilentTerminals(business: BusinessDb, now: number): Promise<number> {
  const { db } = business;
  let announced = 0;
  for (;;) {
    const terminals = await silentTerminalsToAnnounce(business, now - SILENT_AFTER_MS, SILENT_BATCH);
    if (terminals.length === 0) return announced;
    await db.batch(
      terminals.flatMap((terminal) => [
        markSilentAnnouncedStatement(business, terminal),
        ...webhookEventStatements(business, [
          {
            // One event per silence: the same silence announced twice is one event.
            id: `evt_silent_${terminal.id}_${terminal.lastSeenAt ?? "never"}`,
            type: "terminal.silent",
            at: now,
            data: terminalView(terminal),
            extra: { silent_after_hours: SILENT_AFTER_MS / 3_600_000 },
          },
        ]),
      ]),
    );
    announced += terminals.length;
    if (terminals.length < SILENT_BATCH) return announced;
  }
}

export async function sweepWebhooks(env: Env, now: number): Promise<void> {
  for (const business of await everyBusinessDb(env, { activeOnly: true })) {
    try {
      await requeueLostDeliveries(business, now - LOST_AFTER_MS, now);
      await announceSilentTerminals(business, now);
    } catch (error) {
      logEvent("error", "webhooks.sweep_failed", { businessId: business.businessId, error: errorText(error) });
    }
  }
  await dispatchPendingDeliveries(env, now);
}

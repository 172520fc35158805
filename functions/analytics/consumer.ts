// The EVENTS queue consumer (and the dead-letter queue's), run by the Worker's
// `queue` handler. Queues deliver at least once, possibly twice at the same time;
// the events service must still see each event once. The protocol, per event hash
// (table analytics_seen, migration 0003):
//
//   1. Claim: one upsert sets status 'claimed' with a fresh token and time, if the
//      row is new, 'pending' (a relay failed), or claimed longer ago than
//      CLAIM_TIMEOUT_MS (its consumer died). SQLite runs it atomically: of two
//      concurrent deliveries exactly one gets its token back.
//      Not claimed: 'relayed' -> ack (a duplicate); otherwise another consumer is
//      relaying it right now -> retry later (never ack: if that consumer dies, this
//      delivery may be the only copy left).
//   2. Relay: POST the event to EVENTS_ENDPOINT, one request at a time (a batch's
//      events in order, each after the previous one's answer), with X-Api-Key and
//      X-Idempotency-Key: <hash>, bounded by RELAY_TIMEOUT_MS (far below the claim
//      timeout, so a claim is never taken over while its relay may still be sent).
//   3. 2xx: mark 'relayed' (whoever holds the claim: the 2xx is the proof), then ack.
//      Anything else: release the claim ('pending', keeping the error) and
//      message.retry() with exponential backoff (retry.ts). After the last retry
//      Queues moves the message to the dead-letter queue, whose consumer parks it
//      in analytics_parked for `npm run events:replay`.
//
// A crash at any step: before the claim, the delivery comes again; after the
// claim, the claim goes stale and a later delivery takes it over; after the relay
// but before 'relayed' is written, the next relay carries the same
// X-Idempotency-Key, which the events service uses to drop the repeat; after
// 'relayed', later deliveries are acked unsent. A message is acked only when its
// hash is 'relayed' (or it is invalid and can never be relayed).
//
// With no EVENTS_ENDPOINT the "relay" is one D1 batch that stores the event in
// analytics_events and marks it 'relayed'; it is idempotent, so needs no claim.
// When that batch fails for one event, the batch is split until the event stands
// alone and that one is parked at once (decision 028); a transient D1 error
// retries them all instead.
import { claimEvent, eventStatus, markRelayed, parkStatement, releaseClaim, storeEventStatements } from "./analytics-events.db";
import { EVENTS_RETRY_BASE_SECONDS_DEFAULT, EVENTS_RETRY_MAX_SECONDS_DEFAULT, configOf, type EventsConfig } from "../env";
import { errorText, logEvent } from "../plumbing/log";
import { isTransient } from "../plumbing/queue-errors";
import { retryDelaySeconds } from "./retry";
import { canonicalJson, parseQueueMessage, type EventsQueueMessage } from "./schema";

export const CLAIM_TIMEOUT_MS = 120_000;
export const RELAY_TIMEOUT_MS = 10_000;

/** The dead-letter queue of partners-portal-events (wrangler.toml) ends so. */
export function isDeadLetterQueue(queue: string): boolean {
  return queue.endsWith("-dlq");
}

interface Valid {
  message: Message<unknown>;
  body: EventsQueueMessage;
}

/** Validates every message; invalid ones are acked (they can never succeed) and logged. */
async function validMessages(batch: MessageBatch<unknown>): Promise<Valid[]> {
  const valid: Valid[] = [];
  for (const message of batch.messages) {
    const parsed = await parseQueueMessage(message.body);
    if (parsed.success) {
      valid.push({ message, body: parsed.message });
    } else {
      logEvent("error", "analytics.invalid_message", { queue: batch.queue, messageId: message.id, reason: parsed.reason });
      message.ack();
    }
  }
  return valid;
}

export async function handleEventsBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (isDeadLetterQueue(batch.queue)) {
    // Parking needs no settings but the retry delays: a broken configuration must
    // not cost dead letters (the dead-letter queue has no dead-letter queue).
    let config: EventsConfig;
    try {
      config = configOf(env).events;
    } catch (error) {
      logEvent("error", "analytics.config_invalid", { queue: batch.queue, error: errorText(error) });
      config = {
        endpoint: null,
        apiKey: null,
        replaySecret: null,
        retryBaseSeconds: EVENTS_RETRY_BASE_SECONDS_DEFAULT,
        retryMaxSeconds: EVENTS_RETRY_MAX_SECONDS_DEFAULT,
      };
    }
    const messages = await validMessages(batch);
    return messages.length === 0 ? undefined : parkMessages(env.DB, messages, config);
  }
  // A bad configuration throws here: the whole batch is retried (wrangler.toml
  // retry_delay) and, if it stays broken, dead-lettered and parked.
  const config = configOf(env).events;
  const messages = await validMessages(batch);
  if (messages.length === 0) return;
  if (!config.endpoint) return storeMessages(env.DB, messages, config);
  return relayMessages(env.DB, messages, { ...config, endpoint: config.endpoint });
}

function retryLater(message: Message<unknown>, config: EventsConfig): void {
  message.retry({ delaySeconds: retryDelaySeconds(message.attempts, config) });
}

// ---------------------------------------------------------------- no endpoint: D1

async function storeMessages(db: D1Database, messages: Valid[], config: EventsConfig): Promise<void> {
  const now = new Date().toISOString();
  const statements = messages.flatMap(({ body }) =>
    storeEventStatements(db, { hash: body.hash, eventJson: canonicalJson(body.event), receivedAt: body.receivedAt }, now),
  );
  try {
    await db.batch(statements);
  } catch (error) {
    logEvent("error", "analytics.store_failed", { count: messages.length, error: errorText(error) });
    // D1 busy: every message again later (bounded by max_retries, then the dead-letter queue parks them).
    if (isTransient(error)) {
      for (const { message } of messages) retryLater(message, config);
      return;
    }
    // Poison isolation (decision 028): halves on their own until the failing event stands alone; it is parked now.
    if (messages.length > 1) {
      const half = Math.ceil(messages.length / 2);
      await storeMessages(db, messages.slice(0, half), config);
      await storeMessages(db, messages.slice(half), config);
      return;
    }
    await parkMessages(db, messages, config, errorText(error));
    return;
  }
  for (const { message } of messages) message.ack();
}

// ---------------------------------------------------------------- relay

type RelayConfig = EventsConfig & { endpoint: string };

async function relayMessages(db: D1Database, messages: Valid[], config: RelayConfig): Promise<void> {
  // SPEC section 7: sent one at a time. The batch's events go one after another in
  // the order the queue delivered them (a second copy of one event finds it relayed).
  for (const item of messages) {
    const outcome = await relayOne(db, item.body, item.message.attempts, config).catch((error: unknown) => {
      logEvent("error", "analytics.relay_crashed", { hash: item.body.hash, error: errorText(error) });
      return "retry" as const;
    });
    if (outcome === "ack") item.message.ack();
    else retryLater(item.message, config);
  }
}

async function relayOne(db: D1Database, body: EventsQueueMessage, attempt: number, config: RelayConfig): Promise<"ack" | "retry"> {
  const { hash } = body;
  const token = crypto.randomUUID();
  const now = Date.now();
  const claim = await claimEvent(db, { hash, receivedAt: body.receivedAt, token, now, staleBefore: now - CLAIM_TIMEOUT_MS });
  if (claim?.claim_token !== token) {
    const row = await eventStatus(db, hash);
    if (row?.status === "relayed") return "ack";
    logEvent("info", "analytics.claimed_elsewhere", { hash, attempt });
    return "retry";
  }

  let failure: string;
  try {
    const response = await fetch(config.endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Api-Key": config.apiKey ?? "",
        "X-Idempotency-Key": hash,
      },
      body: canonicalJson(body.event),
      redirect: "manual",
      signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.ok) {
      try {
        await markRelayed(db, hash, new Date().toISOString());
      } catch (error) {
        // Delivered: ack anyway. The claim goes stale; a later copy would relay
        // again with the same idempotency key, which the service drops.
        logEvent("error", "analytics.mark_relayed_failed", { hash, error: errorText(error) });
      }
      return "ack";
    }
    failure = `HTTP ${response.status}`;
  } catch (error) {
    failure = error instanceof Error && error.name === "TimeoutError" ? `no answer in ${RELAY_TIMEOUT_MS / 1000} s` : errorText(error);
  }

  logEvent("warn", "analytics.relay_failed", { hash, attempt, failure });
  try {
    await releaseClaim(db, hash, token, failure.slice(0, 500));
  } catch (error) {
    // The claim stays until it is stale; the retry takes it over then.
    logEvent("error", "analytics.release_failed", { hash, error: errorText(error) });
  }
  return "retry";
}

// ---------------------------------------------------------------- dead letters

/** The dead-letter queue's consumer (and the store's poison isolation): keep each event (unless it was relayed meanwhile) for the replay. */
async function parkMessages(db: D1Database, messages: Valid[], config: EventsConfig, why = "dead-lettered"): Promise<void> {
  const now = new Date().toISOString();
  try {
    await db.batch(messages.map(({ body }) => parkStatement(db, body.hash, JSON.stringify(body), now, why === "dead-lettered" ? null : why)));
  } catch (error) {
    logEvent("error", "analytics.park_failed", { count: messages.length, error: errorText(error) });
    // One that cannot be parked must not keep the others from being parked.
    if (messages.length > 1 && !isTransient(error)) {
      for (const item of messages) await parkMessages(db, [item], config, why);
      return;
    }
    for (const { message } of messages) retryLater(message, config);
    return;
  }
  for (const { message, body } of messages) {
    logEvent(why === "dead-lettered" ? "warn" : "error", "analytics.parked", { hash: body.hash, why: why.slice(0, 300) });
    message.ack();
  }
}

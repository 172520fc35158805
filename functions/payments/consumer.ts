// The PAYMENTS queue's consumer: what the Partner API accepted, written to D1.
// A queue batch (up to max_batch_size messages of up to 100 payments each) is
// grouped by business, and each business's share is written in one D1 batch
// (functions/payments/ingest.db.ts says why that makes every payment exactly once).
//
// Poison isolation (decision 028): one message that cannot be applied
// must not hold back or dead-letter the others. When a share fails:
//   - the business is being moved (a shard fence): not poison, every message is
//     retried a little later;
//   - any other failure of a part of several messages: it is split in halves at
//     once, each applied on its own, until the failing message stands alone, so the
//     rest of the batch is applied in the same delivery, whatever the error was;
//   - a message alone failing with a transient error (D1 busy, overloaded, a lost
//     connection: isTransient) is retried through the queue, and parked once it
//     still fails so at its MAX_TRANSIENT_ATTEMPTS delivery;
//   - a message alone failing with anything else is tried once more at once (a
//     race with another writer is over by then: ingest.ts re-reads) and then
//     parked in D1 (ingest_parked) with its error, acked, and logged at level
//     error.
// What still reaches the dead-letter queue (the consumer crashed, parking
// failed) is parked by handlePaymentsDeadLetters; `npm run ingest:replay` puts
// parked messages back on the queue.
import * as v from "valibot";
import { applyIngest } from "./ingest.db";
import type { HeartbeatItem, IngestResult, IngestWork, PaymentChange, PaymentItem, ReversalItem } from "./ingest-plan";
import { webhookEventStatements } from "../webhooks/outbox.db";
import { isBusinessMoving, type BusinessDb, type Db } from "../tenancy/tenant";
import { parkMessageStatement } from "./ingest-parked.db";
import { isTransient } from "../plumbing/queue-errors";
import { logEvent } from "../plumbing/log";

export { isTransient };
import { paymentView } from "../webhooks/views";
import { sha256Hex } from "../plumbing/sha256";

/** The Partner API's queue (wrangler.toml); the Worker's other queues are the analytics relay's. */
export const PAYMENTS_QUEUE = "partners-portal-payments";
/** Its dead-letter queue (wrangler.toml), consumed by handlePaymentsDeadLetters. */
export const PAYMENTS_DLQ = "partners-portal-payments-dlq";

export interface IngestMessage {
  v: 1;
  businessId: string;
  receivedAt: number;
  payments?: PaymentItem[];
  reversals?: ReversalItem[];
  heartbeats?: HeartbeatItem[];
}

// Only the Worker writes to this queue, but a message is still checked before
// it reaches D1: a malformed one is parked with a log line, never retried forever.
const Message = v.object({
  v: v.literal(1),
  businessId: v.string(),
  receivedAt: v.number(),
  payments: v.optional(v.array(v.object({ reference: v.string(), fingerprint: v.string() }))),
  reversals: v.optional(v.array(v.object({ reference: v.string(), reason: v.string(), reversedAt: v.number() }))),
  heartbeats: v.optional(v.array(v.object({ terminalId: v.string(), seenAt: v.number() }))),
});

/** Seconds before a failed share is tried again: short, since most failures are a race that is over. */
const RETRY_DELAY_SECONDS = 2;
/** A business being moved to another database waits this long: a move takes seconds to minutes, and nothing is lost meanwhile. */
const MOVING_RETRY_SECONDS = 5;

export interface ConsumerReport {
  businessId: string;
  result?: IngestResult;
  error?: string;
}

const EVENT_TYPE = { succeeded: "payment.succeeded", failed: "payment.failed", reversed: "payment.reversed" } as const;

/**
 * The payment.* webhooks of a batch, written with it. An event's id comes from the business, the reference and
 * the kind, so a batch delivered again cannot make a second event (and a duplicate makes no change to announce).
 */
async function paymentEvents(business: BusinessDb, changes: PaymentChange[]): Promise<D1PreparedStatement[]> {
  const { businessId } = business;
  const events = await Promise.all(
    changes.map(async ({ kind, payment }) => ({
      id: `evt_${(await sha256Hex(`${businessId}\n${payment.reference}\n${kind}`)).slice(0, 32)}`,
      type: EVENT_TYPE[kind],
      at: kind === "reversed" ? (payment.reversedAt ?? payment.createdAt) : payment.createdAt,
      data: paymentView({ ...payment, settlementId: null, settlementReference: null, settlementStatus: null, settlementPaidAt: null }),
    })),
  );
  return webhookEventStatements(business, events);
}

export interface ConsumerDeps {
  /** The business's database, found in the directory for every batch (functions/tenancy/shards.ts businessDb): a moved business is written where it is now. */
  findBusiness: (businessId: string) => Promise<BusinessDb | null>;
  /** The core database: where a message is parked when no database holds its business. */
  core: Db;
  now: () => number;
  afterWrite?: (business: BusinessDb, result: IngestResult) => Promise<void>;
  /** Honour the test hook (POISON_TEST_PREFIX): only when ENVIRONMENT is not production. */
  testHooks?: boolean;
  /** How a part of a share is written: applyIngest with its payment.* webhooks (a unit test puts its own here). */
  apply?: (business: BusinessDb, work: IngestWork, now: number) => Promise<IngestResult>;
}

const applyWithEvents = (business: BusinessDb, work: IngestWork, now: number) =>
  applyIngest(business, work, now, (changes) => paymentEvents(business, changes));

/** Deliveries a message gets for transient errors before it is parked: below wrangler.toml's max_retries (20), so parking comes first. */
export const MAX_TRANSIENT_ATTEMPTS = 10;

/**
 * Test hook (never in production): a payment whose reference starts so makes applying its message throw, as a
 * message the door should have refused would. The door refuses the known ones now, so tests need this to poison a queue.
 */
export const POISON_TEST_PREFIX = "POISON-TEST-";
/** The same, failing as D1 does when it is overloaded (a transient error): retried, then parked after MAX_TRANSIENT_ATTEMPTS. */
export const BUSY_TEST_PREFIX = "POISON-TEST-BUSY-";

function testHookError(items: Item[]): Error | null {
  const references = items.flatMap(({ body }) => body.payments ?? []).map((p) => p.reference);
  const busy = references.find((reference) => reference.startsWith(BUSY_TEST_PREFIX));
  if (busy) return new Error(`D1_ERROR: D1 DB is overloaded. (test hook: payment ${busy}, ENVIRONMENT is not production)`);
  const poisoned = references.find((reference) => reference.startsWith(POISON_TEST_PREFIX));
  return poisoned ? new Error(`Test hook: payment ${poisoned} cannot be applied (ENVIRONMENT is not production).`) : null;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The references a message body carries, whatever its shape (a malformed body may carry none). */
function referencesOf(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const refs: string[] = [];
  for (const list of [(body as IngestMessage).payments, (body as IngestMessage).reversals]) {
    if (Array.isArray(list)) for (const item of list) if (typeof item?.reference === "string") refs.push(item.reference);
  }
  return [...new Set(refs)];
}

function workOf(bodies: IngestMessage[]): IngestWork {
  const work: IngestWork = { payments: [], reversals: [], heartbeats: [] };
  for (const body of bodies) {
    work.payments.push(...(body.payments ?? []));
    work.reversals.push(...(body.reversals ?? []));
    work.heartbeats.push(...(body.heartbeats ?? []));
  }
  return work;
}

interface Item {
  message: Message<unknown>;
  body: IngestMessage;
}

/** The consumer's lines, through the one logger (functions/plumbing/log.ts), each saying what happened in `message`. */
function log(level: "warn" | "error", fields: Record<string, unknown>): void {
  logEvent(level, "payments.ingest", fields);
}

export async function handlePaymentsBatch(batch: MessageBatch<unknown>, deps: ConsumerDeps): Promise<ConsumerReport[]> {
  const byBusiness = new Map<string, Item[]>();
  const reports: ConsumerReport[] = [];
  for (const message of batch.messages) {
    if (!v.is(Message, message.body)) {
      // Never retried (it cannot become valid), never dropped unseen: parked where operators look.
      const businessId = typeof (message.body as { businessId?: unknown })?.businessId === "string" ? (message.body as { businessId: string }).businessId : "";
      await park(
        batch.queue,
        deps.core,
        { message, businessId, source: "consumer", error: "The message is not a Partner API message this portal can read." },
        deps.now(),
      );
      continue;
    }
    const body = message.body as IngestMessage;
    const share = byBusiness.get(body.businessId) ?? [];
    share.push({ message, body });
    byBusiness.set(body.businessId, share);
  }
  for (const [businessId, share] of byBusiness) {
    let business: BusinessDb | null;
    try {
      business = await deps.findBusiness(businessId);
    } catch (error) {
      log("warn", { queue: batch.queue, businessId, message: "ingest batch retried", error: errorText(error).slice(0, 300) });
      for (const { message } of share) message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
      reports.push({ businessId, error: errorText(error) });
      continue;
    }
    if (!business) {
      // A business the directory does not know has no database to write to: its messages are parked in the core one.
      for (const { message } of share)
        await park(batch.queue, deps.core, { message, businessId, source: "consumer", error: "No database holds this business." }, deps.now());
      continue;
    }
    await applyShare(batch.queue, business, share, deps, reports);
  }
  return reports;
}

/** Applies a share in one D1 batch; on failure retries, splits or parks as the header says. */
async function applyShare(queue: string, business: BusinessDb, items: Item[], deps: ConsumerDeps, reports: ConsumerReport[], lastTry = false): Promise<void> {
  const { businessId } = business;
  try {
    const hooked = deps.testHooks ? testHookError(items) : null;
    if (hooked) throw hooked;
    const result = await (deps.apply ?? applyWithEvents)(business, workOf(items.map((i) => i.body)), deps.now());
    for (const { message } of items) message.ack();
    reports.push({ businessId, result });
    await (deps.afterWrite ?? (async () => {}))(business, result).catch((error: unknown) =>
      log("error", { queue, message: "after-write step failed", error: String(error) }),
    );
  } catch (error) {
    const text = errorText(error);
    if (isBusinessMoving(error)) {
      log("warn", { queue, businessId, message: "ingest batch retried: business moving", error: text.slice(0, 300) });
      for (const { message } of items) message.retry({ delaySeconds: MOVING_RETRY_SECONDS });
      reports.push({ businessId, error: text });
      return;
    }
    // Split at the first failure, transient or not: a message that fails "transiently" every time (it may be the one
    // that keeps D1 busy) must not hold its neighbours back for a retry or three (2 s each); each half is tried at once,
    // which costs fewer than two writes per message of the part, and only when something failed.
    if (items.length > 1) {
      const half = Math.ceil(items.length / 2);
      await applyShare(queue, business, items.slice(0, half), deps, reports);
      await applyShare(queue, business, items.slice(half), deps, reports);
      return;
    }
    // Alone and not its fault: again later through the queue, and parked only if it stays unlucky.
    if (isTransient(error)) {
      log("warn", { queue, businessId, message: "ingest batch retried", error: text.slice(0, 300) });
      for (const { message } of items) {
        if (message.attempts >= MAX_TRANSIENT_ATTEMPTS)
          await park(
            queue,
            business.db,
            { message, businessId, source: "consumer", error: `Still failing after ${message.attempts} attempts: ${text}` },
            deps.now(),
          );
        else message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
      }
      reports.push({ businessId, error: text });
      return;
    }
    // Alone: once more at once, since a race with another writer fails like poison the first time.
    if (!lastTry) return applyShare(queue, business, items, deps, reports, true);
    const [{ message }] = items as [Item];
    await park(queue, business.db, { message, businessId, source: "consumer", error: text }, deps.now());
    reports.push({ businessId, error: text });
  }
}

/** Parks one message and acks it; when even that fails, the queue delivers it again (and, in the end, to the dead-letter queue). */
async function park(
  queue: string,
  db: Db,
  what: { message: Message<unknown>; businessId: string; source: "consumer" | "dead_letter"; error: string },
  now: number,
): Promise<void> {
  const { message, businessId, source, error } = what;
  const body = message.body as Partial<IngestMessage> | null;
  const references = referencesOf(body);
  try {
    await parkMessageStatement(db, {
      businessId,
      messageId: message.id,
      source,
      body,
      references,
      error,
      attempts: message.attempts,
      receivedAt: typeof body?.receivedAt === "number" ? body.receivedAt : null,
      parkedAt: now,
    }).run();
  } catch (parkError) {
    log(isBusinessMoving(parkError) ? "warn" : "error", {
      queue,
      businessId,
      message: "ingest message could not be parked; retried",
      id: message.id,
      error: errorText(parkError).slice(0, 300),
    });
    message.retry({ delaySeconds: isBusinessMoving(parkError) ? MOVING_RETRY_SECONDS : RETRY_DELAY_SECONDS });
    return;
  }
  // Level error: someone who runs the portal must look (npm run ingest:replay lists it).
  log("error", {
    queue,
    businessId,
    message: "ingest message parked",
    id: message.id,
    source,
    references: references.slice(0, 10),
    error: error.slice(0, 300),
  });
  message.ack();
}

/** The dead-letter queue's consumer: every message is parked in its business's database (the core one when none holds it). */
export async function handlePaymentsDeadLetters(batch: MessageBatch<unknown>, deps: Pick<ConsumerDeps, "findBusiness" | "core" | "now">): Promise<void> {
  for (const message of batch.messages) {
    const businessId = typeof (message.body as { businessId?: unknown })?.businessId === "string" ? (message.body as { businessId: string }).businessId : "";
    let business: BusinessDb | null = null;
    try {
      business = businessId ? await deps.findBusiness(businessId) : null;
    } catch (error) {
      log("warn", { queue: batch.queue, businessId, message: "dead letter retried", error: errorText(error).slice(0, 300) });
      message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
      continue;
    }
    const error = "The portal tried this message many times and could not apply it (it reached the dead-letter queue).";
    await park(batch.queue, business?.db ?? deps.core, { message, businessId, source: "dead_letter", error }, deps.now());
  }
}

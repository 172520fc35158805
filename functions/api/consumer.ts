// The PAYMENTS queue's consumer: what the Partner API accepted, written to D1.
// A queue batch (up to max_batch_size messages of up to 100 payments each) is
// grouped by business, and each business's share is written in one D1 batch
// (functions/data/ingest.ts says why that makes every payment exactly once).
// When a share fails (a race with another writer, D1 busy), its messages are
// retried and the other businesses' are kept.
import * as v from "valibot";
import { applyIngest, type HeartbeatItem, type IngestResult, type IngestWork, type PaymentChange, type PaymentItem, type ReversalItem } from "../data/ingest";
import { webhookEventStatements } from "../data/webhooks";
import { isBusinessMoving, type BusinessDb } from "../data/tenant";
import { paymentView } from "./views";
import { sha256Hex } from "../sha256";

/** The Partner API's queue (wrangler.toml); the Worker's other queues are the analytics relay's. */
export const PAYMENTS_QUEUE = "partners-portal-payments";

export interface IngestMessage {
  v: 1;
  businessId: string;
  receivedAt: number;
  payments?: PaymentItem[];
  reversals?: ReversalItem[];
  heartbeats?: HeartbeatItem[];
}

// Only the Worker writes to this queue, but a message is still checked before
// it reaches D1: a malformed one is dropped with a log line, never retried forever.
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

export async function handlePaymentsBatch(
  batch: MessageBatch<unknown>,
  /** The business's database, found in the directory for every batch (functions/shards.ts businessDb): a moved business is written where it is now. */
  findBusiness: (businessId: string) => Promise<BusinessDb | null>,
  now: () => number,
  afterWrite: (business: BusinessDb, result: IngestResult) => Promise<void> = async () => {},
): Promise<ConsumerReport[]> {
  const byBusiness = new Map<string, { messages: Message<unknown>[]; work: IngestWork }>();
  for (const message of batch.messages) {
    if (!v.is(Message, message.body)) {
      console.error(JSON.stringify({ level: "error", queue: batch.queue, message: "malformed ingest message dropped", id: message.id }));
      message.ack();
      continue;
    }
    const body = message.body as IngestMessage;
    const share = byBusiness.get(body.businessId) ?? { messages: [], work: { payments: [], reversals: [], heartbeats: [] } };
    share.messages.push(message);
    share.work.payments.push(...(body.payments ?? []));
    share.work.reversals.push(...(body.reversals ?? []));
    share.work.heartbeats.push(...(body.heartbeats ?? []));
    byBusiness.set(body.businessId, share);
  }
  const reports: ConsumerReport[] = [];
  for (const [businessId, share] of byBusiness) {
    try {
      const business = await findBusiness(businessId);
      if (!business) {
        // A business the directory does not know has no database to write to; its payments cannot be kept.
        console.error(JSON.stringify({ level: "error", queue: batch.queue, businessId, message: "ingest for an unknown business dropped" }));
        for (const message of share.messages) message.ack();
        continue;
      }
      const result = await applyIngest(business, share.work, now(), (changes) => paymentEvents(business, changes));
      for (const message of share.messages) message.ack();
      reports.push({ businessId, result });
      await afterWrite(business, result).catch((error: unknown) =>
        console.error(JSON.stringify({ level: "error", queue: batch.queue, message: "after-write step failed", error: String(error) })),
      );
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      console.error(JSON.stringify({ level: "warn", queue: batch.queue, businessId, message: "ingest batch retried", error: text.slice(0, 300) }));
      const delaySeconds = isBusinessMoving(error) ? MOVING_RETRY_SECONDS : RETRY_DELAY_SECONDS;
      for (const message of share.messages) message.retry({ delaySeconds });
      reports.push({ businessId, error: text });
    }
  }
  return reports;
}

// Sending approved refunds to the processor through a port (docs/decisions/022-refunds.md): the acquirer's switch in
// production (REFUND_RAIL, functions/rails/ports.ts; decision 041), a simulated one in development and tests. Each
// due refund is claimed (attempts + 1 and a lease, only if nobody claimed it meanwhile) and sent with its id as the
// idempotency key; the outcome is written with its posting and webhook in one batch guarded by the refund still
// sending, so it is posted once. A failure is retried with backoff; after the last, the money returns to available.
import { refundFailedPosting, refundSucceededPosting } from "../ledger/ledger";
import { clearBatchGuardsStatement } from "../plumbing/batch-guards.db";
import { postingStatements } from "../ledger/ledger.db";
import { guardStatement } from "../plumbing/batch-guards.db";
import { callbackRailOf, type RailAnswer } from "../rails/answer";
import { isGuardRefusal } from "../settlement/payouts";
import { getListedRefund } from "./refunds.db";
import {
  claimRefund,
  dueRefunds,
  failedRefundAttemptOnceStatement,
  finishRefundOnRailStatement,
  retryRefundOnRailStatement,
  succeededRefundAttemptStatement,
  waitRefundOnRailStatement,
  type DueRefund,
} from "./refund-sending.db";
import { refundListItem } from "../webhooks/views";
import { webhookEventStatements } from "../webhooks/outbox.db";
import type { BusinessDb } from "../tenancy/tenant";
import { isTestBusiness } from "../tenancy/test-mode";
import type { Channel } from "../ledger/pricing";

export const MAX_REFUND_ATTEMPTS = 4;
/** How long one sender may hold a refund before another may try it again. */
export const REFUND_LEASE_MS = 5 * 60_000;
/** After failed attempt n (1-based) the next waits this long: 5 minutes, 15 minutes, an hour (the 5-minute cron picks it up). */
export const REFUND_RETRY_DELAYS_MS: readonly number[] = [5 * 60_000, 15 * 60_000, 60 * 60_000];

export interface RefundOrder {
  /** The refund's id: the processor must refund a key once, however often it is sent. */
  idempotencyKey: string;
  paymentReference: string;
  channel: Channel;
  amount: number;
  /** Which attempt this is (1 first): a rail sends a later attempt under a new key (railKey). */
  attempt?: number;
}

/** The rail's answer (functions/rails/answer.ts): done, definitely not done, or pending (the poll asks later). */
export type RefundOutcome = RailAnswer;

export interface RefundPort {
  kind: string;
  /** Must be idempotent on `idempotencyKey`. */
  refund(order: RefundOrder): Promise<RefundOutcome>;
  /** The status poll of an attempt that had no answer; `key` is the attempt's key (railKey of the refund id). */
  status?(key: string): Promise<RefundOutcome>;
}

/** What the simulated processor needs to remember: KV in the Worker, a Map in a test. */
export interface RefundMemory {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
}

/**
 * Development's processor, deterministic by the amount's pesewas so a person (or a test) can choose the outcome:
 * an amount ending in .99 is always refused by the payer's bank; one ending in .98 times out on its first attempt and
 * succeeds when tried again; any other succeeds. A key it refunded is answered "done" again, never refunded twice.
 */
export function simulatedRefunds(memory: RefundMemory): RefundPort {
  return {
    kind: "simulated",
    async refund(order) {
      const key = `refund:${order.idempotencyKey}`;
      const seen = await memory.get(key);
      // A key it refunded is answered "done" again, never refunded twice.
      if (seen === "refunded") return { ok: true, rail: simulatorRail("refunded") };
      const answer = simulatedRefundAnswer(order.amount, seen === null);
      if (answer.ok) await memory.put(key, "refunded", { expirationTtl: 365 * 86_400 });
      else if (answer.rail?.status === "timed out") await memory.put(key, "failed-once", { expirationTtl: 30 * 86_400 });
      return answer;
    },
  };
}

/**
 * The simulator's answer by the amount's pesewas: .99 is refused by the payer's bank, .98 times out on a first try,
 * any other is refunded. Its answers name it, so the refund screens say a refund went through the simulator.
 */
function simulatedRefundAnswer(amount: number, firstTry: boolean): RefundOutcome {
  if (amount % 100 === 99) return { ok: false, error: "Simulated processor: the payer's bank refused the refund", rail: simulatorRail("refused") };
  if (amount % 100 === 98 && firstTry) return { ok: false, error: "Simulated processor: the network did not answer in time", rail: simulatorRail("timed out") };
  return { ok: true, rail: simulatorRail("refunded") };
}

const simulatorRail = (status: string) => ({ rail: "simulator", reference: null, status });

/**
 * A test business's refunds (decision 045), whatever rail the deployment refunds through: the development simulator's
 * rules with nothing to remember, the attempt telling a first try: the refund's own state keeps a refunded one from
 * being sent again.
 */
export const testModeRefunds: RefundPort = {
  kind: "simulated",
  refund: (order) => Promise.resolve(simulatedRefundAnswer(order.amount, (order.attempt ?? 1) === 1)),
};

export interface RefundRunResult {
  succeeded: string[];
  failed: { id: string; error: string; final: boolean }[];
}

/** Sends what is due in one business (or the one refund `onlyId`), oldest first, at most `limit`. `now` (ms) says which retries are due. */
export async function processRefunds(
  business: BusinessDb,
  deploymentPort: RefundPort,
  options: { now?: number; limit?: number; onlyId?: string } = {},
): Promise<RefundRunResult> {
  const port = isTestBusiness(business.businessId) ? testModeRefunds : deploymentPort;
  const result: RefundRunResult = { succeeded: [], failed: [] };
  const now = options.now ?? Date.now();
  const due = await dueRefunds(business, {
    maxAttempts: MAX_REFUND_ATTEMPTS,
    now: new Date(now).toISOString(),
    limit: options.limit ?? 50,
    onlyId: options.onlyId,
  });
  for (const refund of due) {
    // Held for the length of the call: another sender finds the lease (or the changed attempts) and leaves it.
    const claimed = await claimRefund(business, {
      refundId: refund.id,
      attempts: refund.attempts,
      leaseUntil: new Date(now + REFUND_LEASE_MS).toISOString(),
      now: new Date(now).toISOString(),
      rail: callbackRailOf(port.kind),
    });
    if (!claimed) continue;
    let outcome: RefundOutcome;
    try {
      outcome = await port.refund({
        idempotencyKey: refund.id,
        paymentReference: refund.paymentReference,
        channel: refund.channel,
        amount: refund.amount,
        attempt: claimed.attempts,
      });
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const at = new Date(Math.max(now, Date.now())).toISOString();
    const applied = await applyRefundAnswer(business, { ...refund, attempts: claimed.attempts }, outcome, { at, now });
    if (applied === "succeeded") result.succeeded.push(refund.id);
    else if (applied === "retrying" || applied === "failed")
      result.failed.push({ id: refund.id, error: (outcome as { error: string }).error.slice(0, 300), final: applied === "failed" });
  }
  return result;
}

/**
 * Applies one rail answer to a refund: the reply to the request, a callback and the poll all come here, in any order
 * and any number of times. Succeeded is written once from sending (from any attempt), with its posting
 * (refund_payable -> scheme_receivable) and refund.succeeded; a failure once per attempt and only for the latest one:
 * retried with backoff while attempts are left, else final with its posting (back to merchant_available) and
 * refund.failed. A success after the final failure, or a failure after the success, changes nothing (the guard rolls
 * the batch back). Postings are keyed pst_<refund>_<status>, so the ledger holds one outcome per refund.
 */
export async function applyRefundAnswer(
  business: BusinessDb,
  refund: DueRefund,
  answer: RefundOutcome,
  options: { at: string; now: number; attempt?: number },
): Promise<"succeeded" | "failed" | "retrying" | "waiting" | "already"> {
  const { db } = business;
  const { at } = options;
  // An answer before any attempt was claimed (a callback racing the claim) is about the first.
  const attempt = Math.max(1, options.attempt ?? refund.attempts);
  const mark = answer.rail ?? null;
  if (!answer.ok && answer.pending) {
    await db.batch([waitRefundOnRailStatement(business, refund.id, answer.rail, at, attempt)]);
    return "waiting";
  }
  const error = answer.ok ? null : answer.error.slice(0, 300);
  try {
    if (!answer.ok && attempt < MAX_REFUND_ATTEMPTS) {
      const wait = REFUND_RETRY_DELAYS_MS[Math.min(attempt, REFUND_RETRY_DELAYS_MS.length) - 1]!;
      await db.batch([
        failedRefundAttemptOnceStatement(business, { refundId: refund.id, attempt, error: error!, at }),
        guardStatement(db, "SELECT changes() = 1", "attempt not answered yet"),
        retryRefundOnRailStatement(business, refund.id, { attempt, nextAttemptAt: new Date(options.now + wait).toISOString(), mark }),
        guardStatement(db, "SELECT changes() = 1", "latest attempt, still sending"),
        clearBatchGuardsStatement(db),
      ]);
      return "retrying";
    }
    const status = answer.ok ? "succeeded" : "failed";
    const lines = answer.ok ? refundSucceededPosting(refund.amount) : refundFailedPosting(refund.merchantId, refund.amount);
    // The event carries the refund as GET /api/v1/refunds/{id} will answer it once the batch is written.
    const stored = await getListedRefund(business, refund.id);
    if (!stored) return "already";
    const data = refundListItem({ ...stored, status, completedAt: at, failureReason: error });
    await db.batch([
      ...(answer.ok
        ? []
        : [
            failedRefundAttemptOnceStatement(business, { refundId: refund.id, attempt, error: error!, at }),
            guardStatement(db, "SELECT changes() = 1", "attempt not answered yet"),
          ]),
      finishRefundOnRailStatement(business, refund.id, { status, at, failureReason: error, attempt, mark }),
      // Only from sending: a refund finished by someone else is not posted again (the batch rolls back).
      guardStatement(db, "SELECT changes() = 1", "still sending"),
      ...(answer.ok ? [succeededRefundAttemptStatement(business, { refundId: refund.id, attempt, at })] : []),
      ...postingStatements(business, lines, {
        postingId: `pst_${refund.id}_${status}`,
        memo: `Refund ${refund.id} ${status}`,
        postedAt: Date.parse(at),
        transactionId: refund.transactionId,
      }),
      ...webhookEventStatements(business, [
        {
          id: `evt_${refund.id}_${status}`,
          type: answer.ok ? "refund.succeeded" : "refund.failed",
          at: Date.parse(at),
          data,
          extra: answer.ok ? {} : { attempts: attempt },
        },
      ]),
      clearBatchGuardsStatement(db),
    ]);
    return status;
  } catch (caught) {
    if (isGuardRefusal(caught)) return "already";
    throw caught;
  }
}

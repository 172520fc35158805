// Paying settlements out through a port: the rail PAYOUT_RAIL names in production
// (the switch or Paystack Transfers, functions/rails/ports.ts; decision 041), a
// simulated one in development and tests.
// Each pending or failed settlement is claimed (attempts + 1, only if nobody
// claimed it meanwhile), sent with its reference as the idempotency key, and
// marked paid only from a state that is not paid: money is never paid twice,
// and a failure is recorded and retried on the next run, up to MAX_ATTEMPTS.
import { webhookEventStatements } from "../webhooks/outbox.db";
import { clearBatchGuardsStatement, guardStatement } from "../plumbing/batch-guards.db";
import { callbackRailOf, type RailAnswer } from "../rails/answer";
import {
  claimPayout,
  duePayouts,
  failedAttemptOnceStatement,
  markFailedOnRailStatement,
  markPaidOnRailStatement,
  paidAttemptStatement,
  waitOnRailStatement,
  type PayoutTarget,
} from "./payouts.db";
import type { BusinessDb } from "../tenancy/tenant";
import { isTestBusiness } from "../tenancy/test-mode";
import { getSettlement, type Settlement } from "./settlements.db";
import { settlementView } from "../webhooks/views";

export const MAX_PAYOUT_ATTEMPTS = 5;
/** How long one run may hold a payout before another may try it again. */
export const PAYOUT_LEASE_MS = 5 * 60_000;

export interface Payout {
  reference: string;
  amount: number;
  provider: string;
  accountNumber: string;
  accountName: string;
  /** Which attempt this is (1 first): a rail sends a later attempt under a new key (railKey). */
  attempt?: number;
  /** The line the rail passes on to the merchant's statement (payoutNarration). */
  narration: string;
}

/** A transfer's payout carries the asker's narration; without one, and for the daily run's, it names its reference. */
export function payoutNarration(due: { reference: string; transferId: string | null; narration: string | null }): string {
  if (due.narration) return due.narration;
  return `${due.transferId ? "Transfer" : "Settlement"} ${due.reference}`;
}

/** After failed attempt n of a transfer's payout the five-minute job waits this long: 5 minutes, 15 minutes, then hourly. */
export const TRANSFER_PAYOUT_RETRY_DELAYS_MS: readonly number[] = [5 * 60_000, 15 * 60_000, 60 * 60_000];

/** The rail's answer (functions/rails/answer.ts): done, definitely not done, or pending (taken or unknown: the poll asks later). */
export type PayoutOutcome = RailAnswer;

export interface PayoutPort {
  kind: string;
  /** Must be idempotent on `reference`: paying the same reference twice pays once. */
  pay(payout: Payout): Promise<PayoutOutcome>;
  /** The status poll of an attempt that had no answer (rails that answer later); `reference` is the attempt's key. */
  status?(reference: string): Promise<PayoutOutcome>;
}

/**
 * Development's provider: remembers what it paid (KV), so a repeat reference
 * is "already paid" rather than paid again; fails a first attempt now and then
 * (about one in five, decided by the reference) so retries can be seen.
 */
export function simulatedPayouts(kv: KVNamespace): PayoutPort {
  return {
    kind: "simulated",
    async pay(payout) {
      const key = `payout:${payout.reference}`;
      const seen = await kv.get(key);
      if (seen === "paid") return simulatedPayoutAnswer(payout.reference, false);
      const answer = simulatedPayoutAnswer(payout.reference, seen === null);
      if (answer.ok) await kv.put(key, "paid", { expirationTtl: 365 * 86_400 });
      else await kv.put(key, "failed-once", { expirationTtl: 30 * 86_400 });
      return answer;
    },
  };
}

/**
 * The simulator's answer: a first try fails for about one reference in five (decided by the reference), so retries can
 * be seen; any other is paid. Its answers name it, so the settlement screens say a payout went through the simulator.
 */
function simulatedPayoutAnswer(reference: string, firstTry: boolean): PayoutOutcome {
  const rail = (status: string) => ({ rail: "simulator", reference: null, status });
  let hash = 0;
  for (const char of reference) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  if (firstTry && hash % 5 === 0) return { ok: false, error: "Simulated provider: the bank did not answer in time", rail: rail("timed out") };
  return { ok: true, rail: rail("paid") };
}

/**
 * A test business's payouts (decision 045), whatever rail the deployment pays with: never a real rail, the simulator's
 * rule with nothing to remember (the attempt tells a first try; the settlement's own state keeps a paid payout from
 * being sent again), so a test integration sees settlement.failed and a retry.
 */
export const testModePayouts: PayoutPort = {
  kind: "simulated",
  pay: (payout) => Promise.resolve(simulatedPayoutAnswer(payout.reference, (payout.attempt ?? 1) === 1)),
};

export interface PayoutRunResult {
  paid: string[];
  failed: { id: string; error: string }[];
}

/**
 * Pays what is due in one business (pending, or failed with attempts left), oldest first, at most `limit`: every
 * settlement for the daily run, one (`onlyId`) right after a transfer's approval, transfers' only for the five-minute job.
 */
export async function processPayouts(
  business: BusinessDb,
  deploymentPort: PayoutPort,
  options: { limit?: number; onlyId?: string; transfersOnly?: boolean; now?: number } = {},
): Promise<PayoutRunResult> {
  const port = isTestBusiness(business.businessId) ? testModePayouts : deploymentPort;
  const result: PayoutRunResult = { paid: [], failed: [] };
  const results = await duePayouts(business, {
    maxAttempts: MAX_PAYOUT_ATTEMPTS,
    now: new Date(options.now ?? Date.now()).toISOString(),
    limit: options.limit ?? 50,
    onlyId: options.onlyId,
    transfers: options.transfersOnly ? { retryAfterMs: TRANSFER_PAYOUT_RETRY_DELAYS_MS } : undefined,
  });
  for (const due of results) {
    // Claim it for the length of the call: another runner finds the lease (or the
    // changed attempts) and leaves it, so one payout is with the provider at a time.
    const now = Date.now();
    const claimed = await claimPayout(business, {
      settlementId: due.id,
      attempts: due.attempts,
      leaseUntil: new Date(now + PAYOUT_LEASE_MS).toISOString(),
      now: new Date(now).toISOString(),
      // Nothing to pay goes to no rail.
      rail: due.net === 0 ? null : callbackRailOf(port.kind),
    });
    if (!claimed) continue;
    const at = new Date().toISOString();
    let outcome: PayoutOutcome;
    try {
      outcome =
        due.net === 0
          ? { ok: true }
          : await port.pay({
              reference: due.reference,
              amount: due.net,
              provider: due.provider,
              accountNumber: due.accountNumber,
              accountName: due.accountName,
              attempt: claimed.attempts,
              narration: payoutNarration(due),
            });
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const applied = await applyPayoutAnswer(business, { ...due, attempts: claimed.attempts, status: "pending" }, outcome, at);
    if (outcome.ok) {
      if (applied === "applied") result.paid.push(due.id);
    } else if (!outcome.pending) result.failed.push({ id: due.id, error: outcome.error });
  }
  return result;
}

/** A batch refused by its guard (batch_guards' CHECK): the answer was already applied. Anything else is rethrown. */
export function isGuardRefusal(error: unknown): boolean {
  return error instanceof Error && error.message.includes("CHECK constraint failed");
}

/**
 * Applies one rail answer to a settlement: the reply to the request, a callback and the poll all come here, in any
 * order and any number of times. Paid is written once (from any state but paid: a late success after a failure is
 * paid after all); a failure once per attempt, and only for the latest attempt of a settlement not paid; pending only
 * notes the rail's reference and status, and only while the latest attempt has no answer. Each write is one batch whose guard rolls it back when it was already done,
 * so the attempt record and the webhook event are there exactly once with it. The settlement's ledger posting was
 * made by the settlement run (available -> settlement_payable) and is not touched here.
 */
export async function applyPayoutAnswer(
  business: BusinessDb,
  target: Pick<PayoutTarget, "id" | "reference" | "net" | "attempts" | "status">,
  answer: PayoutOutcome,
  at: string,
  /** The attempt the answer is about (a callback's key names it); the settlement's latest by default. */
  attempt: number = target.attempts,
): Promise<"applied" | "already" | "waiting"> {
  const { db } = business;
  const mark = answer.rail ?? null;
  if (!answer.ok && answer.pending) {
    await db.batch([waitOnRailStatement(business, target.id, answer.rail, at, attempt)]);
    return "waiting";
  }
  // The events carry the settlement as GET /api/v1/settlements will list it once the batch is written.
  const stored = await getSettlement(business, target.id);
  if (!stored) return "already";
  const after = (change: Pick<Settlement, "status" | "paidAt">): Settlement => ({
    ...stored,
    ...change,
    railWaitingSince: null,
    rail: mark?.rail ?? stored.rail,
    railReference: mark?.reference ?? stored.railReference,
    railStatus: mark?.status ?? stored.railStatus,
  });
  try {
    if (answer.ok) {
      const event = {
        id: `evt_${target.id}_paid`,
        type: "settlement.paid" as const,
        at: Date.parse(at),
        data: settlementView(after({ status: "paid", paidAt: at })),
        extra: { attempt },
      };
      await db.batch([
        markPaidOnRailStatement(business, target.id, at, mark),
        guardStatement(db, "SELECT changes() = 1", "not paid yet"),
        paidAttemptStatement(business, { settlementId: target.id, attempt, at }),
        ...webhookEventStatements(business, [event]),
        clearBatchGuardsStatement(db),
      ]);
    } else {
      const error = answer.error.slice(0, 300);
      const event = {
        id: `evt_${target.id}_failed_${attempt}`,
        type: "settlement.failed" as const,
        at: Date.parse(at),
        data: settlementView(after({ status: "failed", paidAt: stored.paidAt })),
        extra: { attempt, error, will_retry: attempt < MAX_PAYOUT_ATTEMPTS },
      };
      await db.batch([
        failedAttemptOnceStatement(business, { settlementId: target.id, attempt, error, at }),
        guardStatement(db, "SELECT changes() = 1", "attempt not answered yet"),
        markFailedOnRailStatement(business, target.id, attempt, mark),
        guardStatement(db, "SELECT changes() = 1", "latest attempt, not paid"),
        ...webhookEventStatements(business, [event]),
        clearBatchGuardsStatement(db),
      ]);
    }
    return "applied";
  } catch (error) {
    if (isGuardRefusal(error)) return "already";
    throw error;
  }
}

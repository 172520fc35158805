// Paying settlements out through a port: the real provider in production (not
// built yet: no provider is named), a simulated one in development and tests.
// Each pending or failed settlement is claimed (attempts + 1, only if nobody
// claimed it meanwhile), sent with its reference as the idempotency key, and
// marked paid only from a state that is not paid: money is never paid twice,
// and a failure is recorded and retried on the next run, up to MAX_ATTEMPTS.
import { webhookEventStatements } from "../webhooks/outbox.db";
import { claimPayout, duePayouts, markFailedStatement, markPaidStatement, payoutAttemptStatement } from "./payouts.db";
import type { BusinessDb } from "../tenancy/tenant";

export const MAX_PAYOUT_ATTEMPTS = 5;
/** How long one run may hold a payout before another may try it again. */
export const PAYOUT_LEASE_MS = 5 * 60_000;

export interface Payout {
  reference: string;
  amount: number;
  provider: string;
  accountNumber: string;
  accountName: string;
}

export type PayoutOutcome = { ok: true } | { ok: false; error: string };

export interface PayoutPort {
  kind: string;
  /** Must be idempotent on `reference`: paying the same reference twice pays once. */
  pay(payout: Payout): Promise<PayoutOutcome>;
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
      if (seen === "paid") return { ok: true };
      let hash = 0;
      for (const char of payout.reference) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
      if (seen === null && hash % 5 === 0) {
        await kv.put(key, "failed-once", { expirationTtl: 30 * 86_400 });
        return { ok: false, error: "Simulated provider: the bank did not answer in time" };
      }
      await kv.put(key, "paid", { expirationTtl: 365 * 86_400 });
      return { ok: true };
    },
  };
}

export interface PayoutRunResult {
  paid: string[];
  failed: { id: string; error: string }[];
}

/** Pays what is due (pending, or failed with attempts left), oldest first, at most `limit`. */
/** Pays what is due in one business (pending, or failed with attempts left), oldest first, at most `limit`. */
export async function processPayouts(business: BusinessDb, port: PayoutPort, options: { limit?: number } = {}): Promise<PayoutRunResult> {
  const { db } = business;
  const result: PayoutRunResult = { paid: [], failed: [] };
  const results = await duePayouts(business, {
    maxAttempts: MAX_PAYOUT_ATTEMPTS,
    now: new Date().toISOString(),
    limit: options.limit ?? 50,
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
            });
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const record = payoutAttemptStatement(business, {
      settlementId: due.id,
      attempt: claimed.attempts,
      outcome: outcome.ok ? "paid" : "failed",
      error: outcome.ok ? null : outcome.error.slice(0, 300),
      at,
    });
    const settlement = { id: due.id, reference: due.reference, net: due.net, currency: "GHS", attempt: claimed.attempts };
    if (outcome.ok) {
      const event = { id: `evt_${due.id}_paid`, type: "settlement.paid" as const, at: Date.parse(at), data: { settlement: { ...settlement, paidAt: at } } };
      await db.batch([markPaidStatement(business, due.id, at), record, ...webhookEventStatements(business, [event])]);
      result.paid.push(due.id);
    } else {
      const event = {
        id: `evt_${due.id}_failed_${claimed.attempts}`,
        type: "settlement.failed" as const,
        at: Date.parse(at),
        data: { settlement: { ...settlement, error: outcome.error.slice(0, 300), willRetry: claimed.attempts < MAX_PAYOUT_ATTEMPTS } },
      };
      await db.batch([markFailedStatement(business, due.id), record, ...webhookEventStatements(business, [event])]);
      result.failed.push({ id: due.id, error: outcome.error });
    }
  }
  return result;
}

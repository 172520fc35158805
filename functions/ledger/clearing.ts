// Runtime clearing (the 5-minute Cron Trigger, and first thing in the daily one): each successful payment whose
// clearing time (functions/ledger/ledger.ts clearsAt: card 3 days, mobile money 1) has come is marked cleared and its net
// moves from the merchant's pending account to its available one, where the daily settlement finds it. Safe to run
// twice at once: a batch that meets a payment another run cleared first rolls back whole (functions/ledger/clearing.db.ts)
// and this run reads what is still due again.
import { clearBatchGuardsStatement } from "../plumbing/batch-guards.db";
import { clearPaymentStatements, duePayments } from "./clearing.db";
import type { BusinessDb } from "../tenancy/tenant";
import { logEvent } from "../plumbing/log";

/** Payments per D1 batch: 8 statements each (the UPDATE, its guard, two ledger lines of three statements). */
export const CLEARING_CHUNK = 100;
/** Batches rolled back by another run before this run leaves a business to the next one. */
const MAX_CONFLICTS = 5;

export interface ClearingResult {
  /** Payments this run cleared. */
  cleared: number;
  /** Per business, those it cleared (businesses with none are left out). */
  byBusiness: Record<string, number>;
  /** Batches rolled back because another run cleared one of their payments first. */
  conflicts: number;
}

/** Clears every payment due at `now` in each business (every one, suspended too: functions/tenancy/shards.ts everyBusinessDb), oldest first. */
export async function clearDuePayments(businesses: readonly BusinessDb[], now: number, chunk: number = CLEARING_CHUNK): Promise<ClearingResult> {
  const result: ClearingResult = { cleared: 0, byBusiness: {}, conflicts: 0 };
  for (const business of businesses) {
    const { businessId, db } = business;
    let conflicts = 0;
    for (;;) {
      const due = await duePayments(business, now, chunk);
      if (due.length === 0) break;
      try {
        await db.batch([...due.flatMap((payment) => clearPaymentStatements(business, payment)), clearBatchGuardsStatement(db)]);
      } catch (error) {
        // The guard's CHECK: another run cleared one of these first. Anything else is a real failure.
        if (!/CHECK/.test(error instanceof Error ? error.message : String(error))) throw error;
        result.conflicts += 1;
        if (++conflicts > MAX_CONFLICTS) break;
        continue;
      }
      result.cleared += due.length;
      result.byBusiness[businessId] = (result.byBusiness[businessId] ?? 0) + due.length;
      if (due.length < chunk) break;
    }
  }
  logEvent("info", "clearing.run", { cleared: result.cleared, conflicts: result.conflicts });
  return result;
}

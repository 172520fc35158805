// The daily Cron Trigger (wrangler.toml [triggers]): settle yesterday for every
// active business, then pay out what is due. Also run on demand by an
// administrator (/money/settlement-history), for one business.
import type { BusinessDb, RequestMeta, Tenant } from "../tenancy/tenant";
import { logEvent } from "../plumbing/log";
import type { RailsConfig } from "../env";
import { payoutPortFor as payoutRailFor } from "../rails/ports";
import { processPayouts, type PayoutPort, type PayoutRunResult } from "./payouts";
import { runSettlement, settlementPeriodFor, type SettlementRunResult } from "./run";

/** The payout rail PAYOUT_RAIL names (functions/rails/ports.ts); null when it is not configured (railProblems says why). */
export function payoutPortFor(env: { ENVIRONMENT?: string; KV: KVNamespace }, rails: RailsConfig): PayoutPort | null {
  return payoutRailFor(env, rails);
}

/** Settles each business (every active one for the Cron Trigger: functions/tenancy/shards.ts everyBusinessDb), then pays out what is due. */
export async function settleAndPay(
  businesses: readonly BusinessDb[],
  port: PayoutPort | null,
  options: { now: number; meta: RequestMeta; actor: Tenant | null },
): Promise<{ runs: SettlementRunResult[]; payouts: PayoutRunResult | null }> {
  const runs: SettlementRunResult[] = [];
  for (const business of businesses) runs.push(await runSettlement(business, settlementPeriodFor(options.now), options.meta, options.actor));
  let payouts: PayoutRunResult | null = null;
  if (port) {
    payouts = { paid: [], failed: [] };
    for (const business of businesses) {
      const run = await processPayouts(business, port);
      payouts.paid.push(...run.paid);
      payouts.failed.push(...run.failed);
    }
  }
  logEvent("info", "settlement.run", {
    businesses: businesses.length,
    settled: runs.reduce((n, r) => n + r.settled.length, 0),
    skipped: runs.reduce((n, r) => n + r.skipped.length, 0),
    paid: payouts?.paid.length ?? 0,
    failed: payouts?.failed.length ?? 0,
  });
  return { runs, payouts };
}

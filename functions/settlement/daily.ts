// The daily Cron Trigger (wrangler.toml [triggers]): settle yesterday for every
// active business, then pay out what is due. Also run on demand by an
// administrator (/money/settlement-history), for one business.
import { activeBusinessIds } from "../data/settlement-runs";
import type { RequestMeta, Tenant } from "../data/tenant";
import { logEvent } from "../events/http";
import { processPayouts, simulatedPayouts, type PayoutPort, type PayoutRunResult } from "./payouts";
import { runSettlement, settlementPeriodFor, type SettlementRunResult } from "./run";

/** The payout provider for this environment; production has none configured yet, so payouts wait. */
export function payoutPortFor(env: { ENVIRONMENT?: string; KV: KVNamespace }): PayoutPort | null {
  return env.ENVIRONMENT === "production" ? null : simulatedPayouts(env.KV);
}

export async function settleAndPay(
  db: D1Database,
  port: PayoutPort | null,
  options: { businessId?: string; now: number; meta: RequestMeta; actor: Tenant | null },
): Promise<{ runs: SettlementRunResult[]; payouts: PayoutRunResult | null }> {
  const businesses = options.businessId ? [options.businessId] : await activeBusinessIds(db);
  const runs: SettlementRunResult[] = [];
  for (const businessId of businesses) runs.push(await runSettlement(db, businessId, settlementPeriodFor(options.now), options.meta, options.actor));
  const payouts = port ? await processPayouts(db, port, { businessId: options.businessId }) : null;
  logEvent("info", "settlement.run", {
    businesses: businesses.length,
    settled: runs.reduce((n, r) => n + r.settled.length, 0),
    skipped: runs.reduce((n, r) => n + r.skipped.length, 0),
    paid: payouts?.paid.length ?? 0,
    failed: payouts?.failed.length ?? 0,
  });
  return { runs, payouts };
}

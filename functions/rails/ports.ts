// The rails behind the existing ports (PayoutPort, RefundPort), chosen by PAYOUT_RAIL and REFUND_RAIL
// (functions/env.ts railsConfigOf). A rail that is not configured gives no port and one message naming the variable,
// which the screens show and the cron job records, instead of leaving "Sending" unexplained.
import type { RailsConfig } from "../env";
import { simulatedRefunds, type RefundPort } from "../refunds/send";
import { simulatedPayouts, type PayoutPort } from "../settlement/payouts";
import { railKey } from "./answer";
import { paystackPayouts } from "./paystack";
import { switchClient, type Fetch } from "./switch";

/** The switch as a payout rail: POST /v1/payouts under the attempt's key, GET /v1/payouts/{key} to poll. */
export function switchPayouts(rail: Parameters<typeof switchClient>[0], fetcher?: Fetch): PayoutPort {
  const client = switchClient(rail, fetcher);
  return {
    kind: "switch",
    pay: (payout) =>
      client.send("payouts", railKey(payout.reference, payout.attempt ?? 1), {
        amount: { value: payout.amount, currency: "GHS" },
        beneficiary: { provider: payout.provider, account_number: payout.accountNumber, account_name: payout.accountName },
        narration: payout.narration,
      }),
    status: (key) => client.status("payouts", key),
  };
}

/** The switch as the refund rail: POST /v1/refunds under the attempt's key, GET /v1/refunds/{key} to poll. */
export function switchRefunds(rail: Parameters<typeof switchClient>[0], fetcher?: Fetch): RefundPort {
  const client = switchClient(rail, fetcher);
  return {
    kind: "switch",
    refund: (order) =>
      client.send("refunds", railKey(order.idempotencyKey, order.attempt ?? 1), {
        payment_reference: order.paymentReference,
        channel: order.channel,
        amount: { value: order.amount, currency: "GHS" },
      }),
    status: (key) => client.status("refunds", key),
  };
}

type RailEnv = { ENVIRONMENT?: string; KV: KVNamespace };

/** The payout port for this environment, or null with the reason (railProblems). */
export function payoutPortFor(env: RailEnv, config: RailsConfig, fetcher?: Fetch): PayoutPort | null {
  const choice = config.payout;
  if (choice.rail === "simulator") return simulatedPayouts(env.KV);
  if (choice.rail === "switch") return switchPayouts(choice, fetcher);
  if (choice.rail === "paystack") return paystackPayouts(choice, env.KV, fetcher);
  return null;
}

/** The refund port for this environment (REFUND_RAIL), or null with the reason (railProblems). */
export function refundPortFor(env: RailEnv, config: RailsConfig, fetcher?: Fetch): RefundPort | null {
  const choice = config.refund;
  if (choice.rail === "simulator") return simulatedRefunds(env.KV);
  if (choice.rail === "switch") return switchRefunds(choice, fetcher);
  return null;
}

/** Why payouts or refunds are not being sent, one sentence each naming the variable; empty when they are. */
export function railProblems(config: RailsConfig): { payout: string | null; refund: string | null } {
  return { payout: config.payout.rail === null ? config.payout.problem : null, refund: config.refund.rail === null ? config.refund.problem : null };
}

// An answer about an attempt key, from a callback or the poll, applied to the order it names wherever its business
// lives: the key names the settlement reference or refund id (railKey), found by looking in each database.
import { isTestBusiness } from "../tenancy/test-mode";
import { databaseNamed, shardNames } from "../tenancy/shards";
import { applyRefundAnswer } from "../refunds/send";
import { refundTargetById, refundsWaitingOnRail } from "../refunds/refund-sending.db";
import { applyPayoutAnswer } from "../settlement/payouts";
import { payoutTargetByReference, payoutsWaitingOnRail } from "../settlement/payouts.db";
import type { BusinessDb } from "../tenancy/tenant";
import { logEvent } from "../plumbing/log";
import { parseRailKey, railKey, type CallbackRail, type RailAnswer } from "./answer";
import type { PayoutPort } from "../settlement/payouts";
import type { RefundPort } from "../refunds/send";

export type Applied = "applied" | "already" | "waiting" | Unmatched;

/** Why a callback moved nothing: kept in rail_callbacks_unmatched and answered 2xx (decision 041, 2026-12-01). */
export type Unmatched = "unknown order" | "ambiguous" | "never sent" | "not sent to this rail" | "not the latest attempt";

/**
 * A callback may move only what this portal sent to that same rail: the order its key names, sent to `rail` (written
 * with the attempt, before sending), and about the attempt that is the order's latest. Anything else is
 * answered with why and changes nothing: a correctly signed answer about money never sent there must not mark it paid.
 */
export function unmatchedWhy(target: { rail: string | null; attempts: number }, rail: CallbackRail, attempt: number): Unmatched | null {
  if (target.attempts === 0) return "never sent";
  if (target.rail !== rail) return "not sent to this rail";
  if (attempt !== target.attempts) return "not the latest attempt";
  return null;
}

export function isUnmatched(applied: Applied): applied is Unmatched {
  return applied !== "applied" && applied !== "already" && applied !== "waiting";
}

/**
 * A rail's callback, applied to the order its key names wherever its business lives, when it is the exact match
 * (unmatchedWhy); the poll and the reply go straight to the apply functions. Every database is asked, not the first
 * that answers: a settlement reference made before references carried their business's tag (functions/settlement/run.ts settlementReference) may name a settlement in two businesses. Such an
 * answer is applied to neither ("ambiguous", logged for the operators) rather than to whichever was found first.
 */
export async function applyAnswerByKey(
  env: Env,
  rail: CallbackRail,
  kind: "payout" | "refund",
  key: string,
  answer: RailAnswer,
  now: number,
): Promise<Applied> {
  const { base, attempt } = parseRailKey(key);
  const at = new Date(now).toISOString();
  const databases = ["DB", ...shardNames(env)].map((name) => databaseNamed(env, name));
  if (kind === "payout") {
    const found = (await Promise.all(databases.map(async (db) => ({ db, target: await payoutTargetByReference(db, base) })))).filter((f) => f.target);
    if (found.length > 1) {
      logEvent("error", "rail.ambiguous_reference", { kind, key, businesses: found.map((f) => f.target!.businessId) });
      return "ambiguous";
    }
    const [only] = found;
    if (!only) return "unknown order";
    const target = only.target!;
    return unmatchedWhy(target, rail, attempt) ?? applyPayoutAnswer({ businessId: target.businessId, db: only.db }, target, answer, at, attempt);
  }
  // Refund ids are random (ref_<uuid>): one database at most holds one.
  for (const db of databases) {
    const target = await refundTargetById(db, base);
    if (!target) continue;
    const unmatched = unmatchedWhy(target, rail, attempt);
    if (unmatched) return unmatched;
    const result = await applyRefundAnswer({ businessId: target.businessId, db }, target, answer, { at, now, attempt });
    return result === "waiting" || result === "already" ? result : "applied";
  }
  return "unknown order";
}

/**
 * The status poll (the 5-minute cron): every payout and refund sent and unanswered for longer than `afterMs` is asked
 * about by its latest attempt's key, and the answer goes through the same apply functions as a callback. Still
 * pending: it waits for the next poll (rail_waiting_since is moved on, so the oldest are asked first).
 */
export async function pollRails(
  businesses: readonly BusinessDb[],
  ports: { payout: PayoutPort | null; refund: RefundPort | null },
  options: { now: number; afterMs: number; limit?: number },
): Promise<{ asked: number; answered: number }> {
  const before = new Date(options.now - options.afterMs).toISOString();
  const at = new Date(options.now).toISOString();
  let asked = 0;
  let answered = 0;
  for (const business of businesses) {
    // A test business's payouts and refunds are answered by the simulator at once (decision 045): never asked of a real rail.
    if (isTestBusiness(business.businessId)) continue;
    const payoutStatus = ports.payout?.status?.bind(ports.payout);
    if (payoutStatus) {
      for (const target of await payoutsWaitingOnRail(business, before, options.limit ?? 50)) {
        asked += 1;
        const answer = await payoutStatus(railKey(target.reference, target.attempts));
        if ((await applyPayoutAnswer(business, target, answer, at)) !== "waiting") answered += 1;
      }
    }
    const refundStatus = ports.refund?.status?.bind(ports.refund);
    if (refundStatus) {
      for (const target of await refundsWaitingOnRail(business, before, options.limit ?? 50)) {
        asked += 1;
        const answer = await refundStatus(railKey(target.id, target.attempts));
        if ((await applyRefundAnswer(business, target, answer, { at, now: options.now })) !== "waiting") answered += 1;
      }
    }
  }
  return { asked, answered };
}

// Daily settlement: each merchant is paid what cleared the day before, to its
// primary settlement account. A run writes, per merchant and in one D1 batch,
// the settlement, the transactions it covers (settlement_items: a transaction
// can be in only one settlement, ever) and the posting available ->
// settlement payable. Running it twice, even at once, pays nothing twice: the
// second batch meets the UNIQUE rows of the first and writes nothing.
import { ledgerAccountId, settlementPosting } from "../ledger/ledger";
import { signInAuditStatement } from "../audit/audit.db";
import { clearBatchGuardsStatement } from "../plumbing/batch-guards.db";
import { postingStatements } from "../ledger/ledger.db";
import {
  availableGuardStatement,
  clearedUnsettled,
  insertSettlementStatement,
  itemsGuardStatement,
  merchantsToSettle,
  settlementItemsStatement,
} from "./settlement-runs.db";
import type { BusinessDb, RequestMeta, Tenant } from "../tenancy/tenant";
import { DAY_MS, utcDay } from "../plumbing/time";

/** Cards clear in 3 days, mobile money in 1: a payment cleared in a day was made at most this long before it. */
const LONGEST_CLEARING_MS = 3 * DAY_MS;

export interface SettlementRunResult {
  periodStart: number;
  settled: { merchantId: string; settlementId: string; net: number; transactions: number }[];
  /** Merchants with cleared money that could not be settled, and why. */
  skipped: { merchantId: string; reason: string }[];
}

const ymd = (ms: number) => utcDay(ms).replace(/-/g, "");

const TAG_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A settlement's reference: STL-<merchant code>-<yyyymmdd>-<business tag>. Merchant codes are unique only within a
 * business (two businesses both have MRC-0002), so without the tag two businesses' settlements of a day had one
 * reference: on one database the second was refused by reference's UNIQUE and its merchant never paid, and on a
 * payout rail the reference is the idempotency key, so the rail answered one business's payout with the other's and a
 * callback could land on the wrong business's settlement. The tag is 8 characters (40 bits) of SHA-256 of the business
 * id in a read-aloud alphabet (no 0/O or 1/I/L), so it is the same for every settlement of a business.
 */
export async function settlementReference(businessId: string, merchantCode: string, periodStart: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(businessId)));
  let bits = 0n;
  for (const byte of digest.slice(0, 5)) bits = (bits << 8n) | BigInt(byte);
  let tag = "";
  for (let i = 0; i < 8; i += 1) tag = TAG_ALPHABET[Number((bits >> BigInt(5 * i)) & 31n)]! + tag;
  return `STL-${merchantCode}-${ymd(periodStart)}-${tag}`;
}

/** The day whose cleared money a run at `now` pays: yesterday (Africa/Accra = UTC). */
export function settlementPeriodFor(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
}

/**
 * Settles one business for the day starting at `periodStart` (UTC midnight).
 * `actor` is the administrator who asked, or null for the daily Cron Trigger.
 */
export async function runSettlement(business: BusinessDb, periodStart: number, meta: RequestMeta, actor: Tenant | null): Promise<SettlementRunResult> {
  const { businessId, db } = business;
  const periodEnd = periodStart + DAY_MS;
  // The ledger functions read only the business and its database from it.
  const tenant: Tenant = actor ?? { ...business, userId: "", role: "Administrator" };
  const result: SettlementRunResult = { periodStart, settled: [], skipped: [] };
  const merchants = await merchantsToSettle(business);
  for (const merchant of merchants) {
    // Cleared in the period and in no settlement yet (transactions_by_merchant bounds the scan).
    const items = await clearedUnsettled(business, merchant.id, { createdFrom: periodStart - LONGEST_CLEARING_MS, periodStart, periodEnd });
    if (items.length === 0) continue;
    if (!merchant.accountId) {
      result.skipped.push({ merchantId: merchant.id, reason: "no active primary settlement account" });
      continue;
    }
    const gross = items.reduce((sum, t) => sum + t.amount, 0);
    const fees = items.reduce((sum, t) => sum + t.fee, 0);
    const net = gross - fees;
    const settlementId = `stl_${merchant.id}_${ymd(periodStart)}`;
    const reference = await settlementReference(businessId, merchant.code, periodStart);
    const at = new Date().toISOString();
    const available = ledgerAccountId(businessId, { kind: "merchant_available", merchantId: merchant.id });
    try {
      await db.batch([
        // What was cleared must still be there (a transfer may have moved it out).
        availableGuardStatement(business, available, net),
        insertSettlementStatement(business, {
          id: settlementId,
          merchantId: merchant.id,
          settlementAccountId: merchant.accountId,
          periodStart,
          periodEnd,
          gross,
          fees,
          net,
          reference,
          createdAt: at,
        }),
        settlementItemsStatement(
          business,
          settlementId,
          items.map((t) => t.id),
        ),
        // Every payment became an item, or nothing is written.
        itemsGuardStatement(db, items.length),
        ...(net > 0
          ? postingStatements(tenant, settlementPosting(merchant.id, net), {
              postingId: `${settlementId}_payout`,
              memo: `Settlement ${reference}`,
              postedAt: Date.parse(at),
              settlementId,
            })
          : []),
        // Written by the Cron Trigger (no person) or by the administrator who ran it.
        signInAuditStatement(
          { userId: actor?.userId ?? null, businessId },
          db,
          meta,
          { action: "settlement.create", entity: "settlement", entityId: settlementId, after: { gross, fees, net, transactions: items.length } },
          at,
        ),
        clearBatchGuardsStatement(db),
      ]);
      result.settled.push({ merchantId: merchant.id, settlementId, net, transactions: items.length });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Another run settled it first (UNIQUE), or the money is no longer available (the guard).
      result.skipped.push({
        merchantId: merchant.id,
        reason: /UNIQUE/.test(message) ? "already settled" : /CHECK/.test(message) ? "available balance below the cleared amount" : message.slice(0, 200),
      });
    }
  }
  return result;
}

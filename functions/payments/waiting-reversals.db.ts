// Reversals the Partner API accepted for a reference the portal does not hold (yet): they wait for their payment in
// pending_reversals (migration 0010) for REVERSAL_WAIT_MS after they arrived, then expire.
// An expired one stays listed as expired and is never applied: a later payment that reuses the reference is another
// payment. The consumer (functions/payments/ingest.db.ts) reads only those still waiting.
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { BusinessDb } from "../tenancy/tenant";
import { DAY_MS } from "../plumbing/time";

/** Seven days: a processor sends a payment within minutes of its reversal, or not at all. */
export const REVERSAL_WAIT_MS = 7 * DAY_MS;

export interface WaitingReversal {
  reference: string;
  reason: string;
  reversedAt: number;
  receivedAt: number;
  /** When it stops waiting: receivedAt + REVERSAL_WAIT_MS. */
  expiresAt: number;
  status: "waiting" | "expired";
}

/** Newest first, keyset paged; `now` decides which have expired. */
export async function listWaitingReversals(tenant: BusinessDb, now: number, query: PageQuery = {}): Promise<Page<WaitingReversal>> {
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const { results } = await tenant.db
    .prepare(
      `SELECT reference, reason, reversed_at AS reversedAt, received_at AS receivedAt FROM pending_reversals
       WHERE business_id = ?1 ${after ? "AND (received_at, reference) < (?2, ?3)" : ""} ORDER BY received_at DESC, reference DESC LIMIT ?4`,
    )
    .bind(tenant.businessId, after?.[0] ?? null, after?.[1] ?? null, size + 1)
    .all<Omit<WaitingReversal, "expiresAt" | "status">>();
  const rows = results.map((row) => {
    const expiresAt = row.receivedAt + REVERSAL_WAIT_MS;
    return { ...row, expiresAt, status: expiresAt > now ? ("waiting" as const) : ("expired" as const) };
  });
  return toPage(rows, size, (row) => [row.receivedAt, row.reference]);
}

export async function countWaitingReversals(tenant: BusinessDb, now: number): Promise<{ waiting: number; expired: number }> {
  const row = await tenant.db
    .prepare(
      "SELECT count(*) FILTER (WHERE received_at > ?2) AS waiting, count(*) FILTER (WHERE received_at <= ?2) AS expired FROM pending_reversals WHERE business_id = ?1",
    )
    .bind(tenant.businessId, now - REVERSAL_WAIT_MS)
    .first<{ waiting: number; expired: number }>();
  return { waiting: row?.waiting ?? 0, expired: row?.expired ?? 0 };
}

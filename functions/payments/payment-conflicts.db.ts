// Payments and reversals the Partner API received for a reference the portal
// already holds with other content (migration 0010). The payment held is not
// changed; an administrator reads these on the Developers tab, and the processor
// at GET /api/v1/rejections (functions/partner-api/rejections.ts).
import { decodeCursor, pageSize, toPage, type Page, type PageQuery } from "../lists/page";
import type { BusinessDb } from "../tenancy/tenant";

export interface PaymentConflict {
  id: number;
  reference: string;
  kind: "payment" | "reversal";
  /** What is wrong, in words for an administrator. */
  problem: string;
  /** What was received, as the processor sent it (JSON text; never a full card number: those are refused at the door). */
  received: string;
  receivedAt: number;
}

/** Newest first, keyset paged. */
export async function listPaymentConflicts(tenant: BusinessDb, query: PageQuery = {}): Promise<Page<PaymentConflict>> {
  const { db } = tenant;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 2);
  const { results } = await db
    .prepare(
      `SELECT id, reference, kind, problem, received, received_at AS receivedAt FROM payment_conflicts
       WHERE business_id = ?1 ${after ? "AND (received_at, id) < (?2, ?3)" : ""} ORDER BY received_at DESC, id DESC LIMIT ?4`,
    )
    .bind(tenant.businessId, after?.[0] ?? null, after?.[1] ?? null, size + 1)
    .all<PaymentConflict>();
  return toPage(results, size, (row) => [row.receivedAt, row.id]);
}

export async function countPaymentConflicts(tenant: BusinessDb): Promise<number> {
  const { db } = tenant;
  return (await db.prepare("SELECT count(*) AS n FROM payment_conflicts WHERE business_id = ?").bind(tenant.businessId).first<number>("n")) ?? 0;
}

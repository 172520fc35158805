// What the Developers tab shows of what the Partner API accepted and then could not do as sent: messages
// the consumer parked (decision 028) and reversals waiting for a payment the portal does not hold, or expired.
// The newest page of each, with counts; GET /api/v1/rejections and /api/v1/reversals/waiting page through all.
import { countParkedMessages, listParkedMessages } from "#server/payments/ingest-parked.db";
import type { BusinessDb } from "#server/tenancy/tenant";
import { countWaitingReversals, listWaitingReversals } from "#server/payments/waiting-reversals.db";
import { problemInWords } from "#server/partner-api/rejections";

export async function loadRefused(business: BusinessDb, now: number) {
  const [parked, parkedTotal, reversals, reversalCounts] = await Promise.all([
    listParkedMessages(business),
    countParkedMessages(business),
    listWaitingReversals(business, now),
    countWaitingReversals(business, now),
  ]);
  return {
    parked: {
      total: parkedTotal,
      rows: parked.rows.map((row) => ({
        id: row.id,
        references: row.references,
        problem: problemInWords(row),
        error: row.error,
        receivedAt: row.receivedAt,
        parkedAt: row.parkedAt,
      })),
    },
    reversals: { ...reversalCounts, rows: reversals.rows },
  };
}

export type RefusedData = Awaited<ReturnType<typeof loadRefused>>;

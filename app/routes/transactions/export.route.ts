// GET /transactions/export: every payment of the filtered set (the list's own
// URL parameters) as CSV, streamed page by page, in the columns of every
// transactions CSV (app/lib/transactions-csv.ts).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "#server/platform/csv";
import { namesOf } from "#server/lists/names.db";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { listTransactions } from "#server/payments/transactions.db";
import { refundTotalsOf } from "#server/refunds/refunds.db";
import { requireTenant } from "#server/guards";
import { TRANSACTION_CSV_COLUMNS } from "#app/lib/transactions-csv";
import { transactionFilter } from "./list.route";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "export:transaction");
  const { filter, period } = transactionFilter(new URL(request.url), deps.now());
  // Each page names its own merchants: a business's every merchant never sits in memory.
  return csvResponse(`transactions-${period.fromDay}-to-${period.toDay}.csv`, TRANSACTION_CSV_COLUMNS, async (after) => {
    const page = await listTransactions(tenant, { ...filter, after, limit: MAX_PAGE_SIZE });
    const [names, refunds] = await Promise.all([
      namesOf(
        tenant,
        "merchant",
        page.rows.map((t) => t.merchantId),
      ),
      refundTotalsOf(
        tenant,
        page.rows.map((t) => t.id),
      ),
    ]);
    return {
      ...page,
      rows: page.rows.map((t) => ({ ...t, merchant: names.get(t.merchantId) ?? t.merchantId, refunded: refunds.get(t.id)?.refunded ?? 0 })),
    };
  });
}

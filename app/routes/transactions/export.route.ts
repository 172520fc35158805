// GET /transactions/export: every payment of the filtered set (the list's own
// URL parameters) as CSV, streamed page by page, in the columns of every
// transactions CSV (app/routes/transactions/transactions-csv.ts).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { listTransactions } from "#server/payments/transactions.db";
import { refundTotalsOf } from "#server/refunds/refunds.db";
import { requireExport } from "#server/guards";
import { TRANSACTION_CSV_COLUMNS } from "./transactions-csv";
import { namedCsvRows } from "./transactions-csv.server";
import { transactionFilter } from "./list-filter.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:transaction", "export:transaction");
  const { filter, period } = transactionFilter(new URL(request.url), deps.now());
  return csvResponse(`transactions-${period.fromDay}-to-${period.toDay}.csv`, TRANSACTION_CSV_COLUMNS, async (after) => {
    const page = await listTransactions(tenant, { ...filter, after, limit: MAX_PAGE_SIZE });
    const [named, refunds] = await Promise.all([
      namedCsvRows(tenant, page.rows),
      refundTotalsOf(
        tenant,
        page.rows.map((t) => t.id),
      ),
    ]);
    return { ...page, rows: named.map((t) => ({ ...t, refunded: refunds.get(t.id)?.refunded ?? 0 })) };
  });
}

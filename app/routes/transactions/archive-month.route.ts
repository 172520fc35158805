// GET /transactions/archive/:month: an archived month's payments (docs/archive.md) as CSV, streamed from R2 as it
// is unzipped, in the columns of every transactions CSV. A month the signed-in business has not archived (another
// business's included) is a 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { archivedMonthPages } from "#server/archive/read";
import { asTransaction, isMonth } from "#server/archive/format";
import { csvResponse } from "#server/plumbing/csv";
import { findArchiveMonth } from "#server/archive/archive.db";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { notFound } from "#server/plumbing/http";
import { TRANSACTION_CSV_COLUMNS } from "./transactions-csv";
import { namedCsvRows } from "./transactions-csv.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant } = await requireTenant(request, context, "export:transaction");
  const month = params.month ?? "";
  const archived = isMonth(month) ? await findArchiveMonth(tenant, month) : null;
  const pages = archived ? await archivedMonthPages(context.cloudflare.env.ARCHIVE, archived, MAX_PAGE_SIZE) : null;
  if (!archived || !pages) return notFound(request);
  return csvResponse(`transactions-${month}-archived.csv`, TRANSACTION_CSV_COLUMNS, async (after) => {
    const page = await pages(after);
    return {
      ...page,
      rows: await namedCsvRows(
        tenant,
        page.rows.map((line) => asTransaction(line.t)),
      ),
    };
  });
}

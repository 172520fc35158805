// GET /money/merchant-accounts/export: every merchant account of the list's filtered set (its own URL parameters:
// search, status) with its balances as CSV, streamed page by page, for those who may take money lists away.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { listMerchantBalances, type MerchantBalances } from "#server/ledger/ledger.db";
import { listMerchants, type Merchant } from "#server/merchants/merchants.db";
import { plainCedis } from "#server/ledger/money";
import { requireExport } from "#server/guards";
import { asShown } from "#app/lib/lists/shown-columns";
import { utcDay } from "#server/plumbing/time";
import { listParams } from "#app/lib/lists/list-params";
import { readMerchantSearch } from "#app/lib/merchant-search";
import { MERCHANT_ACCOUNT_LIST_PARAMS } from "./merchant-accounts.route";

type AccountRow = Merchant & MerchantBalances;

const COLUMNS: readonly CsvColumn<AccountRow>[] = asShown<AccountRow>([
  { header: "Merchant id", value: (m) => m.id },
  { header: "Code", value: (m) => m.code },
  { header: "Merchant account", value: (m) => m.name },
  { header: "Status", value: (m) => m.status },
  { header: "Pending (GHS)", value: (m) => plainCedis(m.pending) },
  { header: "Available (GHS)", value: (m) => plainCedis(m.available) },
  { header: "Held by disputes (GHS)", value: (m) => plainCedis(m.held) },
  { header: "Total (GHS)", value: (m) => plainCedis(m.total) },
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:balance", "export:transaction");
  const { filters } = listParams(new URL(request.url), MERCHANT_ACCOUNT_LIST_PARAMS);
  const query = { ...readMerchantSearch(filters.q), status: filters.status, limit: MAX_PAGE_SIZE };
  return csvResponse(`merchant-accounts-${utcDay(deps.now())}.csv`, COLUMNS, async (after) => {
    const page = await listMerchants(tenant, { ...query, after });
    const balances = await listMerchantBalances(
      tenant,
      page.rows.map((m) => m.id),
    );
    return { ...page, rows: page.rows.map((m) => ({ ...m, ...balances[m.id]! })) };
  });
}

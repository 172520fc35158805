// GET /money/merchant-funds/export: the funds of every merchant of the list's filtered set (its own URL parameters:
// search, one merchant, the period) as CSV, streamed page by page, for those who may take money lists away.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { listMerchantFunds, type MerchantFunds } from "#server/ledger/funds.db";
import { getMerchant, listMerchants, type Merchant } from "#server/merchants/merchants.db";
import { plainCedis } from "#server/ledger/money";
import { requireExport } from "#server/guards";
import { asShown } from "#app/lib/lists/shown-columns";
import { fundsFilter } from "./merchant-funds-filter.server";

type FundsRow = Merchant & MerchantFunds;

const COLUMNS: readonly CsvColumn<FundsRow>[] = asShown<FundsRow>([
  { header: "Merchant id", value: (m) => m.id },
  { header: "Code", value: (m) => m.code },
  { header: "Merchant", value: (m) => m.name },
  { header: "Collected (GHS)", value: (m) => plainCedis(m.collected) },
  { header: "Fees (GHS)", value: (m) => plainCedis(m.fees) },
  { header: "Pending clearance (GHS)", value: (m) => plainCedis(m.pending) },
  { header: "Available (GHS)", value: (m) => plainCedis(m.available) },
  { header: "Held by disputes (GHS)", value: (m) => plainCedis(m.held) },
  { header: "Settled (GHS)", value: (m) => plainCedis(m.settled) },
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:balance", "export:transaction");
  const { query, filters, period } = fundsFilter(new URL(request.url), deps.now());
  return csvResponse(`merchant-funds-${period.fromDay}-to-${period.toDay}.csv`, COLUMNS, async (after) => {
    // One merchant is a file of one (or of none: another business's id has nothing here), as on the list.
    const page = filters.merchant
      ? await getMerchant(tenant, filters.merchant).then((only) => ({ rows: only ? [only] : [], next: null }))
      : await listMerchants(tenant, { ...query, after, limit: MAX_PAGE_SIZE });
    const funds = await listMerchantFunds(
      tenant,
      page.rows.map((m) => m.id),
      period,
    );
    return { ...page, rows: page.rows.map((m) => ({ ...m, ...funds[m.id]! })) };
  });
}

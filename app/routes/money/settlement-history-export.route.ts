// GET /money/settlement-history/export: every settlement of the list's filtered set (its own URL parameters: search,
// status, merchant, period) as CSV, streamed page by page, for those who may take money lists away (as Transactions).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { namesOf } from "#server/lists/names.db";
import { listSettlements, type Settlement } from "#server/settlement/settlements.db";
import { plainCedis } from "#server/ledger/money";
import { requireExport } from "#server/guards";
import { asShown } from "#app/lib/lists/shown-columns";
import { utcDay } from "#server/plumbing/time";
import { networkLabel } from "#app/lib/format";
import { railViewOf } from "#app/lib/rails";
import { settlementFilter } from "./settlement-filter.server";

type NamedSettlement = Settlement & { merchant: string | null; account: string | null };

const COLUMNS: readonly CsvColumn<NamedSettlement>[] = asShown<NamedSettlement>([
  // The day the settlement is for (Africa/Accra is UTC all year).
  { header: "Period", value: (s) => utcDay(s.periodStart) },
  { header: "Reference", value: (s) => s.reference },
  { header: "Merchant id", value: (s) => s.merchantId },
  { header: "Merchant", value: (s) => s.merchant },
  { header: "Settlement account", value: (s) => (s.account === null ? null : networkLabel(s.account)) },
  { header: "Gross (GHS)", value: (s) => plainCedis(s.gross) },
  { header: "Fees (GHS)", value: (s) => plainCedis(s.fees) },
  { header: "Net (GHS)", value: (s) => plainCedis(s.net) },
  { header: "Status", value: (s) => s.status },
  { header: "Rail", value: (s) => railViewOf(s)?.name ?? null },
  { header: "Rail reference", value: (s) => s.railReference },
  { header: "Rail status", value: (s) => s.railStatus },
  { header: "Paid (UTC)", value: (s) => s.paidAt },
  // A transfer's payout (decision 052): its period is the day it was approved.
  { header: "Transfer id", value: (s) => s.transferId },
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:settlement", "export:transaction");
  const { query, period } = settlementFilter(new URL(request.url), deps.now());
  const name = period.range ? `settlements-${period.fromDay}-to-${period.toDay}.csv` : `settlements-${utcDay(deps.now())}.csv`;
  return csvResponse(name, COLUMNS, async (after) => {
    const page = await listSettlements(tenant, { ...query, after, limit: MAX_PAGE_SIZE });
    const [merchants, accounts] = await Promise.all([
      namesOf(
        tenant,
        "merchant",
        page.rows.map((s) => s.merchantId),
      ),
      namesOf(
        tenant,
        "settlement_account",
        page.rows.map((s) => s.settlementAccountId),
      ),
    ]);
    return {
      ...page,
      rows: page.rows.map((s) => ({ ...s, merchant: merchants.get(s.merchantId) ?? null, account: accounts.get(s.settlementAccountId) ?? null })),
    };
  });
}

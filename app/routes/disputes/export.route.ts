// GET /disputes/export: every dispute of the list's filtered set (its own URL parameters) as CSV, in the list's order,
// streamed page by page, for those who may take money lists away.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { listDisputes, type Dispute } from "#server/disputes/disputes.db";
import { reasonCodeLabel } from "#server/disputes/dispute-rules";
import { plainCedis } from "#server/ledger/money";
import { requireExport } from "#server/guards";
import { asShown } from "#app/lib/lists/shown-columns";
import { utcDay } from "#server/plumbing/time";
import { networkLabel } from "#app/lib/format";
import { dueDay } from "#app/lib/disputes";
import { listParams } from "#app/lib/lists/list-params";
import { DISPUTE_LIST_PARAMS } from "./list.route";

const COLUMNS: readonly CsvColumn<Dispute>[] = asShown<Dispute>([
  { header: "Dispute id", value: (d) => d.id },
  { header: "Payment reference", value: (d) => d.paymentReference },
  { header: "Merchant id", value: (d) => d.merchantId },
  { header: "Merchant", value: (d) => d.merchantName },
  { header: "Reason code", value: (d) => reasonCodeLabel(d.reasonCode) },
  { header: "Network", value: (d) => networkLabel(d.paymentNetwork) },
  { header: "Disputed (GHS)", value: (d) => plainCedis(d.amount) },
  // The last day to answer, as the list shows it (Africa/Accra is UTC all year).
  { header: "Evidence due", value: (d) => utcDay(dueDay(d.evidenceDueAt)) },
  { header: "Status", value: (d) => d.status },
  { header: "Opened (UTC)", value: (d) => new Date(d.openedAt).toISOString() },
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:dispute", "export:transaction");
  const { filters } = listParams(new URL(request.url), DISPUTE_LIST_PARAMS);
  return csvResponse(`disputes-${utcDay(deps.now())}.csv`, COLUMNS, (after) => listDisputes(tenant, { status: filters.status, after, limit: MAX_PAGE_SIZE }));
}

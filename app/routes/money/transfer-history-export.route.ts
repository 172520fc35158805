// GET /money/merchant-accounts/transfer-history/{merchantId}/export: every transfer into or out of one merchant
// account as CSV, streamed page by page, in the history's columns; another business's merchant is the 404.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { getMerchant } from "#server/merchants/merchants.db";
import { listMerchantTransfers } from "#server/ledger/transfers.db";
import { plainCedis } from "#server/ledger/money";
import { pageNotFound } from "#server/plumbing/http";
import { requireExport } from "#server/guards";
import { asShown } from "#app/lib/lists/shown-columns";
import { utcDay } from "#server/plumbing/time";
import { networkLabel } from "#app/lib/format";
import { statusLabel } from "#app/lib/statuses";
import { transferViews, type TransferView } from "./transfer-history.server";

const COLUMNS: readonly CsvColumn<TransferView>[] = asShown<TransferView>([
  { header: "Transfer id", value: (t) => t.id },
  { header: "Asked (UTC)", value: (t) => t.createdAt },
  { header: "Direction", value: (t) => (t.direction === "out" ? "Out" : "In") },
  { header: "Counterparty", value: (t) => networkLabel(t.counterparty) },
  // Signed as the history shows it: money out of this account is negative.
  { header: "Amount (GHS)", value: (t) => plainCedis(t.direction === "out" ? -t.amount : t.amount) },
  { header: "Narration", value: (t) => t.narration },
  { header: "Status", value: (t) => t.status },
  { header: "Asked by", value: (t) => t.requestedBy },
  { header: "Approved by", value: (t) => t.approvedBy },
  { header: "Decided (UTC)", value: (t) => t.decidedAt },
  { header: "Payout", value: (t) => (t.payout ? statusLabel("settlement", t.payout.status) : null) },
  { header: "Payout reference", value: (t) => t.payout?.reference ?? null },
  { header: "Rail reference", value: (t) => t.payout?.railReference ?? null },
  { header: "Paid out (UTC)", value: (t) => t.payout?.paidAt ?? null },
]);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:transfer", "export:transaction");
  const merchant = await getMerchant(tenant, params.merchantId ?? "");
  if (!merchant) pageNotFound(request);
  return csvResponse(`transfers-${merchant.code}-${utcDay(deps.now())}.csv`, COLUMNS, async (after) => {
    const page = await listMerchantTransfers(tenant, { merchantId: merchant.id, after, limit: MAX_PAGE_SIZE });
    return { ...page, rows: await transferViews(tenant, merchant.id, page.rows) };
  });
}

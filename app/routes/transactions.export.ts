// GET /transactions/export: every payment of the filtered set (the list's own
// URL parameters) as CSV, streamed page by page. Cards as BIN and last four,
// phones masked, as on screen.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "../../functions/csv";
import { namesOf } from "../../functions/data/names";
import { MAX_PAGE_SIZE } from "../../functions/data/page";
import { listTransactions, type Transaction } from "../../functions/data/transactions";
import { requireTenant } from "../../functions/guards";
import { networkLabel } from "../lib/format";
import { CHANNEL_LABEL, payerOf } from "../lib/transactions-view";
import { transactionFilter } from "./transactions._index";

const cedis = (pesewas: number) => (pesewas / 100).toFixed(2);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "export:transaction");
  const { filter, period } = transactionFilter(new URL(request.url), deps.now());
  const columns: { header: string; value: (t: Transaction & { merchant: string }) => string | number | null }[] = [
    { header: "Reference", value: (t) => t.reference },
    { header: "Paid (UTC)", value: (t) => new Date(t.createdAt).toISOString() },
    { header: "Merchant", value: (t) => t.merchant },
    { header: "Point of sale id", value: (t) => t.pointOfSaleId },
    { header: "Terminal id", value: (t) => t.terminalId },
    { header: "Channel", value: (t) => CHANNEL_LABEL[t.channel] },
    { header: "Network", value: (t) => networkLabel(t.network) },
    { header: "Payer", value: (t) => payerOf(t) },
    { header: "Amount (GHS)", value: (t) => cedis(t.amount) },
    { header: "Fee (GHS)", value: (t) => cedis(t.fee) },
    { header: "Net (GHS)", value: (t) => cedis(t.amount - t.fee) },
    { header: "Status", value: (t) => t.status },
    { header: "Available (UTC)", value: (t) => (t.clearedAt ? new Date(t.clearedAt).toISOString() : null) },
  ];
  // Each page names its own merchants: a business's every merchant never sits in memory.
  return csvResponse(`transactions-${period.fromDay}-to-${period.toDay}.csv`, columns, async (after) => {
    const page = await listTransactions(tenant, { ...filter, after, limit: MAX_PAGE_SIZE });
    const names = await namesOf(
      tenant,
      "merchant",
      page.rows.map((t) => t.merchantId),
    );
    return { ...page, rows: page.rows.map((t) => ({ ...t, merchant: names.get(t.merchantId) ?? t.merchantId })) };
  });
}

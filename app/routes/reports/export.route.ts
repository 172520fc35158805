// GET /reports/export: the report on screen (same URL parameters) as CSV.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvLine } from "#server/plumbing/csv";
import { requireExport } from "#server/guards";
import { networkLabel } from "#app/lib/format";
import { DIMENSIONS } from "./dimensions";
import { buildReport } from "./reports.server";
import { plainCedis } from "#server/ledger/money";

const cedis = plainCedis;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:report", "export:report");
  const { dimension, period, lines } = await buildReport(tenant, new URL(request.url), deps.now());
  const heading = DIMENSIONS.find((d) => d.value === dimension)?.heading ?? "Key";
  const body = [
    csvLine([heading, "Payments", "Value (GHS)", "Fees (GHS)", "Refunds (GHS)"]),
    ...lines.map((l) =>
      csvLine([
        dimension === "day" ? l.key : dimension === "network" ? networkLabel(l.label) : l.label,
        l.count,
        cedis(l.amount),
        cedis(l.fee),
        cedis(l.refunded),
      ]),
    ),
  ].join("");
  return new Response(`\uFEFF${body}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="report-${dimension}-${period.fromDay}-to-${period.toDay}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

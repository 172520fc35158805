// GET /pos-terminals/export: the whole filtered fleet as CSV (the list's own URL
// parameters), streamed page by page with the names of where each terminal stands.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { listTerminals } from "#server/merchants/terminals.db";
import { requireExport } from "#server/guards";
import { statusLabel } from "#app/lib/statuses";
import { asShown } from "#app/lib/lists/shown-columns";
import { terminalQuery, withPlaces } from "./list.route";
import { utcDay } from "#server/plumbing/time";

type Row = Awaited<ReturnType<typeof withPlaces>>[number];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:terminal", "export:terminal");
  const { query } = terminalQuery(new URL(request.url), deps.now());
  const columns = asShown<Row>([
    { header: "Serial", value: (t) => t.serial },
    { header: "Model", value: (t) => t.model },
    { header: "Status", value: (t) => statusLabel("terminal", t.status) },
    { header: "Merchant", value: (t) => t.merchantName },
    { header: "Point of sale", value: (t) => t.pointOfSaleName },
    { header: "Last seen (UTC)", value: (t) => (t.lastSeenAt === null ? "Never" : new Date(t.lastSeenAt).toISOString()) },
    { header: "Software version", value: (t) => t.softwareVersion },
  ]);
  return csvResponse(`pos-terminals-${utcDay(Date.now())}.csv`, columns, async (after) => {
    const page = await listTerminals(tenant, { ...query, after, limit: MAX_PAGE_SIZE });
    return { ...page, rows: await withPlaces(tenant, page.rows) };
  });
}

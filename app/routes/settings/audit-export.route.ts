// GET /settings/audit/export: every audit entry of the Audit tab's filtered set (its own URL parameters) as CSV,
// both sources merged newest first, streamed page by page; for those who may read the tab (administrators, Finance).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/platform/csv";
import { listBusinessAudit } from "#server/audit/audit.db";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { requireTenant } from "#server/guards";
import { auditFilter, coreSource, namedAuditPage, type AuditRowView } from "./audit.server";
import { utcDay } from "#server/platform/time";

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

const COLUMNS: readonly CsvColumn<AuditRowView>[] = [
  { header: "When (UTC)", value: (row) => row.createdAt },
  { header: "Person", value: (row) => row.person },
  { header: "Action", value: (row) => row.action },
  { header: "Kind of record", value: (row) => row.entity },
  { header: "Record", value: (row) => row.entityId },
  { header: "Before", value: (row) => json(row.before) },
  { header: "After", value: (row) => json(row.after) },
  { header: "Address", value: (row) => row.ip },
  { header: "Browser", value: (row) => row.userAgent },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:audit");
  const { filter } = auditFilter(new URL(request.url));
  const core = await coreSource(deps, tenant);
  const day = utcDay(deps.now());
  return csvResponse(`audit-${day}.csv`, COLUMNS, async (after) =>
    namedAuditPage(tenant, await listBusinessAudit(tenant, core, { ...filter, after, limit: MAX_PAGE_SIZE })),
  );
}

// GET /settings/audit/export: every audit entry of the Audit tab's filtered set (its own URL parameters) as CSV,
// both sources merged newest first, streamed page by page; for those who may read the tab (administrators, Finance).
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/plumbing/csv";
import { listBusinessAudit } from "#server/audit/audit.db";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { requireExport } from "#server/guards";
import { auditFilter, coreSource, namedAuditPage, type AuditRowView } from "./audit.server";
import { utcDay } from "#server/plumbing/time";
import { namesOf, type NameKind } from "#server/lists/names.db";
import type { Tenant } from "#server/tenancy/tenant";

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

type NamedRow = AuditRowView & { recordName: string | null };

const COLUMNS: readonly CsvColumn<NamedRow>[] = [
  { header: "When (UTC)", value: (row) => row.createdAt },
  { header: "Person", value: (row) => row.person },
  { header: "Action", value: (row) => row.action },
  { header: "Kind of record", value: (row) => row.entity },
  { header: "Record", value: (row) => row.entityId },
  { header: "Record name", value: (row) => row.recordName },
  { header: "Before", value: (row) => json(row.before) },
  { header: "After", value: (row) => json(row.after) },
  { header: "Address", value: (row) => row.ip },
  { header: "Browser", value: (row) => row.userAgent },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:audit", "view:audit");
  const { filter } = auditFilter(new URL(request.url));
  const core = await coreSource(deps, tenant);
  const day = utcDay(deps.now());
  return csvResponse(`audit-${day}.csv`, COLUMNS, async (after) => {
    const page = await namedAuditPage(tenant, await listBusinessAudit(tenant, core, { ...filter, after, limit: MAX_PAGE_SIZE }));
    return { ...page, rows: await withRecordNames(tenant, page.rows) };
  });
}

/** The kinds of record whose id the business can name, and how (a terminal by its serial, a person by name). */
const NAMED_RECORDS: Partial<Record<string, NameKind>> = {
  merchant: "merchant",
  point_of_sale: "point_of_sale",
  terminal: "terminal_serial",
  settlement_account: "settlement_account",
  user: "person",
};

/** Each row's record named beside its id, one look-up per kind on the page; a record the business has not, unnamed. */
async function withRecordNames(tenant: Tenant, rows: readonly AuditRowView[]): Promise<NamedRow[]> {
  const kinds = [...new Set(rows.map((row) => NAMED_RECORDS[row.entity]).filter((kind): kind is NameKind => kind !== undefined))];
  const names = new Map(
    await Promise.all(
      kinds.map(
        async (kind) =>
          [
            kind,
            await namesOf(
              tenant,
              kind,
              rows.filter((row) => NAMED_RECORDS[row.entity] === kind).map((row) => row.entityId),
            ),
          ] as const,
      ),
    ),
  );
  return rows.map((row) => {
    const kind = NAMED_RECORDS[row.entity];
    return { ...row, recordName: kind && row.entityId ? (names.get(kind)?.get(row.entityId) ?? null) : null };
  });
}

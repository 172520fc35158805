// GET /approvals/export: every request of the queue as its URL filters it (whose, kind, status, maker) as CSV, in the
// list's columns, streamed page by page, for those who may take money lists away.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse, type CsvColumn } from "#server/plumbing/csv";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { listApprovalRequests, requestSubjects } from "#server/approvals/change-requests.db";
import type { ApprovalRequest } from "#server/approvals/change-kinds";
import { requireExport } from "#server/guards";
import { asShown } from "#app/lib/lists/shown-columns";
import { utcDay } from "#server/plumbing/time";
import { ACTION_NAMES, kindName } from "./request-words";
import { approvalListQuery } from "./list-query.server";

type Row = ApprovalRequest & { subject: string | null };

const COLUMNS: readonly CsvColumn<Row>[] = asShown<Row>([
  { header: "Request id", value: (r) => r.id },
  { header: "Concerns", value: (r) => r.subject },
  { header: "Kind", value: (r) => kindName(r.kind) },
  // A refund asks for money to go back: its action is that, as the list says.
  { header: "Action", value: (r) => (String(r.kind) === "refund" ? "Refund" : (ACTION_NAMES[r.action] ?? r.action)) },
  { header: "Made by", value: (r) => r.makerName },
  { header: "Made (UTC)", value: (r) => r.madeAt },
  { header: "Status", value: (r) => r.status },
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireExport(request, context, "view:approval", "export:transaction");
  const { query } = await approvalListQuery(tenant, new URL(request.url));
  return csvResponse(`approvals-${utcDay(deps.now())}.csv`, COLUMNS, async (after) => {
    const page = await listApprovalRequests(tenant, { ...query, after, limit: MAX_PAGE_SIZE });
    const subjects = await requestSubjects(tenant, page.rows);
    return { ...page, rows: page.rows.map((r) => ({ ...r, subject: subjects[r.id] ?? null })) };
  });
}

// The approvals queue as its URL asks for it (whose requests, kind, status, maker), shared by the list and its CSV so
// both hold the same requests.
import * as v from "valibot";
import type { RequestKind } from "#server/approvals/change-kinds";
import { listEmployees } from "#server/team/employees.db";
import { MAX_PAGE_SIZE } from "#server/lists/page";
import { can } from "#server/permissions";
import type { Tenant } from "#server/tenancy/tenant";
import { QUEUE_KIND_BY_SLUG } from "./request-words";
import { WAITING_VIEW } from "#app/lib/shell/navigation";
import { listParams, oneOf } from "#app/lib/lists/list-params";
import { STATUS_FILTERS } from "./status-filters";

export const APPROVAL_LIST_PARAMS = {
  view: oneOf([WAITING_VIEW]),
  kind: oneOf(Object.keys(QUEUE_KIND_BY_SLUG)),
  status: oneOf(STATUS_FILTERS),
  maker: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,80}$/))),
};

export async function approvalListQuery(tenant: Tenant, url: URL) {
  const { filters, page, trail } = listParams(url, APPROVAL_LIST_PARAMS);
  const decides = can(tenant.role, "decide:approval");
  // Nothing waits for someone who decides nothing: they see every request.
  const waitingView = decides && filters.view === WAITING_VIEW;
  const status = waitingView ? "pending" : (filters.status ?? "pending");
  const kind: RequestKind | undefined = filters.kind ? QUEUE_KIND_BY_SLUG[filters.kind] : undefined;
  // Makers are the business's people; a maker id that is not one of them filters nothing in.
  const employees = (await listEmployees(tenant, { limit: MAX_PAGE_SIZE })).rows.map((e) => ({ id: e.userId, name: e.name }));
  const makerId = filters.maker && employees.some((e) => e.id === filters.maker) ? filters.maker : undefined;
  const query = { status: status === "all" ? undefined : status, kind, makerId, waitingFor: waitingView ? tenant.userId : undefined };
  return { query, filters, page, trail, decides, waitingView, status, kind, employees, makerId };
}

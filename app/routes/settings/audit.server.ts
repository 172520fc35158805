// The Audit tab of /settings: every audit entry of the business, newest first, from its own
// database and the core one (its sign-in events), filtered by person, kind of record, action and Africa/Accra days in
// the URL, in keyset pages; the CSV (routes/settings/audit-export.route.ts) reads the same filters.
import * as v from "valibot";
import type { AuthDeps } from "#server/auth/deps";
import { listAuditChoices, listBusinessAudit, type AuditFilter, type AuditListEntry } from "#server/audit/audit.db";
import { businessPlace } from "#server/tenancy/directory.db";
import { namesOf } from "#server/lists/names.db";
import { numberedPage, type Page } from "#server/lists/page";
import type { Db, Tenant } from "#server/tenancy/tenant";
import { browserOf } from "#app/lib/analytics/analytics";
import { listParams } from "#app/lib/lists/list-params";
import { paths } from "#app/lib/paths";
import { typedDay } from "#app/lib/forms/days";
import { isCalendarDay } from "#app/lib/forms/validation";

const text = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)));
const day = v.optional(
  v.pipe(
    v.string(),
    // Typed day first before the script loads (the day field's DD/MM/YYYY), YYYY-MM-DD once it has.
    v.transform((value: string) => typedDay(value)),
    v.check((value: string) => isCalendarDay(value)),
  ),
);
export const AUDIT_PARAMS = { person: text, kind: text, action: text, from: day, to: day };

/** The filter of the Audit tab's URL (also the CSV's); a value that does not fit is dropped, as on every list. */
export function auditFilter(url: URL) {
  const { filters, page, trail } = listParams(url, AUDIT_PARAMS);
  const filter: AuditFilter = { actorId: filters.person, entity: filters.kind, action: filters.action, fromDay: filters.from, toDay: filters.to };
  return { filter, page, trail };
}

/** The core database when the business's entries are not already all in it (a business may live on the core database: decision 021). */
export async function coreSource(deps: AuthDeps, tenant: Tenant): Promise<Db | null> {
  const place = await businessPlace(deps.db, tenant.businessId);
  return place && place.shard !== "DB" ? deps.db : null;
}

/** An entry as the tab and the CSV show it: the person named through this business's membership. */
export interface AuditRowView {
  key: string;
  createdAt: string;
  person: string;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  browser: string | null;
  userAgent: string | null;
}

/** A page of entries with their people's names (one look-up per page). */
export async function namedAuditPage(tenant: Tenant, page: Page<AuditListEntry>): Promise<Page<AuditRowView>> {
  const names = await namesOf(
    tenant,
    "person",
    page.rows.map((entry) => entry.actorId),
  );
  return {
    ...page,
    rows: page.rows.map((entry) => ({
      key: `${entry.source}-${entry.id}`,
      createdAt: entry.createdAt,
      person: entry.actorId === null ? "System" : (names.get(entry.actorId) ?? "Former member"),
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId,
      before: entry.before,
      after: entry.after,
      ip: entry.ip,
      browser: entry.userAgent ? browserOf(entry.userAgent) : null,
      userAgent: entry.userAgent,
    })),
  };
}

export async function loadAudit(request: Request, deps: AuthDeps, tenant: Tenant) {
  const url = new URL(request.url);
  const { filter, page, trail } = auditFilter(url);
  const core = await coreSource(deps, tenant);
  const [result, choices] = await Promise.all([
    numberedPage((after) => listBusinessAudit(tenant, core, { ...filter, after }), trail, page),
    listAuditChoices(tenant, core),
  ]);
  const [named, people] = await Promise.all([namedAuditPage(tenant, result), namesOf(tenant, "person", choices.actorIds)]);
  const shown = { person: filter.actorId ?? "", kind: filter.entity ?? "", action: filter.action ?? "", from: filter.fromDay ?? "", to: filter.toDay ?? "" };
  return {
    rows: named.rows,
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    filter: shown,
    choices: {
      people: choices.actorIds
        .filter((id) => people.has(id))
        .map((id) => ({ value: id, label: people.get(id)! }))
        .sort((a, b) => a.label.localeCompare(b.label)),
      kinds: choices.entities,
      actions: choices.actions,
    },
    exportHref: paths.auditExport(shown),
  };
}

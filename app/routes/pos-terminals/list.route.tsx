// /pos-terminals: the business's terminal fleet across merchants, with filters
// (status, merchant, silent), serial prefix search, sort, keyset pages, counts,
// a CSV of the whole filtered set, and how many terminals have gone silent.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import * as v from "valibot";
import { DEFAULT_PAGE_SIZE, numberedPage } from "#server/lists/page";
import {
  TERMINAL_STATUSES,
  countSilentTerminals,
  listTerminalMerchants,
  listTerminals,
  terminalPlaces,
  type Terminal,
  type TerminalQuery,
} from "#server/merchants/terminals.db";
import type { Tenant } from "#server/tenancy/tenant";
import { can } from "#server/permissions";
import { requireTenant } from "#server/guards";
import { DataTable, ListCount, ListToolbar, Pager } from "#app/components/lists/data-table";
import { formatCount } from "#app/lib/format";
import { filterHref } from "#app/lib/lists/list-url";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";
import { statusLabels } from "#app/lib/statuses";
import { SILENT_AFTER_MS } from "./terminals";
import { terminalColumns } from "#app/components/columns/terminals";

export const meta: MetaFunction = () => [{ title: "POS Terminals" }];

export const TERMINAL_LIST_PARAMS = {
  q: searchParam,
  status: oneOf(TERMINAL_STATUSES),
  merchant: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))),
  silent: oneOf(["1"] as const),
  sort: oneOf(["serial", "last_seen"] as const),
};

/** The data-layer query for the list's URL; `now` decides what "silent" means. */
export function terminalQuery(url: URL, now: number): { query: TerminalQuery; filtered: boolean } {
  const { filters } = listParams(url, TERMINAL_LIST_PARAMS);
  return {
    query: {
      serial: filters.q,
      status: filters.status,
      merchantId: filters.merchant,
      silentSince: filters.silent ? now - SILENT_AFTER_MS : undefined,
      sort: filters.sort,
    },
    filtered: Boolean(filters.q || filters.status || filters.merchant || filters.silent),
  };
}

/** A page of terminals with the names of where they stand (one lookup for the page). */
export async function withPlaces(tenant: Tenant, rows: Terminal[]) {
  const places = await terminalPlaces(tenant, rows);
  return rows.map((t) => {
    const place = t.pointOfSaleId ? places.get(t.pointOfSaleId) : undefined;
    return { ...t, merchantName: place?.merchantName ?? null, pointOfSaleName: place?.pointOfSaleName ?? null };
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { deps, tenant } = await requireTenant(request, context, "view:terminal");
  const url = new URL(request.url);
  const now = deps.now();
  const { page, trail } = listParams(url, TERMINAL_LIST_PARAMS);
  const { query, filtered } = terminalQuery(url, now);
  const [result, total, silent, merchants] = await Promise.all([
    numberedPage((after) => listTerminals(tenant, { ...query, after }), trail, page),
    listTerminals(tenant, { ...query, limit: 1, withTotal: true }).then((counted) => counted.total ?? 0),
    countSilentTerminals(tenant, now - SILENT_AFTER_MS),
    listTerminalMerchants(tenant),
  ]);
  return {
    terminals: await withPlaces(tenant, result.rows),
    page: result.number,
    trail: result.trail,
    hasNext: result.next !== null,
    total,
    silent,
    silentOnly: query.silentSince !== undefined,
    merchants,
    filtered,
    canExport: can(tenant.role, "export:terminal"),
  };
}

const COLUMNS = terminalColumns(["serial", "status", "merchant", "pos", "seen", "software"]);

export default function PosTerminals() {
  const { terminals, page, trail, hasNext, total, silent, silentOnly, merchants, filtered, canExport } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  return (
    <div className="page">
      <header className="page__header">
        <h1>POS Terminals</h1>
        <p className="page__lead">Every payment device of the business: where it stands, its state and when it last reported.</p>
      </header>
      <section className={silent > 0 ? "notice notice--warning silent-summary" : "notice notice--info silent-summary"} aria-labelledby="silent-title">
        <div className="notice__body">
          <strong className="notice__title" id="silent-title">
            {silent === 0 ? "No silent terminals" : `${formatCount(silent)} silent ${silent === 1 ? "terminal" : "terminals"}`}
          </strong>
          <p className="notice__message">
            {silent === 0
              ? "Every terminal in service has reported in the last 24 hours."
              : "In service, but no transaction or heartbeat for 24 hours or more."}
          </p>
        </div>
        {silentOnly ? (
          <Link to={filterHref(params, { silent: null })} className="button">
            Show all terminals
          </Link>
        ) : silent > 0 ? (
          <Link to={filterHref(params, { silent: "1", status: null })} className="button">
            Show silent terminals
          </Link>
        ) : null}
      </section>
      <ListToolbar
        searchLabel="Search by serial number"
        searchPlaceholder="Serial starts with…"
        filters={[
          {
            name: "status",
            label: "Status",
            allLabel: "Any status",
            options: Object.entries(statusLabels("terminal")).map(([value, label]) => ({ value, label })),
          },
          { name: "merchant", label: "Merchant", allLabel: "Any merchant", options: merchants.map((m) => ({ value: m.id, label: m.name })) },
          { name: "silent", label: "Reporting", allLabel: "Any", options: [{ value: "1", label: "Silent 24 h+" }] },
        ]}
        sort={{
          options: [
            { value: "serial", label: "Serial number" },
            { value: "last_seen", label: "Last seen, longest silent first" },
          ],
        }}
        actions={
          canExport && total > 0 ? (
            <a href={`/pos-terminals/export${search}`} className="button" download>
              Export CSV
            </a>
          ) : null
        }
      />
      <ListCount page={page} pageSize={DEFAULT_PAGE_SIZE} shown={terminals.length} total={total} noun={total === 1 ? "terminal" : "terminals"} />
      <DataTable
        page
        caption="POS terminals"
        columns={COLUMNS}
        rows={terminals}
        rowKey={(t) => t.id}
        empty={
          filtered ? (
            <>
              <h2>No terminal matches</h2>
              <p>Try another serial number, or clear the filters.</p>
            </>
          ) : (
            <>
              <h2>No terminals yet</h2>
              <p>Terminals appear here once they are delivered to the business.</p>
            </>
          )
        }
      />
      <Pager page={page} totalPages={Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))} trail={trail} hasNext={hasNext} />
    </div>
  );
}

// The Audit tab of /settings: who did what, when, from which address and browser, with the
// values before and after; filters and page in the URL (a GET form that keeps ?tab=audit), the CSV of the whole set.
import { Link } from "@remix-run/react";
import { DataTable, Pager, type Column } from "#app/components/lists/data-table";
import { ListForm } from "#app/components/lists/list-form";
import { DateInput } from "#app/components/lists/period-picker";
import { tableDate } from "#app/lib/format";
import { paths } from "#app/lib/paths";
import type { loadAudit } from "./audit.server";

type Loaded = Awaited<ReturnType<typeof loadAudit>>;
type Row = Loaded["rows"][number];

/** "update" and "merchant.update" as people read them. */
const words = (text: string) => text.replace(/[._]+/g, " ");

/** One line per field that differs, "field: before → after"; a value that is not a record is shown whole. */
function changes(before: unknown, after: unknown): { field: string; before: string; after: string }[] {
  const shown = (value: unknown) => (value === undefined || value === null ? "—" : typeof value === "string" ? value : JSON.stringify(value));
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
  if (isRecord(before) || isRecord(after)) {
    const was = isRecord(before) ? before : {};
    const now = isRecord(after) ? after : {};
    return [...new Set([...Object.keys(was), ...Object.keys(now)])]
      .filter((field) => JSON.stringify(was[field]) !== JSON.stringify(now[field]))
      .map((field) => ({ field, before: shown(was[field]), after: shown(now[field]) }));
  }
  return before === null && after === null ? [] : [{ field: "value", before: shown(before), after: shown(after) }];
}

function Changes({ row }: { row: Row }) {
  const lines = changes(row.before, row.after);
  if (lines.length === 0) return <span className="cell-sub">No values recorded</span>;
  return (
    <ul className="audit-changes">
      {lines.map((line) => (
        <li key={line.field}>
          <span className="audit-changes__field">{words(line.field)}</span> <del>{line.before}</del> → <ins>{line.after}</ins>
        </li>
      ))}
    </ul>
  );
}

const COLUMNS: Column<Row>[] = [
  { id: "when", header: "When", cell: (row) => tableDate(row.createdAt) },
  { id: "person", header: "Person", cell: (row) => row.person },
  {
    id: "action",
    header: "Action",
    cell: (row) => (
      <span className="cell-title">
        <span className="audit-action">{words(row.action)}</span>
        <span className="cell-sub">
          {words(row.entity)}
          {row.entityId ? ` · ${row.entityId}` : ""}
        </span>
      </span>
    ),
  },
  { id: "changes", header: "Before → after", cell: (row) => <Changes row={row} /> },
  {
    id: "from",
    header: "Address and browser",
    cell: (row) => (
      <span className="cell-title">
        <span>{row.ip ?? "Not recorded"}</span>
        <span className="cell-sub" title={row.userAgent ?? undefined}>
          {row.browser ?? "Browser not recorded"}
        </span>
      </span>
    ),
  },
];

function Choice({
  name,
  label,
  allLabel,
  value,
  options,
}: {
  name: string;
  label: string;
  allLabel: string;
  value: string;
  options: { value: string; label: string }[];
}) {
  return (
    <label className="list-toolbar__filter">
      <span>{label}</span>
      <select name={name} defaultValue={value}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The audit log's filters: the names of its URL parameters and of its form's fields. */
const AUDIT_FILTERS = ["person", "kind", "action", "from", "to"] as const;

export function AuditTab({ audit }: { audit: Loaded }) {
  const { filter, choices } = audit;
  const filtered = Object.values(filter).some(Boolean);
  const asOptions = (values: string[]) => values.map((value) => ({ value, label: words(value) }));
  return (
    <section className="card" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <div className="list-toolbar">
        {/* The filters work before the script loads; ?tab=audit stays in the URL. */}
        <ListForm sets={["tab", ...AUDIT_FILTERS]} className="list-toolbar__form" role="search" label="Filter the audit log">
          <input type="hidden" name="tab" value="audit" />
          <Choice name="person" label="Person" allLabel="Anyone" value={filter.person} options={choices.people} />
          <Choice name="kind" label="Kind of record" allLabel="Any kind" value={filter.kind} options={asOptions(choices.kinds)} />
          <Choice name="action" label="Action" allLabel="Any action" value={filter.action} options={asOptions(choices.actions)} />
          <div className="list-toolbar__filter">
            <label htmlFor="audit-from">From</label>
            <DateInput id="audit-from" name="from" label="From" defaultValue={filter.from} />
          </div>
          <div className="list-toolbar__filter">
            <label htmlFor="audit-to">To</label>
            <DateInput id="audit-to" name="to" label="To" defaultValue={filter.to} />
          </div>
          <button type="submit" className="button">
            Apply
          </button>
          {filtered ? (
            <Link to={paths.settings("audit")} className="button button--ghost">
              Clear
            </Link>
          ) : null}
        </ListForm>
        <div className="list-toolbar__actions">
          <a href={audit.exportHref} className="button" download>
            Export CSV
          </a>
        </div>
      </div>
      <DataTable
        caption="Audit log"
        columns={COLUMNS}
        rows={audit.rows}
        rowKey={(row) => row.key}
        empty={<h2>{filtered ? "No entries match these filters" : "Nothing has been recorded yet"}</h2>}
      />
      <Pager page={audit.page} totalPages={null} trail={audit.trail} hasNext={audit.hasNext} />
    </section>
  );
}

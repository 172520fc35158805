// The Developers tab of /settings (administrators only): how to authenticate
// to the Partner API, the business's API keys (developers-keys.tsx), webhook
// endpoints (developers-endpoints.tsx), the payments the API kept aside as conflicts, and what it accepted but
// could not apply or is still waiting for (developers-refused.tsx).
import { Link } from "@remix-run/react";
import { DEFAULT_PAGE_SIZE } from "#server/lists/page";
import { DataTable, ListCount, Pager, type Column } from "#app/components/lists/data-table";
import { tableDate } from "#app/lib/format";
import { ApiKeysSection } from "./developers-keys";
import { EndpointsSection } from "./developers-endpoints";
import { RefusedSection, WaitingReversalsSection } from "./developers-refused";
import type { EndpointsData } from "./developers-endpoints.server";
import type { DevelopersData, NewKey } from "./developers.server";
import { API_KEY_INTENTS, API_REFERENCE_URL } from "#app/routes/settings/tabs";

type ConflictRow = DevelopersData["conflicts"]["rows"][number];

/** What the route's action answered, as far as this tab reads it. */
export interface DevelopersAnswer {
  intent?: string;
  errors: Record<string, string>;
  values: unknown;
  newKey?: NewKey;
}

/** An answer of the key forms, or a refusal that names no form (it speaks to the tab); the endpoints section's name theirs. */
function isKeyAnswer(value: unknown): value is DevelopersAnswer {
  if (typeof value !== "object" || value === null || !("errors" in value || "newKey" in value)) return false;
  const intent = (value as { intent?: unknown }).intent;
  return intent === undefined || (API_KEY_INTENTS as readonly unknown[]).includes(intent);
}

/** The received JSON laid out for reading; the text as it came when it is not JSON. */
function pretty(received: string): string {
  try {
    return JSON.stringify(JSON.parse(received), null, 2);
  } catch {
    return received;
  }
}

const KIND_LABEL = { payment: "Payment", reversal: "Reversal" } as const;

const conflictColumns: Column<ConflictRow>[] = [
  { id: "received", header: "Received", cell: (c) => tableDate(c.receivedAt) },
  { id: "reference", header: "Reference", cell: (c) => <code className="conflict__reference">{c.reference}</code> },
  { id: "kind", header: "Type", cell: (c) => KIND_LABEL[c.kind] },
  { id: "problem", header: "Problem", cell: (c) => c.problem },
  {
    id: "body",
    header: "What was sent",
    cell: (c) => (
      <details className="conflict__body">
        <summary>Show JSON</summary>
        {/* A long body scrolls inside its box: focusable so the keyboard can scroll it too. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
        <pre tabIndex={0}>{pretty(c.received)}</pre>
      </details>
    ),
  },
];

export function PaymentConflictsSection({ conflicts }: { conflicts: DevelopersData["conflicts"] }) {
  return (
    <section className="settings-panel" aria-labelledby="conflicts-title">
      <div>
        <h2 id="conflicts-title">Payment conflicts</h2>
        <p className="page__lead">
          A payment or reversal sent again with a reference the portal already holds, but with other content. The payment the portal holds is not changed: check
          the sending system, and send a new reference if it is a different payment.
        </p>
      </div>
      <ListCount
        page={conflicts.page}
        pageSize={DEFAULT_PAGE_SIZE}
        shown={conflicts.rows.length}
        total={conflicts.total}
        noun={conflicts.total === 1 ? "conflict" : "conflicts"}
      />
      <DataTable
        caption="Payment conflicts"
        columns={conflictColumns}
        rows={conflicts.rows}
        rowKey={(c) => String(c.id)}
        empty={
          <>
            <h3>No conflicts</h3>
            <p>No conflicts: every re-sent reference matched what the portal holds.</p>
          </>
        }
      />
      <Pager
        page={conflicts.page}
        totalPages={Math.max(1, Math.ceil(conflicts.total / DEFAULT_PAGE_SIZE))}
        trail={conflicts.trail}
        hasNext={conflicts.hasNext}
      />
    </section>
  );
}

function Authentication({ keyMode }: { keyMode: "live" | "test" }) {
  return (
    <section className="card" aria-labelledby="api-auth-title">
      <h2 id="api-auth-title" className="card__title">
        Partner API
      </h2>
      <p>
        Your systems send payments, reversals and terminal heartbeats to the portal at <code>/api/v1/…</code>. Every request carries one of the keys below in
        its <code>Authorization</code> header, as a Bearer token:
      </p>
      <pre className="code-block">{`Authorization: Bearer pp_${keyMode}_…`}</pre>
      <p>
        A request without a key, or with a revoked or expired one, is refused with 401. Keep keys on your servers only: never in a browser, an app or a
        repository.
      </p>
      <p>
        <Link to={API_REFERENCE_URL}>API reference</Link>
      </p>
    </section>
  );
}

/** The tab: the key forms' answers are theirs; every other answer (an endpoint's) goes to the endpoints section. */
export function DevelopersTab({ developers, endpoints, actionData }: { developers: DevelopersData; endpoints: EndpointsData; actionData: unknown }) {
  const answer = isKeyAnswer(actionData) ? actionData : null;
  const named = answer?.intent === "create-key";
  const typed = named && answer.values && typeof answer.values === "object" && "name" in answer.values ? String(answer.values.name) : undefined;
  return (
    <div className="developers">
      <Authentication keyMode={developers.keyMode} />
      <ApiKeysSection
        keys={developers.keys}
        confirm={developers.confirm}
        keyMode={developers.keyMode}
        newKey={answer?.newKey ?? null}
        nameError={named ? answer.errors.name : undefined}
        typedName={typed}
        error={answer && !answer.newKey && !named ? (answer.errors.form ?? null) : null}
      />
      <EndpointsSection endpoints={endpoints} actionData={actionData} />
      <PaymentConflictsSection conflicts={developers.conflicts} />
      <RefusedSection parked={developers.refused.parked} />
      <WaitingReversalsSection reversals={developers.refused.reversals} />
    </div>
  );
}

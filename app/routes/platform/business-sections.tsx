// The sections of a business's page on the platform (business.route.tsx): each a card of counts and sums.
import { Form, Link } from "@remix-run/react";
import { platformPaths } from "#app/lib/platform-paths";
import { Details } from "#app/components/details";
import { describedBy, Field } from "#app/components/forms/form";
import { detailDate, formatAmount, formatCount } from "#app/lib/format";
import { statusLabel } from "#app/lib/statuses";
import type { PlatformBusiness } from "#server/operators/businesses.db";
import type { BusinessSummary } from "#server/operators/figures.db";
import { formatSpan } from "./figures";

/** What business.route.tsx's loader gives its sections. */
export interface BusinessPage {
  business: PlatformBusiness;
  summary: BusinessSummary;
  parkedLagMs: number | null;
  webhookFailureRate: number | null;
  move: { mayAsk: boolean; targets: string[]; waiting: string | null };
}

const ghs = (pesewas: number) => `GHS ${formatAmount(pesewas)}`;
const paid = ({ count, amount }: { count: number; amount: number }) => `${formatCount(count)} · ${ghs(amount)}`;

/** "12 (10 active, 2 inactive)": a total and its parts by status, in the order given. */
function byStatus(counts: Record<string, number>, labels: Readonly<Record<string, string>>): string {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const parts = Object.entries(labels)
    .filter(([status]) => (counts[status] ?? 0) > 0)
    .map(([status, label]) => `${formatCount(counts[status] ?? 0)} ${label.toLowerCase()}`);
  return parts.length > 0 ? `${formatCount(total)} (${parts.join(", ")})` : formatCount(total);
}

export function AboutSection({ business }: BusinessPage) {
  return (
    <section className="card" aria-labelledby="about-title">
      <h2 id="about-title">About</h2>
      <Details
        rows={[
          ["Registered name", business.name],
          ["Trading name", business.tradingName ?? "—"],
          ["Town", business.town],
          ["Sector", business.sector],
          ["Status", statusLabel("business", business.lifecycle)],
          ["Database", business.movingTo ? `${business.shard}, moving to ${business.movingTo}` : business.shard],
          ["On the platform since", detailDate(business.createdAt)],
        ]}
      />
    </section>
  );
}

export function PaymentsSection({ summary }: BusinessPage) {
  const { payments } = summary;
  return (
    <section className="card" aria-labelledby="payments-title">
      <h2 id="payments-title">Payments</h2>
      <p className="card__lead">Successful payments: count and value. Days are Africa/Accra days; 7 and 30 days include today.</p>
      <Details
        rows={[
          ["Today", paid(payments.today)],
          ["Failed today", formatCount(payments.failedToday)],
          ["Last 7 days", paid(payments.last7)],
          ["Last 30 days", paid(payments.last30)],
          ["Last payment", payments.lastAt === null ? "None yet" : detailDate(payments.lastAt)],
        ]}
      />
    </section>
  );
}

export function MoneySection({ summary }: BusinessPage) {
  const { balances, disputes } = summary;
  return (
    <section className="card" aria-labelledby="money-title">
      <h2 id="money-title">Merchants&apos; money</h2>
      <Details
        rows={[
          ["Pending clearance", ghs(balances.pending)],
          ["Available", ghs(balances.available)],
          ["Held by disputes", ghs(balances.held)],
          ["Fees earned", ghs(balances.fees)],
          ["Open disputes", `${formatCount(disputes.open)} · ${ghs(disputes.openAmount)}`],
          ["Disputes needing a response", formatCount(disputes.due)],
        ]}
      />
    </section>
  );
}

export function PeopleAndPlacesSection({ summary }: BusinessPage) {
  return (
    <section className="card" aria-labelledby="places-title">
      <h2 id="places-title">People and places</h2>
      <Details
        rows={[
          ["Employees", byStatus(summary.employees, { active: "Active", invited: "Invited", deactivated: "Deactivated" })],
          ["Merchants", byStatus(summary.merchants, { active: "Active", inactive: "Inactive" })],
          ["Points of sale", byStatus(summary.pointsOfSale, { active: "Active", inactive: "Inactive" })],
          [
            "Terminals",
            byStatus(summary.terminals, {
              active: statusLabel("terminal", "active"),
              assigned: statusLabel("terminal", "assigned"),
              in_stock: statusLabel("terminal", "in_stock"),
              blocked: statusLabel("terminal", "blocked"),
              faulty: statusLabel("terminal", "faulty"),
              retired: statusLabel("terminal", "retired"),
            }),
          ],
        ]}
      />
    </section>
  );
}

export function ProblemsSection({ summary, parkedLagMs, webhookFailureRate }: BusinessPage) {
  const { parked, webhooks } = summary;
  return (
    <section className="card" aria-labelledby="problems-title">
      <h2 id="problems-title">Ingest and webhooks</h2>
      <Details
        rows={[
          ["Parked Partner API messages", formatCount(parked.count)],
          ["Ingest lag (oldest parked)", parkedLagMs === null ? "None waiting" : formatSpan(parkedLagMs)],
          ["Webhook endpoints", `${formatCount(webhooks.enabled)} enabled, ${formatCount(webhooks.disabled)} disabled`],
          [
            "Webhook failures (24 h)",
            webhookFailureRate === null
              ? "Nothing sent"
              : `${webhookFailureRate}% (${formatCount(webhooks.failing)} of ${formatCount(webhooks.tried)} deliveries)`,
          ],
        ]}
      />
    </section>
  );
}

/** Where its rows live, and (for those who may ask) a move to another database: a request decided by another administrator. */
export function DatabaseSection({ business, move }: BusinessPage) {
  return (
    <section className="card" aria-labelledby="database-title">
      <h2 id="database-title">Database</h2>
      <p className="card__lead">
        {business.movingTo
          ? `Being moved from ${business.shard} to ${business.movingTo}: read-only until its copy is checked and the directory switches.`
          : `Its rows live on ${business.shard}.`}{" "}
        <Link to={platformPaths.platformShards()}>The databases</Link>
      </p>
      {move.waiting ? (
        <p>
          <Link to={platformPaths.platformRequest(move.waiting)}>A move waits for a decision</Link>
        </p>
      ) : move.mayAsk && !business.movingTo && move.targets.length > 0 ? (
        <Form method="post" action={platformPaths.platformShards()} className="form">
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="business" value={business.id} />
          <Field id="move-to" label="Move this business to" hint="While it moves, the business is read-only and the Partner API's payments wait in the queue.">
            <select id="move-to" name="to" defaultValue={move.targets[0]} {...describedBy("move-to", null, true)}>
              {move.targets.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </Field>
          <button type="submit" className="button">
            Ask to move
          </button>
        </Form>
      ) : null}
    </section>
  );
}

// An endpoint's status and event types, as Settings > Developers and an endpoint's delivery log show them: a module of
// their own, so the delivery log's page does not load the whole endpoints section with them (decision 043).
import { StatusPill } from "#app/components/status-pill";
import { proseDate } from "#app/lib/format";
import type { EndpointsData } from "./developers-endpoints.server";

type Endpoint = EndpointsData["endpoints"][number];

/** An endpoint's status, with why it is disabled and since when. */
export function EndpointStatus({ endpoint }: { endpoint: Pick<Endpoint, "status" | "disabledReason" | "disabledAt"> }) {
  return (
    <span className="endpoint-status">
      <StatusPill entity="webhook_endpoint" status={endpoint.status} />
      {endpoint.status === "disabled" && endpoint.disabledReason ? (
        <span className="cell-sub">
          {endpoint.disabledReason}
          {endpoint.disabledAt ? ` Since ${proseDate(endpoint.disabledAt)}.` : ""}
        </span>
      ) : null}
    </span>
  );
}

export function EventChips({ eventTypes, label }: { eventTypes: readonly string[]; label: string }) {
  return (
    <ul className="chips endpoint-events" aria-label={label}>
      {eventTypes.map((type) => (
        <li key={type} className="chip chip--small">
          {type}
        </li>
      ))}
    </ul>
  );
}

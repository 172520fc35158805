// Development only: the analytics events the queue consumer stored in D1 because
// no EVENTS_ENDPOINT is set, newest first. An HTML page, or JSON with
// `Accept: application/json`. In production it is a 404, like /__dev/ui.
//
// A resource route (no default export): a Remix page cannot also answer raw JSON
// at the same URL, so the page is rendered here as a small static document.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listStoredEvents, type StoredEvent, type StoredEvents } from "#server/analytics/stored";
import { DevDocument, devListResponse } from "./dev-list-page";
import { detailDate } from "#app/lib/format";

function valueText({ event }: StoredEvent): string {
  const { type, value } = event.eventValue;
  return `${type}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`;
}

function EventsPage({ total, events }: StoredEvents) {
  return (
    <DevDocument title="Analytics events">
      <div className="page">
        <header className="page__header">
          <h1>Analytics events</h1>
          <p className="page__lead">
            Development only. Events stored because no EVENTS_ENDPOINT is set, newest first: showing {events.length} of {total}.
          </p>
        </header>
        {events.length === 0 ? (
          <section className="card">
            <p>No events yet.</p>
          </section>
        ) : (
          events.map((stored) => (
            <section className="card" key={stored.hash} aria-label={stored.event.eventId}>
              <dl className="format-list">
                <div>
                  <dt>Event</dt>
                  <dd>{stored.event.eventId}</dd>
                </div>
                <div>
                  <dt>Type</dt>
                  <dd>{stored.event.eventType}</dd>
                </div>
                <div>
                  <dt>Section</dt>
                  <dd>{stored.event.sectionName || "(none)"}</dd>
                </div>
                <div>
                  <dt>Value</dt>
                  <dd>{valueText(stored)}</dd>
                </div>
                <div>
                  <dt>Occurred</dt>
                  <dd title={new Date(stored.event.occurredAt).toISOString()}>{detailDate(stored.event.occurredAt)}</dd>
                </div>
                <div>
                  <dt>Received</dt>
                  <dd title={stored.receivedAt}>{detailDate(stored.receivedAt)}</dd>
                </div>
                <div>
                  <dt>User</dt>
                  <dd>{stored.event.userEmail ?? stored.event.userId ?? "(signed out)"}</dd>
                </div>
                <div>
                  <dt>Hash</dt>
                  <dd>
                    <code>{stored.hash.slice(0, 16)}</code>
                  </dd>
                </div>
              </dl>
              <details>
                <summary>Whole event</summary>
                <pre>{JSON.stringify(stored.event, null, 2)}</pre>
              </details>
            </section>
          ))
        )}
      </div>
    </DevDocument>
  );
}

export function loader(args: LoaderFunctionArgs) {
  return devListResponse(args, listStoredEvents, (data) => <EventsPage {...data} />);
}

// Development only: the text messages (one-time codes) the dev outbox stored in D1
// because no SMS_GATEWAY_URL is set, newest first. An HTML page, or JSON with
// `Accept: application/json`. In production it is a 404, like /__dev/events.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listOutbox, type OutboxMessage } from "#server/sms/sms";
import { DevDocument, devListResponse } from "./dev-list-page";
import { detailDate } from "#app/lib/format";

function OutboxPage({ total, messages }: { total: number; messages: OutboxMessage[] }) {
  return (
    <DevDocument title="Dev outbox">
      <div className="page">
        <header className="page__header">
          <h1>Dev outbox</h1>
          <p className="page__lead">
            Development only. Text messages kept here because no SMS_GATEWAY_URL is set, newest first: showing {messages.length} of {total}.
          </p>
        </header>
        {messages.length === 0 ? (
          <section className="card">
            <p>No messages yet.</p>
          </section>
        ) : (
          messages.map((message, index) => (
            <section className="card" key={`${message.createdAt}-${index}`} aria-label={`Message to ${message.to}`}>
              <dl className="format-list">
                <div>
                  <dt>To</dt>
                  <dd>{message.to}</dd>
                </div>
                <div>
                  <dt>Sent</dt>
                  <dd title={message.createdAt}>{detailDate(message.createdAt)}</dd>
                </div>
                <div>
                  <dt>Message</dt>
                  <dd>{message.body}</dd>
                </div>
              </dl>
            </section>
          ))
        )}
      </div>
    </DevDocument>
  );
}

export function loader(args: LoaderFunctionArgs) {
  return devListResponse(args, listOutbox, (data) => <OutboxPage {...data} />);
}

// Development only: the text messages (one-time codes) the dev outbox stored in D1
// because no SMS_GATEWAY_URL is set, and the emails it "sent" (EMAIL_PROVIDER unset or outbox), newest first. An HTML
// page (each email's own HTML one link away, as a mail client shows it), or JSON with `Accept: application/json`.
// In production it is a 404, like /__dev/events.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listOutbox } from "#server/sms/sms";
import { listOutboxEmails, type OutboxEmail } from "#server/notifications/email-outbox.db";
import { DevDocument, devListResponse } from "./dev-list-page";
import { detailDate } from "#app/lib/format";

async function listBoth(db: D1Database, limit: number) {
  const [texts, emails] = await Promise.all([listOutbox(db, limit), listOutboxEmails(db, limit)]);
  return { ...texts, emailTotal: emails.total, emails: emails.emails };
}

function Emails({ total, emails }: { total: number; emails: OutboxEmail[] }) {
  return (
    <>
      <h2>Emails</h2>
      <p>
        Showing {emails.length} of {total}, newest first. Each opens as its HTML.
      </p>
      {emails.length === 0 ? (
        <section className="card">
          <p>No emails yet.</p>
        </section>
      ) : (
        emails.map((email) => (
          <section className="card" key={email.id} aria-label={`Email to ${email.to}`}>
            <dl className="format-list">
              <div>
                <dt>To</dt>
                <dd>{email.to}</dd>
              </div>
              <div>
                <dt>Subject</dt>
                <dd>
                  <a href={`/__dev/outbox/email/${email.id}`}>{email.subject}</a>
                </dd>
              </div>
              <div>
                <dt>Sent</dt>
                <dd title={email.createdAt}>{detailDate(email.createdAt)}</dd>
              </div>
            </dl>
            <h3 className="visually-hidden">Text</h3>
            <pre className="outbox-text">{email.text}</pre>
          </section>
        ))
      )}
    </>
  );
}

function OutboxPage({ total, messages, emailTotal, emails }: Awaited<ReturnType<typeof listBoth>>) {
  return (
    <DevDocument title="Dev outbox">
      <div className="page">
        <header className="page__header">
          <h1>Dev outbox</h1>
          <p className="page__lead">
            Development only. Text messages kept here because no SMS_GATEWAY_URL is set, newest first: showing {messages.length} of {total}.
          </p>
        </header>
        <h2>Text messages</h2>
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
        <Emails total={emailTotal} emails={emails} />
      </div>
    </DevDocument>
  );
}

export function loader(args: LoaderFunctionArgs) {
  return devListResponse(args, listBoth, (data) => <OutboxPage {...data} />);
}

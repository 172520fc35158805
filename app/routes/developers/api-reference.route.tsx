// /developers/api: the Partner API's reference for the people who connect a
// processor, read from the same OpenAPI document that
// /api/v1/openapi.json serves, so the page, the document and the Worker's checks
// say the same. Administrators only (manage:developer), like the Developers tab.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { requireTenant } from "#server/guards";
import stylesheet from "#app/styles/developers-api.css?url";
import { buildReference, type ReferenceBody, type ReferenceField } from "./reference.server";

export const meta: MetaFunction = () => [{ title: "API Reference" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireTenant(request, context, "manage:developer");
  const { rateLimitPerMinute } = context.config.api;
  return buildReference(new URL(request.url).origin, { rateLimitPerMinute, now: Date.now() });
}

// How a receiver checks a webhook call (docs/webhooks.md has the same, with an Express handler).
const STANDARD_EXAMPLE = `import { Webhook } from "standardwebhooks";

// secret: the endpoint's whsec_... secret as shown; rawBody: the body exactly as received.
const event = new Webhook(secret).verify(rawBody, headers); // throws when the signature or the time is wrong`;

const VERIFY_EXAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request body exactly as received (verify before parsing the JSON);
// header: the PP-Signature header; secret: the endpoint's whsec_... secret.
export function verifyPartnersPortal(rawBody, header, secret, toleranceSeconds = 300) {
  const parts = header.split(",").map((part) => part.split("="));
  const t = parts.find(([key]) => key === "t")?.[1];
  const signatures = parts.filter(([key]) => key === "v1").map(([, value]) => Buffer.from(value, "hex"));
  if (!t || signatures.length === 0) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(\`\${t}.\`).update(rawBody).digest();
  return signatures.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
}`;

/** Text with `code` spans. */
function Prose({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}</>;
}

function Fields({ fields, label }: { fields: ReferenceField[]; label: string }) {
  return (
    <dl className="api-fields" aria-label={label}>
      {fields.map((field) => (
        <div key={field.name} className="api-field">
          <dt>
            <code className="api-field__name">{field.name}</code>
            <span className="api-field__type">{field.type}</span>
            {field.required ? <span className="status status--wait">required</span> : <span className="status">optional</span>}
          </dt>
          <dd>
            {field.description ? <p>{field.description}</p> : null}
            {field.limits.length > 0 ? (
              <p className="api-field__limits">
                {field.limits.map((limit, i) => (
                  <Fragment key={limit}>
                    {i > 0 ? "; " : null}
                    {limit.startsWith("matches ") ? (
                      <>
                        matches <code>{limit.slice("matches ".length)}</code>
                      </>
                    ) : (
                      limit
                    )}
                  </Fragment>
                ))}
              </p>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Body({ body, heading }: { body: ReferenceBody; heading: string }) {
  return (
    <div className="api-body">
      <h4>{heading}</h4>
      {body.note ? <p className="card__lead">{body.note}</p> : null}
      <Fields fields={body.fields} label={body.title} />
      {body.rules.length > 0 ? (
        <>
          <p className="api-body__rules-title">Rules across fields</p>
          <ul className="api-body__rules">
            {body.rules.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

export default function DevelopersApi() {
  const reference = useLoaderData<typeof loader>();
  return (
    <div className="page api-reference">
      <header className="page__header">
        <p className="page__crumb">
          <Link to="/settings">Settings</Link> › Developers
        </p>
        <h1>API reference</h1>
        <p className="page__lead">{reference.intro}</p>
        <p>
          <a href={reference.documentUrl}>OpenAPI 3.1 document (JSON)</a>: for code generators and API tools.
        </p>
      </header>

      <nav className="card api-toc" aria-label="On this page">
        <h2>On this page</h2>
        <ul>
          {reference.sections.map((section) => (
            <li key={section.title}>
              <a href={`#${slug(section.title)}`}>{section.title}</a>
            </li>
          ))}
          {reference.endpoints.map((endpoint) => (
            <li key={endpoint.id}>
              <a href={`#${endpoint.id}`}>
                <span className="api-method">{endpoint.method}</span> <code>{endpoint.path}</code>
              </a>
            </li>
          ))}
          <li>
            <a href="#problems">Problem codes</a>
          </li>
        </ul>
      </nav>

      {reference.sections.map((section) => (
        <section key={section.title} className="card" id={slug(section.title)} aria-labelledby={`${slug(section.title)}-title`}>
          <h2 id={`${slug(section.title)}-title`}>{section.title}</h2>
          <p>
            <Prose text={section.text} />
          </p>
          {section.title === "Webhooks" ? (
            <>
              <p>Checking a call with a Standard Webhooks library (any language; here Node.js):</p>
              {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is focusable so arrows scroll it */}
              <pre className="api-code" tabIndex={0} role="group" aria-label="Checking a call with a Standard Webhooks library">
                <code>{STANDARD_EXAMPLE}</code>
              </pre>
              <p>Or checking PP-Signature by hand in Node.js:</p>
              {/* A long line scrolls sideways: a keyboard reaches it too (WCAG 2.1.1; axe scrollable-region-focusable). */}
              {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is focusable so arrows scroll it */}
              <pre className="api-code" tabIndex={0} role="group" aria-label="Checking a signature in Node.js">
                <code>{VERIFY_EXAMPLE}</code>
              </pre>
            </>
          ) : null}
        </section>
      ))}

      {reference.endpoints.map((endpoint) => (
        <section key={endpoint.id} className="card api-endpoint" id={endpoint.id} aria-labelledby={`${endpoint.id}-title`}>
          <h2 id={`${endpoint.id}-title`}>{endpoint.summary}</h2>
          <p className="api-endpoint__line">
            <span className="api-method">{endpoint.method}</span> <code>{endpoint.path}</code>
          </p>
          <p>
            <Prose text={endpoint.description} />
          </p>
          {endpoint.parameters.length > 0 ? (
            <div className="api-body">
              <h3>Parameters</h3>
              <Fields fields={endpoint.parameters} label="Parameters" />
            </div>
          ) : null}
          {endpoint.bodies.length > 0 ? (
            <div className="api-body">
              <h3>Request body</h3>
              {endpoint.bodies.length > 1 ? <p className="card__lead">One of these:</p> : null}
              {endpoint.bodies.map((body) => (
                <Body key={body.title} body={body} heading={body.title} />
              ))}
            </div>
          ) : null}
          <div className="api-body">
            <h3>Answers</h3>
            <dl className="api-answers">
              {endpoint.answers.map((answer) => (
                <div key={answer.status} className="api-answer">
                  <dt>
                    <span className={`status ${answer.status.startsWith("2") ? "status--good" : "status--bad"}`}>{answer.status}</span>
                  </dt>
                  <dd>
                    {answer.description} <span className="api-field__type">{answer.body}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </div>
          {endpoint.returns ? (
            <div className="api-body">
              <h3>What 200 holds</h3>
              <Body body={endpoint.returns} heading={endpoint.returns.title} />
            </div>
          ) : null}
          <div className="api-body">
            <h3>Example</h3>
            {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is focusable so arrows scroll it */}
            <pre className="api-code" tabIndex={0} role="group" aria-label={`Example: ${endpoint.summary}`}>
              <code>{endpoint.curl}</code>
            </pre>
          </div>
        </section>
      ))}

      <section className="card" id="problems" aria-labelledby="problems-title">
        <h2 id="problems-title">Problem codes</h2>
        <p>
          Every refusal is <code>application/problem+json</code> (RFC 9457). Its <code>type</code> links here, to its <code>code</code>; branch on the code,
          never on the words of <code>detail</code>.
        </p>
        <dl className="api-answers api-problems">
          {reference.problems.map((problem) => (
            <div key={problem.code} id={problem.anchor} className="api-answer">
              <dt>
                <span className="status status--bad">{problem.status}</span>
              </dt>
              <dd>
                <code className="api-field__name">{problem.code}</code> {problem.title}. <Prose text={problem.explanation} />
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

function slug(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

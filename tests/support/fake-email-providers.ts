// Stand-ins for the HTTP email providers of functions/notifications/email.ts: one node:http server on 127.0.0.1 that
// answers Resend's POST /emails and Postmark's POST /email the way each documents (decision 053), success or refusal.
// Each request is checked against the documented shape (method, path, auth header, content type, fields) and every
// deviation is kept in `violations`, so a test fails when an adapter stops sending what the provider expects.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { expectText, jsonBody, readBody } from "./read-body";

export type EmailProviderName = "resend" | "postmark";
/** ok: accepted; auth: bad key; address: the recipient refused; limit: rate limited; down: 500. */
export type FakeEmailMode = "ok" | "auth" | "address" | "limit" | "down";

export const FAKE_EMAIL_CREDENTIALS = { resendApiKey: "re_test_0123456789abcdef", postmarkServerToken: "pm-server-token-0001" } as const;

export interface ReceivedEmail {
  provider: EmailProviderName;
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  idempotencyKey: string | null;
}

export interface FakeEmailProviders {
  url: string;
  mode: FakeEmailMode;
  received: ReceivedEmail[];
  violations: string[];
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: unknown;
}

// Resend: Authorization: Bearer re_…; { from, to: string | string[], subject, html, text, headers: { name: value } };
// 200 { id }; errors { statusCode, name, message }.
function resend(request: IncomingMessage, body: string, mode: FakeEmailMode, problems: string[], received: ReceivedEmail[]): Reply {
  const error = (statusCode: number, name: string, message: string): Reply => ({ status: statusCode, body: { statusCode, name, message } });
  if (request.headers.authorization !== `Bearer ${FAKE_EMAIL_CREDENTIALS.resendApiKey}` || mode === "auth")
    return error(401, "missing_api_key", "API key is invalid");
  const sent = jsonBody(request, body, problems);
  const to = Array.isArray(sent.to) ? (sent.to as unknown[]) : [sent.to];
  if (to.length !== 1 || typeof to[0] !== "string") problems.push("to must be one address");
  const headers = (typeof sent.headers === "object" && sent.headers !== null ? sent.headers : {}) as Record<string, string>;
  if (mode === "address") return error(422, "validation_error", "Invalid `to` field. The email address needs to follow the `email@example.com` format.");
  if (mode === "limit") return error(429, "rate_limit_exceeded", "Too many requests. You can only make 2 requests per second.");
  if (mode === "down") return error(500, "internal_server_error", "An unexpected error occurred.");
  received.push({
    provider: "resend",
    to: String(to[0]),
    from: expectText(problems, "from", sent.from),
    subject: expectText(problems, "subject", sent.subject),
    html: expectText(problems, "html", sent.html),
    text: expectText(problems, "text", sent.text),
    headers,
    idempotencyKey: typeof request.headers["idempotency-key"] === "string" ? request.headers["idempotency-key"] : null,
  });
  return { status: 200, body: { id: crypto.randomUUID() } };
}

// Postmark: X-Postmark-Server-Token, Accept and Content-Type application/json; { From, To, Subject, HtmlBody,
// TextBody, Headers: [{ Name, Value }], MessageStream }; 200 { ErrorCode: 0, MessageID, … }; 401 a bad token; 422
// { ErrorCode, Message } (300 an invalid address, 406 an inactive recipient).
function postmark(request: IncomingMessage, body: string, mode: FakeEmailMode, problems: string[], received: ReceivedEmail[]): Reply {
  if (request.headers["x-postmark-server-token"] !== FAKE_EMAIL_CREDENTIALS.postmarkServerToken || mode === "auth")
    return { status: 401, body: { ErrorCode: 10, Message: "The Server Token you provided in the X-Postmark-Server-Token request header was invalid." } };
  if (request.headers.accept !== "application/json") problems.push("Accept is not application/json");
  const sent = jsonBody(request, body, problems);
  if (sent.MessageStream !== "outbound") problems.push("MessageStream is not outbound");
  const headerList = Array.isArray(sent.Headers) ? (sent.Headers as { Name?: unknown; Value?: unknown }[]) : [];
  if (!headerList.every((h) => typeof h.Name === "string" && typeof h.Value === "string")) problems.push("Headers must be [{ Name, Value }]");
  if (mode === "address") return { status: 422, body: { ErrorCode: 406, Message: "You tried to send to a recipient that has been marked as inactive." } };
  if (mode === "limit" || mode === "down") return { status: 500, body: { ErrorCode: 100, Message: "Maintenance" } };
  const to = expectText(problems, "To", sent.To);
  received.push({
    provider: "postmark",
    to,
    from: expectText(problems, "From", sent.From),
    subject: expectText(problems, "Subject", sent.Subject),
    html: expectText(problems, "HtmlBody", sent.HtmlBody),
    text: expectText(problems, "TextBody", sent.TextBody),
    headers: Object.fromEntries(headerList.map((h) => [String(h.Name), String(h.Value)])),
    idempotencyKey: null,
  });
  return { status: 200, body: { To: to, SubmittedAt: new Date().toISOString(), MessageID: crypto.randomUUID(), ErrorCode: 0, Message: "OK" } };
}

export async function startFakeEmailProviders(): Promise<FakeEmailProviders> {
  const fake: Omit<FakeEmailProviders, "url" | "close"> = { mode: "ok", received: [], violations: [] };
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const problems: string[] = [];
      if (request.method !== "POST") problems.push(`method ${request.method}`);
      const reply =
        request.url === "/emails"
          ? resend(request, body, fake.mode, problems, fake.received)
          : request.url === "/email"
            ? postmark(request, body, fake.mode, problems, fake.received)
            : { status: 404, body: { message: "Not found" } };
      fake.violations.push(...problems.map((problem) => `${request.url}: ${problem}`));
      response.writeHead(reply.status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const started: FakeEmailProviders = Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return started;
}

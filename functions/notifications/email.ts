// Emails go through a port, as texts do (functions/sms): the dev outbox outside production (rows shown at
// /__dev/outbox), the Cloudflare Email Service binding, or an HTTP provider (Resend, Postmark), each sending the way
// its public documentation shows (decision 053 names the pages). Every adapter gives up after EMAIL_TIMEOUT_MS and
// turns a refusal into an EmailDeliveryError saying whether trying again can help.
import * as v from "valibot";
import { addOutboxEmail } from "./email-outbox.db";
import type { EmailSender } from "./email-settings";

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** List-Unsubscribe and the like: name to value. */
  headers: Record<string, string>;
  /** The same for every try of one delivery, so a provider that knows it sends it once (Resend's Idempotency-Key). */
  idempotencyKey: string;
}

export interface EmailPort {
  readonly provider: EmailSender["provider"];
  /** Resolves once the provider accepted the message; throws EmailDeliveryError otherwise. */
  send(message: EmailMessage): Promise<void>;
}

/**
 * Why a message was not accepted:
 * - address: this address cannot be sent to (malformed, suppressed, inactive): trying again will not help;
 * - setup: our key, sender or account was refused: ours to fix, every message waits;
 * - unavailable: no answer, the provider's own error, a rate limit, or an answer we could not read: try again later.
 */
export type EmailRefusal = "address" | "setup" | "unavailable";

export class EmailDeliveryError extends Error {
  override name = "EmailDeliveryError";
  readonly reason: EmailRefusal;
  constructor(message: string, reason: EmailRefusal) {
    super(message);
    this.reason = reason;
  }
}

export const EMAIL_TIMEOUT_MS = 10_000;

export interface EmailPortOptions {
  /** The tests' fakes answer through this; the Worker's own fetch otherwise. */
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

/** A provider's words, short and with no address in them, for the delivery's last error and the log. */
function wordsOf(text: string): string {
  return text
    .replace(/[^\s<>"@]+@[^\s<>"@]+/g, "[address]")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

async function post(provider: string, url: string, init: RequestInit, options: EmailPortOptions): Promise<{ status: number; text: string }> {
  const send = options.fetch ?? ((input: RequestInfo | URL, requestInit?: RequestInit) => fetch(input, requestInit));
  try {
    const response = await send(url, { ...init, method: "POST", signal: AbortSignal.timeout(options.timeoutMs ?? EMAIL_TIMEOUT_MS) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    throw new EmailDeliveryError(`${provider} unreachable: ${error instanceof Error ? error.message : String(error)}`, "unavailable");
  }
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// Resend (resend.com/docs/api-reference/emails/send-email): POST /emails, a bearer key, { id } on success; an error is
// { statusCode, name, message }: 401/403 a bad key or an unverified domain, 422 a field (the address among them), 429
// the rate limit, 5xx theirs.
const ResendAccepted = v.object({ id: v.pipe(v.string(), v.minLength(1)) });
const ResendError = v.object({ name: v.optional(v.string()), message: v.optional(v.string()) });

function resend(sender: Extract<EmailSender, { provider: "resend" }>, options: EmailPortOptions): EmailPort {
  return {
    provider: "resend",
    async send(message) {
      const answer = await post(
        "Resend",
        `${sender.baseUrl}/emails`,
        {
          headers: { Authorization: `Bearer ${sender.apiKey}`, "Content-Type": "application/json", "Idempotency-Key": message.idempotencyKey },
          body: JSON.stringify({
            from: sender.from,
            to: [message.to],
            subject: message.subject,
            html: message.html,
            text: message.text,
            headers: message.headers,
          }),
        },
        options,
      );
      if (answer.status >= 200 && answer.status < 300 && v.is(ResendAccepted, json(answer.text))) return;
      const error = v.safeParse(ResendError, json(answer.text));
      const name = error.success ? (error.output.name ?? "") : "";
      const words = wordsOf(error.success ? `${name} ${error.output.message ?? ""}` : answer.text);
      const reason: EmailRefusal =
        answer.status === 401 || answer.status === 403
          ? "setup"
          : answer.status === 422 && /email|address|recipient|\bto\b/i.test(words)
            ? "address"
            : answer.status >= 400 && answer.status < 500 && answer.status !== 429 && answer.status !== 409
              ? "setup"
              : "unavailable";
      throw new EmailDeliveryError(`Resend refused the email (HTTP ${answer.status})${words ? `: ${words}` : ""}`, reason);
    },
  };
}

// Postmark (postmarkapp.com/developer/user-guide/send-email-with-api): POST /email with X-Postmark-Server-Token;
// 200 with ErrorCode 0 is sent. 401 a bad token; 422 with an ErrorCode: 300 an invalid address, 406 an inactive
// recipient (bounced, unsubscribed), 400/401/412 a sender not confirmed or not allowed, 10 a bad token. 5xx theirs.
const PostmarkAnswer = v.object({ ErrorCode: v.number(), Message: v.optional(v.string()) });
const POSTMARK_ADDRESS_CODES = new Set([300, 406]);

function postmark(sender: Extract<EmailSender, { provider: "postmark" }>, options: EmailPortOptions): EmailPort {
  return {
    provider: "postmark",
    async send(message) {
      const answer = await post(
        "Postmark",
        `${sender.baseUrl}/email`,
        {
          headers: { Accept: "application/json", "Content-Type": "application/json", "X-Postmark-Server-Token": sender.serverToken },
          body: JSON.stringify({
            From: sender.from,
            To: message.to,
            Subject: message.subject,
            HtmlBody: message.html,
            TextBody: message.text,
            Headers: Object.entries(message.headers).map(([Name, Value]) => ({ Name, Value })),
            MessageStream: "outbound",
          }),
        },
        options,
      );
      const body = v.safeParse(PostmarkAnswer, json(answer.text));
      if (answer.status === 200 && body.success && body.output.ErrorCode === 0) return;
      const code = body.success ? body.output.ErrorCode : null;
      const words = wordsOf(body.success ? (body.output.Message ?? "") : answer.text);
      const reason: EmailRefusal =
        answer.status === 401 ? "setup" : code !== null && POSTMARK_ADDRESS_CODES.has(code) ? "address" : answer.status === 422 ? "setup" : "unavailable";
      throw new EmailDeliveryError(
        `Postmark refused the email (HTTP ${answer.status}${code === null ? "" : `, code ${code}`})${words ? `: ${words}` : ""}`,
        reason,
      );
    },
  };
}

// The Cloudflare Email Service binding (developers.cloudflare.com/email-service/api/send-emails/workers-api): send()
// resolves once accepted and rejects with an Error otherwise; an address it refuses says so in its message.
function cloudflare(sender: Extract<EmailSender, { provider: "cloudflare" }>, binding: SendEmail): EmailPort {
  return {
    provider: "cloudflare",
    async send(message) {
      try {
        await binding.send({ from: sender.from, to: message.to, subject: message.subject, html: message.html, text: message.text, headers: message.headers });
      } catch (error) {
        const words = wordsOf(error instanceof Error ? error.message : String(error));
        const reason: EmailRefusal = /recipient|address|suppress/i.test(words)
          ? "address"
          : /sender|from|domain|verif|permission|unauthori/i.test(words)
            ? "setup"
            : "unavailable";
        throw new EmailDeliveryError(`Cloudflare Email refused the email${words ? `: ${words}` : ""}`, reason);
      }
    },
  };
}

/** Development only: the message is stored in D1 (the core database) and shown at /__dev/outbox as it would be read. */
function outbox(db: D1Database, now: () => number): EmailPort {
  return {
    provider: "outbox",
    async send(message) {
      await addOutboxEmail(db, message, new Date(now()).toISOString());
    },
  };
}

/** The port for the configured sender. */
export function emailPortFor(sender: EmailSender, env: Pick<Env, "DB" | "EMAIL">, options: EmailPortOptions = {}): EmailPort {
  switch (sender.provider) {
    case "outbox":
      return outbox(env.DB, options.now ?? Date.now);
    case "resend":
      return resend(sender, options);
    case "postmark":
      return postmark(sender, options);
    case "cloudflare":
      return cloudflare(sender, env.EMAIL!);
  }
}

// One attempt of one delivery: check the URL again (the rules or the environment
// may have changed since the endpoint was saved), sign, POST with a timeout and
// redirects not followed, keep the first KB of the answer, record the attempt.
// 2xx is delivered; anything else, or no answer, is a failure.
import { checkWebhookUrl } from "./url-rules";
import { signatureHeader, standardHeaders } from "./signing";
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from "./types";
import type { WebhooksConfig } from "../env";
import type { DeliveryToSend } from "./sending.db";
import { renderEventData } from "./event-versions";

/** How much of an answer the log keeps. */
export const RESPONSE_BODY_LIMIT = 1024;
export const USER_AGENT = "PartnersPortal-Webhooks/1";

export interface AttemptResult {
  ok: boolean;
  at: number;
  responseStatus: number | null;
  latencyMs: number | null;
  responseBody: string | null;
  error: string | null;
}

/**
 * The body the receiver gets: `{ "id", "type", "created", "data" }`, the data in the version its endpoint is pinned to.
 * These are the bytes signed and sent.
 */
export function envelopeOf(
  delivery: Pick<DeliveryToSend, "eventId" | "eventType" | "eventAt" | "payload" | "payloadVersion" | "payloadExtra" | "endpointVersion">,
): string {
  const data = renderEventData({ type: delivery.eventType, ...delivery }, delivery.endpointVersion);
  return `{"id":${JSON.stringify(delivery.eventId)},"type":${JSON.stringify(delivery.eventType)},"created":${JSON.stringify(new Date(delivery.eventAt).toISOString())},"data":${data}}`;
}

/** The secrets that sign now: the current one, and the previous one while a roll is under way. */
export function signingSecrets(delivery: Pick<DeliveryToSend, "secret" | "previousSecret" | "previousSecretExpiresAt">, now: number): string[] {
  const previousValid = delivery.previousSecret !== null && (delivery.previousSecretExpiresAt ?? 0) > now;
  return previousValid ? [delivery.secret, delivery.previousSecret!] : [delivery.secret];
}

async function firstBytes(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(length, limit));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
    if (offset >= bytes.length) break;
  }
  // A cut in the middle of a character becomes U+FFFD, not an error.
  return new TextDecoder("utf-8").decode(bytes);
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Sends the delivery once, now. Never throws: every outcome is an AttemptResult. */
export async function sendOnce(delivery: DeliveryToSend, config: WebhooksConfig, now: () => number = Date.now): Promise<AttemptResult> {
  const at = now();
  const verdict = checkWebhookUrl(delivery.url, config.environment);
  if (!verdict.ok) return { ok: false, at, responseStatus: null, latencyMs: null, responseBody: null, error: `Not sent: ${verdict.reason}` };
  const body = envelopeOf(delivery);
  const secrets = signingSecrets(delivery, at);
  const signature = await signatureHeader(secrets, Math.floor(at / 1000), body);
  // The event id is the Standard Webhooks message id: the same on every retry, so a receiver de-duplicates on it.
  const standard = await standardHeaders(secrets, delivery.eventId, Math.floor(at / 1000), body);
  const started = now();
  let response: Response;
  try {
    response = await fetch(verdict.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        [SIGNATURE_HEADER]: signature,
        [EVENT_ID_HEADER]: delivery.eventId,
        [EVENT_TYPE_HEADER]: delivery.eventType,
        ...standard,
      },
      body,
      // A redirect is a failure: following it could reach an address the rules refuse.
      redirect: "manual",
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const latencyMs = now() - started;
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      ok: false,
      at,
      responseStatus: null,
      latencyMs,
      responseBody: null,
      error: timedOut ? `No answer within ${config.timeoutMs / 1000} s` : errorText(error),
    };
  }
  const latencyMs = now() - started;
  let responseBody: string | null;
  let readError: string | null = null;
  try {
    responseBody = await firstBytes(response, RESPONSE_BODY_LIMIT);
  } catch (error) {
    responseBody = null;
    readError = `The answer could not be read: ${errorText(error)}`;
  }
  const status = response.status;
  if (status >= 200 && status < 300) return { ok: true, at, responseStatus: status, latencyMs, responseBody, error: null };
  const error =
    status >= 300 && status < 400
      ? `Redirect (HTTP ${status}${response.headers.get("Location") ? ` to ${response.headers.get("Location")}` : ""}) not followed`
      : (readError ?? `HTTP ${status}`);
  return { ok: false, at, responseStatus: status, latencyMs, responseBody, error };
}

// Webhook signatures (docs/webhooks.md shows a receiver):
//   PP-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>
// While a secret is being rolled, a second v1= carries the signature made with the
// previous secret, so a receiver that still has only the old one keeps accepting.
// The HMAC key is the secret exactly as shown (UTF-8 bytes of "whsec_...").
//
// Every delivery is also signed the Standard Webhooks way (https://www.standardwebhooks.com/), so its libraries and
// Svix's verify it unchanged:
//   webhook-id: the event id (the same on every retry), webhook-timestamp: unix seconds,
//   webhook-signature: "v1,<base64 HMAC-SHA256(key, id + "." + timestamp + "." + body)>", space-separated while rolling,
// where the key is the base64 text after "whsec_" decoded, as those libraries read a secret. Our secrets' 64 hex
// characters are valid base64 (48 bytes of key), so the one secret a business copies serves both schemes.

import { constantTimeEqual, hex } from "../plumbing/sha256";

const encoder = new TextEncoder();

export const SECRET_PREFIX = "whsec_";
/** A receiver should refuse a signature older (or newer) than this. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `${SECRET_PREFIX}${hex(bytes)}`;
}

export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

/** The header value for `body` sent at `timestamp` (unix seconds), one v1= per secret, newest first. */
export async function signatureHeader(secrets: readonly string[], timestamp: number, body: string): Promise<string> {
  const signatures = await Promise.all(secrets.map((secret) => hmacSha256Hex(secret, `${timestamp}.${body}`)));
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(",");
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function bytesToBase64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

/** Standard Webhooks' signature of one message with one secret ("v1,<base64>"). */
export async function standardSignature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", base64ToBytes(secret.replace(/^whsec_/, "")), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return `v1,${bytesToBase64(await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestamp}.${body}`)))}`;
}

/** The three Standard Webhooks headers of a message, one signature per secret (newest first). */
export async function standardHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((secret) => standardSignature(secret, id, timestamp, body)));
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}

export type VerifyResult = { ok: true } | { ok: false; reason: "malformed" | "too old" | "no matching signature" };

/** What a receiver does: a fresh timestamp and one v1= that matches `secret`. */
export async function verifySignature(
  header: string,
  body: string,
  secret: string,
  options: { nowSeconds: number; toleranceSeconds?: number },
): Promise<VerifyResult> {
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamps = parts.filter(([key]) => key === "t").map(([, value]) => value ?? "");
  const signatures = parts.filter(([key]) => key === "v1").map(([, value]) => value ?? "");
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!) || signatures.length === 0) return { ok: false, reason: "malformed" };
  const timestamp = Number(timestamps[0]);
  if (Math.abs(options.nowSeconds - timestamp) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return { ok: false, reason: "too old" };
  const expected = await hmacSha256Hex(secret, `${timestamp}.${body}`);
  return signatures.some((signature) => constantTimeEqual(signature, expected)) ? { ok: true } : { ok: false, reason: "no matching signature" };
}

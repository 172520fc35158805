// Webhook signatures (docs/webhooks.md shows a receiver):
//   PP-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>
// While a secret is being rolled, a second v1= carries the signature made with the
// previous secret, so a receiver that still has only the old one keeps accepting.
// The HMAC key is the secret exactly as shown (UTF-8 bytes of "whsec_...").

import { hex } from "../platform/sha256";

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

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
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
  return signatures.some((signature) => sameText(signature, expected)) ? { ok: true } : { ok: false, reason: "no matching signature" };
}

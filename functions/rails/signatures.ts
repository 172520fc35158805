// Signatures of the rails' messages, checked in constant time.
// The switch: Standard Webhooks (https://www.standardwebhooks.com/, spec/standard-webhooks.md) in both directions:
//   webhook-id, webhook-timestamp (unix seconds), webhook-signature: "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>"
//   with the key the base64 after "whsec_" (several space-separated signatures while a key is rolled).
// Paystack: x-paystack-signature = hex HMAC-SHA512 of the raw body, keyed with the account's secret key.
import { constantTimeEqual, hex } from "../plumbing/sha256";
// One Standard Webhooks signer for the portal's deliveries and the rails' messages.
import { standardHeaders as standardHeadersOf, standardSignature } from "../webhooks/signing";

export { standardSignature };

const encoder = new TextEncoder();
/** Standard Webhooks' recommended tolerance: older or newer messages are refused (replays outside the id store). */
export const RAIL_SIGNATURE_TOLERANCE_SECONDS = 300;

async function hmac(hash: "SHA-512", key: Uint8Array<ArrayBuffer>, message: string): Promise<ArrayBuffer> {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", imported, encoder.encode(message));
}

/** The three headers of a signed message (a request to the switch, or a test's callback): one secret, as the webhooks' with one. */
export async function standardHeaders(secret: string, id: string, timestamp: number, body: string): Promise<Record<string, string>> {
  return standardHeadersOf([secret], id, timestamp, body);
}

export type StandardVerify = { ok: true; id: string } | { ok: false; reason: "malformed" | "too old" | "no matching signature" };

/** Checks a message signed the Standard Webhooks way: fresh timestamp, one matching v1 signature. */
export async function verifyStandard(headers: Headers, body: string, secret: string, nowSeconds: number): Promise<StandardVerify> {
  const id = headers.get("webhook-id") ?? "";
  const timestampText = headers.get("webhook-timestamp") ?? "";
  const signatures = (headers.get("webhook-signature") ?? "").split(" ").filter((s) => s.startsWith("v1,"));
  if (!/^[\w.:-]{1,200}$/.test(id) || !/^\d{1,12}$/.test(timestampText) || signatures.length === 0) return { ok: false, reason: "malformed" };
  const timestamp = Number(timestampText);
  if (Math.abs(nowSeconds - timestamp) > RAIL_SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: "too old" };
  const expected = await standardSignature(secret, id, timestamp, body);
  // Every candidate is compared (no early return), so the time taken says nothing of which one was close.
  let matched = false;
  for (const signature of signatures) matched = constantTimeEqual(signature, expected) || matched;
  return matched ? { ok: true, id } : { ok: false, reason: "no matching signature" };
}

/** Paystack's x-paystack-signature of a body. */
export async function paystackSignature(secretKey: string, body: string): Promise<string> {
  return hex(await hmac("SHA-512", new Uint8Array(encoder.encode(secretKey)), body));
}

export async function verifyPaystack(header: string | null, body: string, secretKey: string): Promise<boolean> {
  if (!header || !/^[0-9a-f]{128}$/.test(header)) return false;
  return constantTimeEqual(header, await paystackSignature(secretKey, body));
}

// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) for an authenticator app: the parameters every app
// reads without asking (SHA-1, 6 digits, 30 s), base32 secrets (RFC 4648) and the `otpauth://` enrolment URI. Web
// Crypto's HMAC only: nothing here stores or logs a secret (functions/authenticator/authenticator-app.ts does the storing).
import { constantTimeEqual } from "../plumbing/sha256";

export const TOTP = {
  digits: 6,
  periodSeconds: 30,
  /** Steps either side of now that are accepted: a phone's clock a little off, or a code typed as it changed. */
  window: 1,
  secretBytes: 20,
  issuer: "Partners Portal",
} as const;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding (what authenticator apps take). */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** Base32 back to bytes; spaces, dashes, padding and case are forgiven (a typed secret), anything else is null. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Uint8Array.from(out);
}

/** A secret as people type it: groups of 4 letters. */
export function groupedSecret(base32: string): string {
  return base32.replace(/(.{4})(?=.)/g, "$1 ");
}

/** A new secret: 20 bytes (160 bits, RFC 4226's recommended length) from the CSPRNG. */
export function newTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(TOTP.secretBytes));
}

/** RFC 4226 HOTP: HMAC-SHA-1 of the 8-byte counter, dynamically truncated to `digits` digits. */
export async function hotp(secret: Uint8Array, counter: number, digits: number = TOTP.digits): Promise<string> {
  const message = new Uint8Array(8);
  // The counter's high 32 bits and low 32 bits (a time step fits easily in 53 bits).
  new DataView(message.buffer).setUint32(0, Math.floor(counter / 2 ** 32));
  new DataView(message.buffer).setUint32(4, counter >>> 0);
  const key = await crypto.subtle.importKey("raw", new Uint8Array(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The time step (RFC 6238's T) at epoch ms. */
export function timeStep(ms: number): number {
  return Math.floor(ms / 1000 / TOTP.periodSeconds);
}

/** The code an app shows at epoch ms. */
export function totpAt(secret: Uint8Array, ms: number, digits: number = TOTP.digits): Promise<string> {
  return hotp(secret, timeStep(ms), digits);
}

/**
 * The time step a typed code belongs to, within the window around now and later than `afterStep` (a step already
 * used is never taken again: RFC 6238 section 5.2), or null. Every step of the window is compared, in constant time,
 * so the answer's timing says nothing of which one matched.
 */
export async function matchingStep(secret: Uint8Array, typed: string, ms: number, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(typed)) return null;
  const now = timeStep(ms);
  let found: number | null = null;
  for (let step = now - TOTP.window; step <= now + TOTP.window; step += 1) {
    const same = constantTimeEqual(await hotp(secret, step), typed);
    if (same && (afterStep === null || step > afterStep) && found === null) found = step;
  }
  return found;
}

/** The Key URI Format authenticator apps scan: issuer and account in the label and the issuer again as a parameter. */
export function otpauthUri(email: string, secretBase32: string): string {
  const issuer = encodeURIComponent(TOTP.issuer);
  // The account part keeps its "@" (apps show it as typed); anything else a label cannot hold is escaped.
  const account = encodeURIComponent(email).replace(/%40/g, "@");
  const query = `secret=${secretBase32}&issuer=${issuer}&algorithm=SHA1&digits=${TOTP.digits}&period=${TOTP.periodSeconds}`;
  return `otpauth://totp/${issuer}:${account}?${query}`;
}

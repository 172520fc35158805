// An authenticator app for tests (decision 049): the code a phone's app would show for a secret as the Security tab
// types it (base32, grouped by 4), computed here with node:crypto (RFC 6238: HMAC-SHA-1, 6 digits, 30 s), apart from
// the portal's own code so that a mistake in one is not repeated in the other.
import { createHmac } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function bytesOf(base32: string): Buffer {
  let bits = "";
  for (const char of base32.replace(/\s/g, "").toUpperCase()) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) throw new Error(`Not base32: ${char}`);
    bits += value.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The app's code for `secret` at epoch ms `at` (now by default). */
export function appCode(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac("sha1", bytesOf(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** A code that is surely wrong for `secret` now (none of the accepted window's). */
export function wrongCode(secret: string): string {
  const taken = new Set([-30_000, 0, 30_000].map((offset) => appCode(secret, Date.now() + offset)));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, "0");
    if (!taken.has(code)) return code;
  }
}

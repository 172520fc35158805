// Partner API keys: what one looks like and how it is kept. A key is
// "pp_live_" (production) or "pp_test_" (anywhere else) and 32 random base62
// characters (190 bits). Only its SHA-256 is stored; its first 12 characters
// (the prefix) name it in lists and logs. Keys are long and random, so a fast
// hash is the right one (a slow password hash protects guessable secrets).
import type { NewKeyRow } from "./api-keys.db";
import { hex, sha256Hex } from "../platform/sha256";
import { DAY_MS } from "../platform/time";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
export const KEY_PATTERN = /^pp_(live|test)_[0-9A-Za-z]{32}$/;
/** How long a rolled key keeps working. */
export const ROLL_GRACE_MS = DAY_MS;

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    // 248 = 4 * 62: bytes at or above it are dropped so every character is equally likely.
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function hashKey(key: string): Promise<string> {
  return sha256Hex(key);
}

export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}

/** A new key: the secret to show once, and the row to store. */
export async function makeApiKey(name: string, environment: string): Promise<{ secret: string; row: NewKeyRow }> {
  const secret = `pp_${environment === "production" ? "live" : "test"}_${randomBase62(RANDOM_LENGTH)}`;
  const id = `key_${hex(crypto.getRandomValues(new Uint8Array(8)))}`;
  return { secret, row: { id, name, prefix: keyPrefix(secret), secretHash: await hashKey(secret) } };
}

/** The key of an `Authorization: Bearer <key>` header, or null when there is none or it has not a key's shape. */
export function bearerKey(request: Request): string | null {
  const header = request.headers.get("Authorization");
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return match && KEY_PATTERN.test(match[1]!) ? match[1]! : null;
}

// Partner API keys: what one looks like and how it is kept. A business's key is
// "pp_live_" (its live data) or "pp_test_" (its test data, decision 045) and 32 random base62
// characters (190 bits); the platform's (the switch's, functions/operators/platform-keys.db.ts) is the same with
// "pp_platform_live_" (production) or "pp_platform_test_" (any other deployment), so a person reading a log or a config file tells the two apart. Only its
// SHA-256 is stored; its kind and the first 4 random characters (the prefix) name it in lists and logs. Keys are long and random, so a fast
// hash is the right one (a slow password hash protects guessable secrets).
import type { NewKeyRow } from "./api-keys.db";
import { hex, sha256Hex } from "../plumbing/sha256";
import { DAY_MS } from "../plumbing/time";
import { keyModeOf } from "../tenancy/test-mode";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
export const KEY_PATTERN = /^pp_(live|test)_[0-9A-Za-z]{32}$/;
/** A platform key: acts for the business a request names in PP-Business, within its scopes. */
export const PLATFORM_KEY_PATTERN = /^pp_platform_(live|test)_[0-9A-Za-z]{32}$/;
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

/** "pp_live_" or "pp_platform_live_" and 4 random characters: a business key's prefix is its first 12 characters, as ever. */
export function keyPrefix(key: string): string {
  return key.slice(0, key.lastIndexOf("_") + 5);
}

const kindOf = (environment: string) => (environment === "production" ? "live" : "test");

async function newKey(start: string, idStart: string, name: string): Promise<{ secret: string; row: NewKeyRow }> {
  const secret = `${start}${randomBase62(RANDOM_LENGTH)}`;
  const id = `${idStart}${hex(crypto.getRandomValues(new Uint8Array(8)))}`;
  return { secret, row: { id, name, prefix: keyPrefix(secret), secretHash: await hashKey(secret) } };
}

/** A new key of a business: the secret to show once, and the row to store. pp_test_ for a test business, pp_live_ for a live one, on every deployment (decision 045). */
export function makeApiKey(name: string, businessId: string): Promise<{ secret: string; row: NewKeyRow }> {
  return newKey(`pp_${keyModeOf(businessId)}_`, "key_", name);
}

/** A new platform key (the switch's credential): the secret to show once, and the row to store. */
export function makePlatformKey(name: string, environment: string): Promise<{ secret: string; row: NewKeyRow }> {
  return newKey(`pp_platform_${kindOf(environment)}_`, "pkey_", name);
}

/** The key of an `Authorization: Bearer <key>` header, or null when there is none or it has not a key's shape (either kind). */
export function bearerKey(request: Request): string | null {
  const header = request.headers.get("Authorization");
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return match && (KEY_PATTERN.test(match[1]!) || PLATFORM_KEY_PATTERN.test(match[1]!)) ? match[1]! : null;
}

export function isPlatformKey(key: string): boolean {
  return PLATFORM_KEY_PATTERN.test(key);
}

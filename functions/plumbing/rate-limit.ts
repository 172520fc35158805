// Exact per-client rate limits, counted in D1 (one atomic upsert per request; KV
// would be eventually consistent). A client's window starts at its first request
// and lasts the limit's windowMs. Each limit has a name, so limits with different
// windows share the table without touching each other's rows.
import { countInWindow, dropWindows } from "./rate-windows.db";

export interface RateLimit {
  name: string;
  max: number;
  windowMs: number;
}

/** POST /api/events: 120 events a minute per client. */
export const EVENTS_RATE_LIMIT: RateLimit = { name: "events", max: 120, windowMs: 60_000 };

/** `remaining` requests are left in the window, which ends in `resetSeconds` (the IETF RateLimit header's r and t). */
export type RateDecision =
  | { allowed: true; newWindow: boolean; remaining: number; resetSeconds: number }
  | { allowed: false; retryAfterSeconds: number; remaining: 0; resetSeconds: number };

/** Counts this request of `client` against `limit` and says whether it is within it. */
export async function countRequest(db: D1Database, limit: RateLimit, client: string, now: number): Promise<RateDecision> {
  const row = await countInWindow(db, `${limit.name}:${client}`, now, now - limit.windowMs);
  if (!row) throw new Error("rate window upsert returned no row");
  const resetSeconds = Math.max(1, Math.ceil((row.window_start + limit.windowMs - now) / 1000));
  if (row.count <= limit.max) return { allowed: true, newWindow: row.count === 1, remaining: limit.max - row.count, resetSeconds };
  return { allowed: false, retryAfterSeconds: resetSeconds, remaining: 0, resetSeconds };
}

/** One limit counted for one key: an account (`account:<user id>`) or an address (`ip:<clientKey>`). */
export interface LimitedKey {
  limit: RateLimit;
  key: string;
}

/**
 * Counts this request against every limit given (each is counted, so a refused request still uses up its windows)
 * and returns the longest wait among those passed, or null when all hold. For endpoints limited both per account and
 * per address: the caller answers 429 with `Retry-After` and says the wait in minutes where the person is looking.
 */
export async function overLimits(db: D1Database, keys: readonly LimitedKey[], now: number): Promise<{ retryAfterSeconds: number } | null> {
  const decisions = await Promise.all(keys.map(({ limit, key }) => countRequest(db, limit, key, now)));
  const waits = decisions.flatMap((decision) => (decision.allowed ? [] : [decision.retryAfterSeconds]));
  return waits.length ? { retryAfterSeconds: Math.max(...waits) } : null;
}

/** Drops this limit's ended windows (now and then; an ended window counts from 1 again anyway). */
export async function dropEndedWindows(db: D1Database, limit: RateLimit, now: number): Promise<void> {
  await dropWindows(db, `${limit.name}:`, `${limit.name};`, now - limit.windowMs);
}

/**
 * The rate-limit key of a client: its IPv4 address, or the /64 network of an IPv6
 * address (one subscriber usually holds a whole /64). Cloudflare sets
 * CF-Connecting-IP on every request and overwrites any value a client sends.
 */
export function clientKey(ip: string | null): string {
  if (!ip) return "unknown";
  const address = ip.trim().toLowerCase();
  if (!address.includes(":")) return address;
  // IPv4-mapped (::ffff:192.0.2.1): the IPv4 address.
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? 0 : Math.max(0, 8 - left.length - right.length);
  const groups = [...left, ...Array<string>(zeros).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

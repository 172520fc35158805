// POST /api/events: at most RATE_LIMIT.max events per client per window, counted
// exactly in D1 (one atomic upsert per request; KV would be eventually consistent).
// A client's window starts at its first request and lasts RATE_LIMIT.windowMs.

export const RATE_LIMIT = { max: 120, windowMs: 60_000 } as const;

export type RateDecision = { allowed: true; newWindow: boolean } | { allowed: false; retryAfterSeconds: number };

// In an upsert's SET every expression sees the row as it was, so both CASEs
// agree on whether the window had expired.
const COUNT_SQL = `INSERT INTO analytics_rate_windows (client, window_start, count) VALUES (?1, ?2, 1)
ON CONFLICT (client) DO UPDATE SET
  count = CASE WHEN window_start <= ?3 THEN 1 ELSE count + 1 END,
  window_start = CASE WHEN window_start <= ?3 THEN ?2 ELSE window_start END
RETURNING count, window_start`;

/** Counts this request for `client` and says whether it is within the limit. */
export async function countRequest(db: D1Database, client: string, now: number): Promise<RateDecision> {
  const row = await db.prepare(COUNT_SQL).bind(client, now, now - RATE_LIMIT.windowMs).first<{ count: number; window_start: number }>();
  if (!row) throw new Error("rate window upsert returned no row");
  if (row.count <= RATE_LIMIT.max) return { allowed: true, newWindow: row.count === 1 };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((row.window_start + RATE_LIMIT.windowMs - now) / 1000)) };
}

/** Drops windows that have ended (run now and then; an ended window counts from 1 again anyway). */
export async function dropEndedWindows(db: D1Database, now: number): Promise<void> {
  await db.prepare("DELETE FROM analytics_rate_windows WHERE window_start <= ?").bind(now - RATE_LIMIT.windowMs).run();
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

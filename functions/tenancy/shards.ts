// Businesses over several D1 databases (decision 021). The core database's directory (business_shards) names the
// binding that holds each business's rows; this is the one place a binding name becomes a database, and the only way
// code outside sign-in gets a business's database: as a BusinessDb found by business id, or a Tenant built from one.
//
// Reads on a request go through the D1 Sessions API so a read replica near the person may answer; the session's
// bookmark travels in a cookie (pp_d1) so the next request reads at least what this one wrote. Writes go to the
// primary: a request that changes things ("first-primary") starts its session there.
import { readCookie, serializeCookie } from "../plumbing/cookies";
import { businessPlace, businessPlaces, type BusinessPlace } from "./directory.db";
import type { BusinessDb, Db } from "./tenant";

/** A D1 binding by its name in wrangler.toml; a directory entry naming anything else is a fault, not a fallback. */
export function databaseNamed(env: Env, name: string): D1Database {
  const binding = (env as unknown as Record<string, unknown>)[name];
  if (!isD1(binding) || !(name === "DB" || name.startsWith("SHARD_"))) throw new Error(`No D1 database is bound as ${name}`);
  return binding;
}

/** The shard bindings this Worker has (SHARD_*), in name order: where new businesses may be placed. */
export function shardNames(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith("SHARD_") && isD1((env as unknown as Record<string, unknown>)[name]))
    .sort();
}

function isD1(value: unknown): value is D1Database {
  return (
    typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function" && typeof (value as D1Database).batch === "function"
  );
}

/** The business's database, found in the directory; null for a business the directory does not know. */
export async function businessDb(env: Env, businessId: string): Promise<BusinessDb | null> {
  const place = await businessPlace(env.DB, businessId);
  return place ? { businessId, db: databaseNamed(env, place.shard) } : null;
}

/** Every business with its database (the jobs that visit them all); `activeOnly` leaves out suspended businesses. */
export async function everyBusinessDb(env: Env, options: { activeOnly?: boolean } = {}): Promise<BusinessDb[]> {
  return (await businessPlaces(env.DB, options)).map((place) => ({ businessId: place.businessId, db: databaseNamed(env, place.shard) }));
}

export { type BusinessPlace };

const BOOKMARK_COOKIE = "pp_d1";
/** A bookmark older than this no longer matters: any replica has caught up long since. */
const BOOKMARK_SECONDS = 10 * 60;

/**
 * One request's D1 sessions, one per database it reads: opened on first use with the bookmark the person's last
 * request left (same database only), or on the primary for a request that writes. After the response, the
 * cookie carries the newest bookmark.
 */
export class RequestDatabases {
  private readonly sessions = new Map<string, D1DatabaseSession>();
  private readonly cookie: { shard: string; bookmark: string } | null;
  /** The business this request acted for, once a guard found it (the Worker queues its webhooks after a change). */
  business: BusinessDb | null = null;

  constructor(
    private readonly env: Env,
    private readonly request: Request,
  ) {
    this.cookie = parseBookmarkCookie(readCookie(request, BOOKMARK_COOKIE));
  }

  /** The business's database for this request (its directory entry says which), through a D1 session. */
  forBusiness(businessId: string, name: string): BusinessDb {
    const business = { businessId, db: this.open(name) };
    this.business = business;
    return business;
  }

  private open(name: string): Db {
    let session = this.sessions.get(name);
    if (!session) {
      const database = databaseNamed(this.env, name);
      const writes = this.request.method !== "GET" && this.request.method !== "HEAD";
      const bookmark = this.cookie?.shard === name ? this.cookie.bookmark : null;
      session = database.withSession(writes ? "first-primary" : (bookmark ?? "first-unconstrained"));
      this.sessions.set(name, session);
    }
    return session;
  }

  /** The Set-Cookie value that carries the bookmark of the business database this request used, if any. */
  bookmarkCookie(): string | null {
    for (const [shard, session] of this.sessions) {
      const bookmark = session.getBookmark();
      if (bookmark && (shard !== this.cookie?.shard || bookmark !== this.cookie.bookmark)) {
        return serializeCookie(this.request, BOOKMARK_COOKIE, `${shard}.${encodeURIComponent(bookmark)}`, BOOKMARK_SECONDS);
      }
    }
    return null;
  }
}

function parseBookmarkCookie(value: string | undefined): { shard: string; bookmark: string } | null {
  if (!value) return null;
  const dot = value.indexOf(".");
  const shard = value.slice(0, dot);
  if (dot < 1 || !/^(DB|SHARD_[A-Z0-9_]+)$/.test(shard)) return null;
  try {
    const bookmark = decodeURIComponent(value.slice(dot + 1));
    return bookmark ? { shard, bookmark } : null;
  } catch {
    return null;
  }
}

import type { Role } from "../permissions";
import type { Db } from "../plumbing/d1-coalesce";

// A business's database is its shard (decision 021) or a D1 session on it (read replicas); the type lives with the
// plumbing, whose own tables (rate windows, submissions) are read through it too.
export type { Db };

/** A business and the database that holds its rows, found in the shard directory (functions/tenancy/shards.ts), never chosen by a caller. */
export interface BusinessDb {
  businessId: string;
  db: Db;
}

/** Who is acting, for which business, on the database that holds it. Every data function takes it first and reaches its rows only through it. */
export interface Tenant extends BusinessDb {
  userId: string;
  role: Role;
  /** The platform closed the business (decision 039): its records are read, never changed. */
  closed?: boolean;
}

export const CLOSED_MESSAGE = "This business was closed by the platform: its records can be read, but nothing can be changed.";

/** Where a change came from, for the audit log. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** A row that does not exist, or exists in another business: the two are indistinguishable. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
  constructor(entity: string) {
    super(`${entity} not found`);
  }
}

/** A rule of the business refuses the change; the message is for the person who asked. */
export class RuleError extends Error {
  override name = "RuleError";
}

/** The acting role may not do this, whatever the target. */
export class ForbiddenError extends Error {
  override name = "ForbiddenError";
}

/** What a person is told when a write meets a business being moved between databases (decision 021). */
export const MOVING_MESSAGE = "This business's records are being moved to another database. Nothing was changed: try again shortly.";

/** A write refused by a shard fence (migration 0013): nothing was written, and the same write will succeed after the move. */
export function isBusinessMoving(error: unknown): boolean {
  return error instanceof Error && error.message.includes("business_moving");
}

export function nowIso(): string {
  return new Date().toISOString();
}

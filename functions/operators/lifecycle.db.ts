// A business's standing with the platform (decision 039): the directory's lifecycle in the core database, and the
// business row's status kept in step in the core and in the business's own database, whose joins (sign-in's list of
// businesses, the guard's membership read) let only active businesses in. Its test business (decision 045) stands
// where it stands.
import type { Db } from "../tenancy/tenant";
import { testBusinessOf } from "../tenancy/test-mode";
import type { Lifecycle } from "./businesses.db";

const statusOf = (lifecycle: Lifecycle) => (lifecycle === "suspended" ? "suspended" : "active");

/** The core database's side: the directory and the core's copy of the business row. */
export function coreLifecycleStatements(core: Db, businessId: string, lifecycle: Lifecycle, at: string): D1PreparedStatement[] {
  return [
    core
      .prepare("UPDATE business_shards SET lifecycle = ?, updated_at = ? WHERE business_id IN (?, ?)")
      .bind(lifecycle, at, businessId, testBusinessOf(businessId)),
    core.prepare("UPDATE businesses SET status = ? WHERE id IN (?, ?)").bind(statusOf(lifecycle), businessId, testBusinessOf(businessId)),
  ];
}

/** The business's own database: its row's status (a statement for the shard's batch). */
export function shardLifecycleStatement(shard: Db, businessId: string, lifecycle: Lifecycle): D1PreparedStatement {
  return shard.prepare("UPDATE businesses SET status = ? WHERE id IN (?, ?)").bind(statusOf(lifecycle), businessId, testBusinessOf(businessId));
}

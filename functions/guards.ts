import { data } from "@remix-run/cloudflare";
import type { Tenant } from "./data/tenant";
import { can, type Permission } from "./permissions";

/** Throws a 403 unless the tenant's role holds the permission. */
export function requirePermission(tenant: Pick<Tenant, "role">, permission: Permission): void {
  if (!can(tenant.role, permission)) {
    throw data({ message: "You do not have permission to do that." }, { status: 403 });
  }
}

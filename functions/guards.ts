// The one guard of every signed-in loader and action, and the one mapping from
// the data layer's errors to answers (decision 004).
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { authDeps, type AuthDeps } from "./auth/deps";
import { requireBusiness, type VerifiedSession } from "./auth/guards";
import { requireSameOrigin } from "./auth/origin";
import { CLOSED_MESSAGE, ForbiddenError, isBusinessMoving, MOVING_MESSAGE, NotFoundError, RuleError, type Tenant } from "./tenancy/tenant";
import { forbiddenPage, pageNotFound } from "./plumbing/http";
import { can, NO_PERMISSION, type Permission } from "./permissions";

/** Throws a 403 unless the tenant's role holds the permission. */
export function requirePermission(tenant: Pick<Tenant, "role">, permission: Permission): void {
  if (!can(tenant.role, permission)) forbidden(NO_PERMISSION);
}

export function forbidden(message: string): never {
  throw data({ message }, { status: 403 });
}

export interface TenantRequest {
  deps: AuthDeps;
  tenant: Tenant;
  session: VerifiedSession;
}

/**
 * A signed-in person acting for their chosen business, with the permission the
 * loader or action needs: a state-changing request must also come from the
 * portal's own pages. `null` only where the permission depends on what was
 * posted (the route checks it with `requirePermission` once it knows).
 */
export async function requireTenant(request: Request, context: AppLoadContext, permission: Permission | null): Promise<TenantRequest> {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const { session, tenant } = await requireBusiness(request, deps);
  // A closed business is read-only for its people (decision 039): every change they send is refused here, once.
  if (tenant.closed && request.method !== "GET" && request.method !== "HEAD") forbidden(CLOSED_MESSAGE);
  if (permission) requirePermission(tenant, permission);
  return { deps, tenant, session };
}

/**
 * A list's CSV: the person may read the list (`view`) and take it away as a file (`exporting`). A refusal is the
 * portal's 403 page, since the export's URL is opened in the browser.
 */
export async function requireExport(request: Request, context: AppLoadContext, view: Permission, exporting: Permission): Promise<TenantRequest> {
  const signedIn = await requireTenant(request, context, null);
  if (!can(signedIn.tenant.role, view) || !can(signedIn.tenant.role, exporting)) throw forbiddenPage(context, NO_PERMISSION);
  return signedIn;
}

/**
 * What a refused change tells the person, or the answer that replaces the page:
 * another business's or an unknown record is the SPEC 404, a role that may not
 * is 403, a rule of the business (stale requests and changed terminals too) is
 * a message by the form (400 through `refuse`); anything else is a fault.
 */
export function refusalMessage(request: Request, error: unknown): string {
  if (error instanceof NotFoundError) pageNotFound(request);
  if (error instanceof ForbiddenError) forbidden(error.message);
  if (error instanceof RuleError) return error.message;
  if (isBusinessMoving(error)) return MOVING_MESSAGE;
  throw error;
}

// The one guard of every /platform loader and action (decision 039). A verified session (signed in, whatever business
// it chose, if any) of an active platform staff member. Signed out goes to /login as every guarded page does; a
// business's people, and anyone else, get the 404 of a page that does not exist: /platform is not theirs to find. That is
// the unknown route's 404 ("Page not found: {path}", SPEC section 2), in the business's layout (app/root.tsx), word for
// word what /no-such-page answers, so nothing tells them the page is there.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { authDeps, type AuthDeps } from "../auth/deps";
import { checkSession, requireVerified, type VerifiedSession } from "../auth/guards";
import { requireSameOrigin } from "../auth/origin";
import { isValidSession } from "../auth/session";
import { forbidden } from "../guards";
import { routeNotFound } from "../plumbing/http";
import { platformCan, type PlatformPermission } from "./roles";
import { NO_PERMISSION } from "../permissions";
import { platformStaffMember, type PlatformStaffMember } from "./staff.db";

export interface PlatformRequest {
  deps: AuthDeps;
  session: VerifiedSession;
  staff: PlatformStaffMember;
}

/** The staff member behind a request, read once per request (the root loader and the page's both ask). */
const staffOf = new WeakMap<AuthDeps, { sub: string; value: Promise<PlatformStaffMember | null> }>();

function staffMember(deps: AuthDeps, userId: string): Promise<PlatformStaffMember | null> {
  const found = staffOf.get(deps);
  if (found && found.sub === userId) return found.value;
  const value = platformStaffMember(deps.db, userId);
  staffOf.set(deps, { sub: userId, value });
  return value;
}

export async function requirePlatform(request: Request, context: AppLoadContext, permission: PlatformPermission): Promise<PlatformRequest> {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const session = await requireVerified(request, deps);
  const staff = await staffMember(deps, session.sub);
  if (!staff) routeNotFound(request);
  if (!platformCan(staff.role, permission)) forbidden(NO_PERMISSION);
  return { deps, session, staff };
}

/** The signed-in person as platform staff, for the shell; null for anyone else or a session not (yet) valid. */
export async function signedInStaff(request: Request, deps: AuthDeps): Promise<PlatformStaffMember | null> {
  const check = await checkSession(request, deps);
  if (!check.ok || check.session.stage === "identified" || !isValidSession(check.session, deps.now())) return null;
  return staffMember(deps, check.session.sub);
}

/**
 * The action of a platform page that takes no form: a POST to it is refused as a GET would be (signed out to sign in,
 * anyone not on the staff 404), and only staff learn that the page takes no POST (405). Without it Remix answers 405
 * to anyone, telling a business's people the page exists.
 */
export async function readOnlyPlatformAction({ request, context }: { request: Request; context: AppLoadContext }): Promise<never> {
  await requirePlatform(request, context, "platform:view");
  throw new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
}

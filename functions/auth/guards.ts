// Loader and action guards. Each reads the session cookie, checks its signature,
// key, expiration and its `sessions` row (so a revoked session is refused at its
// very next request), and throws a redirect when the session does not do:
// to the stored return URL (or /login), with the cookie cleared. The return URL
// is the session's own while its cookie is still sent, else the return-URL
// cookie's (session.ts), which outlives it.
import { liveBusinessOf } from "../tenancy/test-mode";
import { redirect } from "@remix-run/cloudflare";
import { membershipRoleStatement } from "../team/memberships.db";
import { platformStaffMember } from "../operators/staff.db";
import { sessionRowStatement, touchSessionStatement, type SessionRow } from "./sign-in-sessions.db";
import type { Role } from "../permissions";
import type { Tenant } from "../tenancy/tenant";
import { iso, type AuthDeps } from "./deps";
import { timed } from "../plumbing/timing";
import {
  ACTIVITY_PRECISION_MS,
  clearSessionCookie,
  isValidSession,
  readReturnUrl,
  readSessionCookie,
  resumeCookie,
  safeReturnPath,
  type EndedReason,
  type ReturnUrl,
  type SessionData,
} from "./session";
import { rowAllows, rowEnded } from "./sign-in";

export type SessionCheck =
  /**
   * `shard`: the database of the cookie's business (the directory, read with the session row); `role`: the member's
   * role there, read from that database alongside (undefined when not read).
   */
  | { ok: true; session: SessionData; shard: string | null; role?: Role | null; closed?: boolean }
  /** `ended`: the idle or the 12-hour limit ended it (the sign-in page says so); `business`: the business it was in. */
  | { ok: false; returnUrl: ReturnUrl; clear: boolean; ended?: EndedReason; business?: string | null };

/**
 * Where each business was last found (per isolate). The membership is read from that database at the same time as
 * the session row from the core one: one round trip, not two. The directory in the session row has the last word:
 * a business that moved meanwhile is read again where it is now.
 */
const lastPlace = new Map<string, string>();

/**
 * The request's session as far as the cookie and the sessions row vouch for it
 * (any stage). Forged, altered, unknown-key, expired and revoked all fail.
 */
export function checkSession(request: Request, deps: AuthDeps): Promise<SessionCheck> {
  return once(checks, request, deps, () => timed(deps.db, "session", () => readSession(request, deps)));
}

const checks: Memo<SessionCheck> = new WeakMap();

type Memo<T> = WeakMap<object, { cookie: string | null; value: Promise<T> }>;

/**
 * The root loader and the page's loader run side by side on one request: read once. Remix hands each loader
 * its own copy of the request (it strips ?index and ?_routes), so on a GET the key is the request's AuthDeps
 * (one per load context, authDeps); a POST's action may change the session, so there each copy reads afresh.
 */
function once<T>(memo: Memo<T>, request: Request, deps: AuthDeps, make: () => Promise<T>): Promise<T> {
  const key = request.method === "GET" || request.method === "HEAD" ? deps : request;
  const cookie = request.headers.get("Cookie");
  const found = memo.get(key);
  if (found && found.cookie === cookie) return found.value;
  const value = make();
  memo.set(key, { cookie, value });
  return value;
}

async function readSession(request: Request, deps: AuthDeps): Promise<SessionCheck> {
  const now = deps.now();
  const read = await readSessionCookie(request, deps.config, now);
  // No session cookie (the browser dropped it when the session ran out), or one nothing in can be trusted.
  if (read.kind === "absent" || read.kind === "refused") {
    return { ok: false, returnUrl: (await readReturnUrl(request, deps.config, now)) ?? "/login", clear: read.kind === "refused" };
  }
  if (read.kind === "expired") {
    return { ok: false, returnUrl: read.returnUrl, clear: true, business: read.business, ...(read.verified ? { ended: "absolute" as const } : {}) };
  }
  // With a business chosen, its membership is read from its database while the session row is read (requireBusiness needs it next).
  const { sid, sub, activeBusiness } = read.session;
  const guess = activeBusiness ? lastPlace.get(activeBusiness) : undefined;
  // In test mode the live business's membership decides (decision 045): the test business's copy is only shown.
  const roleIn = (shard: string) =>
    membershipRoleStatement({ userId: sub, businessId: liveBusinessOf(activeBusiness!) }, deps.businessDb(activeBusiness!, shard).db)
      .first<{ role: Role }>()
      .then((found) => found?.role ?? null);
  const [row, guessed] = await Promise.all([
    sessionRowStatement(deps.db, sid, activeBusiness ?? null).first<SessionRow>(),
    guess ? roleIn(guess) : Promise.resolve(undefined),
  ]);
  if (!rowAllows(row, read.session, now)) {
    const ended = row && row.revoked_at === null && row.user_id === sub ? rowEnded(row, now) : null;
    return { ok: false, returnUrl: read.session.returnUrl, clear: true, business: activeBusiness, ...(ended ? { ended } : {}) };
  }
  if (row && isPersonActivity(request) && Date.parse(row.last_active_at ?? row.created_at) + ACTIVITY_PRECISION_MS <= now) {
    await touchSessionStatement(deps.db, sid, iso(now), iso(now - ACTIVITY_PRECISION_MS)).run();
  }
  const shard = row?.shard ?? null;
  // A suspended business (decision 039): its people are signed out at their next request, whatever else holds.
  if (activeBusiness && row?.lifecycle === "suspended") return { ok: false, returnUrl: read.session.returnUrl, clear: true, business: activeBusiness };
  if (!activeBusiness || !shard) return { ok: true, session: read.session, shard };
  lastPlace.set(activeBusiness, shard);
  // The business's own copy of the membership decides (the core copy only lists businesses at sign-in).
  const role = guess === shard && guessed !== undefined ? guessed : await roleIn(shard);
  return { ok: true, session: read.session, shard, role, closed: row?.lifecycle === "closed" };
}

/**
 * Requests that are not the person doing something and so do not keep a session alive (decision 026): the
 * browser's speculative prefetches, the analytics relay and the build check (both under /api/ or /builds/).
 */
export function isPersonActivity(request: Request): boolean {
  const purpose = request.headers.get("Sec-Purpose") ?? request.headers.get("Purpose") ?? "";
  if (purpose.toLowerCase().includes("prefetch")) return false;
  return !/^\/(?:api|builds)\//i.test(new URL(request.url).pathname);
}

function leave(request: Request, to: string, clear: boolean): never {
  throw redirect(to, clear ? { headers: { "Set-Cookie": clearSessionCookie(request) } } : undefined);
}

/**
 * A page behind sign-in refused the session: to the sign-in page, saying why when a limit ended it, and
 * remembering where the person was (the page of the form for a POST) so signing in again comes back there.
 */
async function signedOut(request: Request, deps: AuthDeps, check: Extract<SessionCheck, { ok: false }>): Promise<never> {
  const headers = new Headers();
  if (check.clear) headers.append("Set-Cookie", clearSessionCookie(request));
  // `/` is where signing in lands anyway.
  const place = placeOf(request);
  if (place && place !== "/" && isPersonActivity(request))
    headers.append("Set-Cookie", await resumeCookie(request, deps.config, place, check.business ?? null, deps.now()));
  throw redirect(check.ended ? `${check.returnUrl}?ended=${check.ended}` : check.returnUrl, { headers });
}

/** The page the person was on: a GET's own path and query; for a POST the form's page (a same-origin Referer), else its path. */
export function placeOf(request: Request): string | null {
  const url = new URL(request.url);
  if (request.method === "GET" || request.method === "HEAD") return safeReturnPath(`${url.pathname}${url.search}`);
  const referer = request.headers.get("Referer");
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.origin === url.origin) return safeReturnPath(`${from.pathname}${from.search}`);
    } catch {
      // An unreadable Referer: fall back to the path.
    }
  }
  return safeReturnPath(url.pathname);
}

/** A login in progress (the /authenticate pages): an authentic, unrevoked session at any stage. */
export async function requireIdentified(request: Request, deps: AuthDeps): Promise<SessionData> {
  const check = await checkSession(request, deps);
  if (!check.ok) leave(request, check.ended ? `${check.returnUrl}?ended=${check.ended}` : check.returnUrl, check.clear);
  return check.session;
}

/**
 * SPEC section 4: valid only with an otp token, an email and an unexpired token
 * expiration; otherwise the whole session is cleared and the user goes to the
 * stored return URL, or /login.
 */
export async function requireSession(request: Request, deps: AuthDeps): Promise<SessionData> {
  const check = await checkSession(request, deps);
  if (!check.ok) return signedOut(request, deps, check);
  if (!isValidSession(check.session, deps.now())) leave(request, check.session.returnUrl, true);
  return check.session;
}

export type VerifiedSession = SessionData & { otpToken: string; stage: "verified" | "business_chosen" };

/** A valid session whose one-time code was verified (/select-business). */
export async function requireVerified(request: Request, deps: AuthDeps): Promise<VerifiedSession> {
  const session = await requireSession(request, deps);
  if (session.stage === "identified" || !session.otpToken) leave(request, session.returnUrl, true);
  return session as VerifiedSession;
}

/**
 * A verified session with a business chosen, whose user is still an active member
 * of it: the tenant every data function takes. Without a business (or after losing
 * access to it) the user goes to /select-business, still signed in.
 */
export function requireBusiness(request: Request, deps: AuthDeps): Promise<{ session: VerifiedSession; tenant: Tenant }> {
  return once(businesses, request, deps, () => timed(deps.db, "session", () => enterBusiness(request, deps)));
}

const businesses: Memo<{ session: VerifiedSession; tenant: Tenant }> = new WeakMap();

async function enterBusiness(request: Request, deps: AuthDeps): Promise<{ session: VerifiedSession; tenant: Tenant }> {
  const session = await requireVerified(request, deps);
  const check = await checkSession(request, deps);
  const shard = check.ok ? check.shard : null;
  if (session.stage !== "business_chosen" || !session.activeBusiness || !shard) leave(request, "/select-business", false);
  const role = check.ok ? check.role : null;
  if (!role) leave(request, "/select-business", false);
  const closed = check.ok && check.closed === true;
  return { session, tenant: { ...deps.businessDb(session.activeBusiness, shard), userId: session.sub, role, ...(closed ? { closed } : {}) } };
}

/**
 * The sign-in pages (SPEC section 2): reachable without a session, but a person
 * who is fully signed in (a business chosen, the session valid) goes to `/`.
 */
export async function redirectSignedIn(request: Request, deps: AuthDeps): Promise<void> {
  const check = await checkSession(request, deps);
  if (!check.ok || !isValidSession(check.session, deps.now())) return;
  if (check.session.stage === "business_chosen") throw redirect("/");
  // Platform staff are fully signed in without a business (decision 039): back to the platform, not a second sign-in.
  if (check.session.stage === "verified" && (await platformStaffMember(deps.db, check.session.sub))) throw redirect("/platform");
}

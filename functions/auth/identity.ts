// Who is signed in and where, for the shell (top bar, business switcher,
// analytics) and the settings page: SPEC section 3's user details and business
// profile. Read from D1 on each document request rather than copied into the
// cookie, so a role change or a renamed business shows at the next page.
import { waitingCountStatement } from "../approvals/change-requests.db";
import { memberBusinessesStatement, memberProfileStatement, type MemberBusiness, type MemberProfileRow } from "../team/memberships.db";
import { unreadCountStatement } from "../notifications/inbox.db";
import { can, type Role } from "../permissions";
import type { AuthDeps } from "./deps";
import { checkSession } from "./guards";
import { isValidSession } from "./session";

export interface UserDetails {
  employeeName: string;
  employeeEmail: string;
  employeeGender: "female" | "male" | "unspecified";
  /** The phone the one-time code went to (SPEC: msisdn). */
  msisdn: string | null;
  /** In the active business (SPEC: the business profile's AccessLevel). */
  role: Role;
}

export interface BusinessProfile {
  businessId: string;
  businessName: string;
  businessLogo: string | null;
  contactNumber: string;
  contactEmail: string;
  town: string;
  region: string;
  sector: string;
  businessIdentifier: string;
  accessLevel: Role;
}

export interface SignedInIdentity {
  user: UserDetails;
  business: BusinessProfile;
  /** Every business the person may switch to (the active one included). */
  businesses: MemberBusiness[];
  /** Requests waiting for this person's decision, for the navigation and the dashboard; null when their role decides none. */
  approvalsWaiting: number | null;
  /** The bell's count: this person's notices not yet read nor settled (functions/notifications/inbox.db.ts). */
  unreadNotices: number;
}

/**
 * The session's email at any stage, or null without a session: before a business is chosen (the phone, the code, the
 * business choice) nobody is fully signed in, yet the email is known, and SPEC section 3's events carry it.
 */
export async function sessionEmail(request: Request, deps: AuthDeps): Promise<string | null> {
  const check = await checkSession(request, deps);
  return check.ok && check.session.email ? check.session.email : null;
}

/** The signed-in person in their active business, or null when not fully signed in. */
export async function signedInIdentity(request: Request, deps: AuthDeps): Promise<SignedInIdentity | null> {
  const check = await checkSession(request, deps);
  if (!check.ok) return null;
  const { session } = check;
  if (session.stage !== "business_chosen" || !session.activeBusiness || !check.shard || !isValidSession(session, deps.now())) return null;
  // The person and the business from the business's database; the businesses they may switch to from the core one.
  const business = deps.businessDb(session.activeBusiness, check.shard);
  const [[profile, pending, unread], choices] = await Promise.all([
    business.db.batch([
      memberProfileStatement({ userId: session.sub, businessId: business.businessId }, business.db),
      waitingCountStatement(business, session.sub),
      unreadCountStatement(business, session.sub),
    ]),
    memberBusinessesStatement(deps.db, session.sub).all(),
  ]);
  const row = (profile?.results as MemberProfileRow[] | undefined)?.[0];
  if (!row) return null;
  return {
    user: { employeeName: row.name, employeeEmail: session.email, employeeGender: row.gender, msisdn: session.selectedPhoneNumber, role: row.role },
    business: {
      businessId: session.activeBusiness,
      businessName: row.business_name,
      businessLogo: row.logo_url,
      contactNumber: row.contact_number,
      contactEmail: row.contact_email,
      town: row.town,
      region: row.region,
      sector: row.sector,
      businessIdentifier: row.identifier,
      accessLevel: row.role,
    },
    businesses: choices.results as unknown as MemberBusiness[],
    approvalsWaiting: can(row.role, "decide:approval") ? ((pending?.results[0] as { n: number } | undefined)?.n ?? 0) : null,
    unreadNotices: (unread?.results[0] as { n: number } | undefined)?.n ?? 0,
  };
}

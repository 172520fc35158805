// Who is signed in and where, for the shell (top bar, business switcher,
// analytics) and the settings page: SPEC section 3's user details and business
// profile. Read from D1 on each document request rather than copied into the
// cookie, so a role change or a renamed business shows at the next page.
import { can, type Role } from "../permissions";
import { memberBusinessesStatement, type MemberBusiness } from "./businesses";
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
  /** Requests waiting for a decision, for the navigation; null when the role cannot see approvals. */
  pendingApprovals: number | null;
}

interface ProfileRow {
  name: string;
  gender: UserDetails["employeeGender"];
  role: Role;
  business_name: string;
  logo_url: string | null;
  contact_number: string;
  contact_email: string;
  town: string;
  region: string;
  sector: string;
  identifier: string;
}

/** The signed-in person in their active business, or null when not fully signed in. */
export async function signedInIdentity(request: Request, deps: AuthDeps): Promise<SignedInIdentity | null> {
  const check = await checkSession(request, deps);
  if (!check.ok) return null;
  const { session } = check;
  if (session.stage !== "business_chosen" || !session.activeBusiness || !isValidSession(session, deps.now())) return null;
  const [profile, choices, pending] = await deps.db.batch([
    deps.db
      .prepare(
        `SELECT u.name, u.gender, m.role, b.name AS business_name, b.logo_url, b.contact_number, b.contact_email, b.town, b.region, b.sector, b.identifier
         FROM users u JOIN memberships m ON m.user_id = u.id JOIN businesses b ON b.id = m.business_id
         WHERE u.id = ? AND m.business_id = ? AND m.status = 'active' AND b.status = 'active' AND u.status = 'active'`,
      )
      .bind(session.sub, session.activeBusiness),
    memberBusinessesStatement(deps.db, session.sub),
    deps.db.prepare("SELECT COUNT(*) AS n FROM approval_requests WHERE business_id = ? AND status = 'pending'").bind(session.activeBusiness),
  ]);
  const row = (profile?.results as ProfileRow[] | undefined)?.[0];
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
    businesses: (choices?.results ?? []) as MemberBusiness[],
    pendingApprovals: can(row.role, "view:approval") ? ((pending?.results[0] as { n: number } | undefined)?.n ?? 0) : null,
  };
}

// A signed-in person for tests of the screens behind sign-in: a `sessions` row
// and a cookie made by the portal's own session module with the portal's
// (development) key, exactly what the sign-in steps would leave behind. The
// steps themselves are tested in sign-in-*.spec.ts and the auth-* tests; going
// through them for every test would also run into the hourly code limits.
import { randomUUID } from "node:crypto";
import { SESSION_TTL_MS, returnUrlCookie, sessionCookie, type SessionData } from "#server/auth/session";
import { configOf } from "#server/env";

export interface MintedSession {
  sid: string;
  userId: string;
  /** The cookie's name and value, for a Cookie header or a browser context. */
  name: string;
  value: string;
  cookieHeader: string;
  /**
   * What a browser holds after signing in: the session cookie and the return-URL
   * cookie written when the sign-in began (where an ended session sends the person).
   */
  browserCookies: { name: string; value: string; url: string; httpOnly: true; sameSite: "Lax" }[];
}

/** When the minted session began and when its person last did something (epoch ms); both default to now. */
export interface MintTimes {
  createdAt?: number;
  /** null: nothing since createdAt. */
  lastActiveAt?: number | null;
  /** The token's expiration; by default 12 hours after createdAt, as the sign-in steps set it. */
  tokenExpiration?: number;
}

/** Signs `email` in to `businessId` (or only as far as the business choice when null). */
export async function mintSession(db: D1Database, portalUrl: string, email: string, businessId: string | null, times: MintTimes = {}): Promise<MintedSession> {
  const user = await db.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
  if (!user) throw new Error(`No user ${email} in the seed`);
  const { results } = await db.prepare("SELECT msisdn FROM user_phones WHERE user_id = ? ORDER BY created_at, msisdn").bind(user.id).all<{ msisdn: string }>();
  const now = Date.now();
  const createdAt = times.createdAt ?? now;
  const lastActiveAt = times.lastActiveAt === undefined ? now : times.lastActiveAt;
  const session: SessionData = {
    sid: randomUUID(),
    sub: user.id,
    email,
    authenticationChannel: "userUniqueEmail",
    stage: businessId ? "business_chosen" : "verified",
    tokenExpiration: times.tokenExpiration ?? createdAt + SESSION_TTL_MS,
    returnUrl: "/login-option",
    otpToken: `otp_${randomUUID()}`,
    selectedPhoneNumber: results[0]?.msisdn ?? null,
    linkedNumbers: results.map((row) => row.msisdn),
    activeBusiness: businessId,
  };
  await db
    .prepare(
      `INSERT INTO sessions (id, user_id, channel, stage, business_id, ip, user_agent, created_at, expires_at, last_active_at)
       VALUES (?, ?, 'userUniqueEmail', ?, ?, NULL, 'test', ?, ?, ?)`,
    )
    .bind(
      session.sid,
      user.id,
      session.stage,
      businessId,
      new Date(createdAt).toISOString(),
      new Date(session.tokenExpiration).toISOString(),
      lastActiveAt === null ? null : new Date(lastActiveAt).toISOString(),
    )
    .run();
  const config = configOf({ ENVIRONMENT: "development" }).auth;
  const setCookie = await sessionCookie(new Request(portalUrl), config, session, now);
  const nameValue = (header: string) => {
    const [pair] = header.split(";");
    const [name, ...value] = pair!.split("=");
    return { pair: pair!, name: name!, value: value.join("=") };
  };
  const cookie = nameValue(setCookie);
  const returnUrl = nameValue(await returnUrlCookie(new Request(portalUrl), config, session.returnUrl, now));
  const browserCookies = [cookie, returnUrl].map(({ name, value }) => ({ name, value, url: portalUrl, httpOnly: true as const, sameSite: "Lax" as const }));
  return { sid: session.sid, userId: user.id, name: cookie.name, value: cookie.value, cookieHeader: cookie.pair, browserCookies };
}

/** A Cookie header for Kofi Boateng (Administrator) in Kumasi Fresh Foods, unless told otherwise. */
export async function signedInCookie(
  portal: { db(): Promise<D1Database>; url: string },
  email = "kofi.boateng@example.com",
  businessId: string | null = "bus_kumasi_fresh_foods",
): Promise<{ Cookie: string }> {
  const session = await mintSession(await portal.db(), portal.url, email, businessId);
  return { Cookie: session.cookieHeader };
}

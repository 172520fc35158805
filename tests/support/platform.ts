// Platform staff for tests (decision 039): a person made (or found by email) with a linked phone, and their place on
// the platform's staff. What `npm run platform:admin` does for an administrator, for either role and without the audit.
import { randomUUID } from "node:crypto";
import type { PlatformRole } from "#server/operators/roles";

export interface StaffMember {
  email: string;
  name: string;
  phone: string;
  role: PlatformRole;
}

export const EFUA: StaffMember = { email: "efua.mensah@platform.example.com", name: "Efua Mensah", phone: "233245100001", role: "Platform Administrator" };
export const KWAME: StaffMember = { email: "kwame.ofori@platform.example.com", name: "Kwame Ofori", phone: "233245100002", role: "Platform Administrator" };
export const ADJOA: StaffMember = { email: "adjoa.sarpong@platform.example.com", name: "Adjoa Sarpong", phone: "233245100003", role: "Platform Support" };

/** Makes (or finds by email) the person and puts them on the staff in `role`; their user id. */
export async function makeStaff(core: D1Database, member: StaffMember): Promise<string> {
  const at = new Date().toISOString();
  const found = await core.prepare("SELECT id FROM users WHERE email = ?").bind(member.email).first<{ id: string }>();
  const userId = found?.id ?? `usr_${randomUUID()}`;
  await core.batch([
    core
      .prepare("INSERT INTO users (id, email, name, gender, status, created_at) VALUES (?, ?, ?, 'unspecified', 'active', ?) ON CONFLICT (email) DO NOTHING")
      .bind(userId, member.email, member.name, at),
    core.prepare("INSERT INTO user_phones (user_id, msisdn, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").bind(userId, member.phone, at),
    core
      .prepare(
        `INSERT INTO platform_staff (user_id, role, status, created_at, updated_at) VALUES (?, ?, 'active', ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, status = 'active', updated_at = excluded.updated_at`,
      )
      .bind(userId, member.role, at, at),
  ]);
  return userId;
}

type Cookie = { Cookie: string };

/** A form post from the portal's own pages, as a signed-in browser sends it. */
export function postForm(
  portal: { fetch: (path: string, init?: RequestInit) => Promise<Response>; url: string },
  path: string,
  form: Record<string, string>,
  cookie: Cookie,
) {
  return portal.fetch(path, {
    method: "POST",
    headers: { Origin: portal.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

/** Asks (as `maker`) to suspend, reactivate or close a business; the request's id. */
export async function askLifecycle(
  portal: Parameters<typeof postForm>[0],
  businessId: string,
  intent: "suspend" | "reactivate" | "close",
  reason: string,
  maker: Cookie,
): Promise<string> {
  const answer = await postForm(portal, `/platform/businesses/${businessId}/lifecycle`, { intent, reason }, maker);
  const id = /^\/platform\/requests\/(preq_[\w-]+)$/.exec(answer.headers.get("Location") ?? "")?.[1];
  if (answer.status !== 302 || !id) throw new Error(`Asking to ${intent} answered ${answer.status}: ${await answer.text()}`);
  return id;
}

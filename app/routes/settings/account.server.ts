// What the Profile and Business tabs of /settings read: the signed-in person
// and the business they work in.
import { redirect } from "@remix-run/cloudflare";
import type { AuthDeps } from "#server/auth/deps";
import { signedInIdentity } from "#server/auth/identity";
import { maskPhone } from "#app/lib/forms/phone";

async function requireIdentity(request: Request, deps: AuthDeps) {
  const identity = await signedInIdentity(request, deps);
  if (!identity) throw redirect("/select-business");
  return identity;
}

export async function loadProfile(request: Request, deps: AuthDeps) {
  const { user } = await requireIdentity(request, deps);
  return { ...user, msisdn: user.msisdn ? maskPhone(user.msisdn) : null };
}

export async function loadBusiness(request: Request, deps: AuthDeps) {
  return (await requireIdentity(request, deps)).business;
}

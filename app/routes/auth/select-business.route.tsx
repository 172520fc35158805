// Choose which business to work in (SPEC: verifiedBusinesses).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { platformPaths } from "#app/lib/platform-paths";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as v from "valibot";
import { listMemberBusinesses, suspendedMemberBusinesses } from "#server/team/memberships.db";
import { authDeps } from "#server/auth/deps";
import { requireVerified } from "#server/auth/guards";
import { requireSameOrigin } from "#server/auth/origin";
import { clearResumeCookie, readResume } from "#server/auth/session";
import { chooseBusiness } from "#server/auth/sign-in";
import { setCookieHeaders } from "#server/plumbing/cookies";
import { refuse } from "#server/plumbing/http";
import { platformStaffMember } from "#server/operators/staff.db";
import type { PageHandle } from "#app/lib/shell/page";
import { useSending } from "#app/components/forms/form";
import { readForm } from "#server/forms";

export const meta: MetaFunction = () => [{ title: "Select Business" }];
export const handle: PageHandle = { layout: "standard" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  const session = await requireVerified(request, deps);
  const [businesses, suspended, staff] = await Promise.all([
    listMemberBusinesses(deps.db, session.sub),
    suspendedMemberBusinesses(deps.db, session.sub),
    platformStaffMember(deps.db, session.sub),
  ]);
  // Platform staff with no business of their own have one place to go (decision 039).
  if (staff && businesses.length === 0) throw redirect(platformPaths.platform());
  return { businesses, suspended, platformRole: staff?.role ?? null };
}

const BusinessForm = v.object({ businessId: v.pipe(v.string("Choose a business."), v.minLength(1, "Choose a business."), v.maxLength(100)) });

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const session = await requireVerified(request, deps);
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const parsed = v.safeParse(BusinessForm, read.fields);
  if (!parsed.success) return refuse({ business: parsed.issues[0].message });
  const chosen = await chooseBusiness(request, deps, session, parsed.output.businessId);
  if (!chosen.ok) return refuse({ business: chosen.message });
  // Signed out by a limit and signed in again to the same business: back to the page they were on (decision 026).
  const resume = await readResume(request, deps.config, deps.now());
  const to = resume && (resume.business === null || resume.business === parsed.output.businessId) ? resume.path : "/";
  return redirect(to, { headers: setCookieHeaders(resume ? [chosen.setCookie, clearResumeCookie(request)] : [chosen.setCookie]) });
}

export default function SelectBusiness() {
  const { businesses, suspended, platformRole } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.errors.business;
  const busy = useSending();
  return (
    <div className="sign-in">
      <h1>Choose a business</h1>
      {suspended.length > 0 ? (
        <p className="notice notice--warning notice__message" role="status" data-testid="suspended-businesses">
          {suspended.join(", ")} {suspended.length === 1 ? "is" : "are"} suspended by the platform: nobody can sign in to{" "}
          {suspended.length === 1 ? "it" : "them"} until {suspended.length === 1 ? "it is" : "they are"} reactivated.
        </p>
      ) : null}
      {platformRole ? (
        <ul className="business-list">
          <li>
            <Link to={platformPaths.platform()} className="business-choice">
              <strong>Platform operations</strong>
              <span>{platformRole}</span>
            </Link>
          </li>
        </ul>
      ) : null}
      {businesses.length === 0 ? (
        <p>You are not an active employee of any business. Ask an administrator to invite you.</p>
      ) : (
        <Form method="post" className="form">
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <ul className="business-list">
            {businesses.map((business) => (
              <li key={business.id}>
                <button type="submit" name="businessId" value={business.id} className="business-choice" disabled={busy}>
                  <strong>{business.name}</strong>
                  <span>
                    {business.role} · {business.town}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </Form>
      )}
    </div>
  );
}

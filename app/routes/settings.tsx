// /settings: the person's profile, the business profile (SPEC section 3) and
// Security (the sessions that stand, signing one out, signing out everywhere).
// The Team tab (employees through maker-checker) joins it with the operations screens.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import * as v from "valibot";
import { authDeps } from "../../functions/auth/deps";
import { requireBusiness } from "../../functions/auth/guards";
import { signedInIdentity } from "../../functions/auth/identity";
import { requireSameOrigin } from "../../functions/auth/origin";
import { maskPhone } from "../../functions/auth/otp";
import { listActiveSessions, revokeOwnSession, signOutEverywhere } from "../../functions/auth/sign-in";
import { flashCookie, redirectWithFlash } from "../../functions/flash";
import { browserOf } from "../lib/analytics";
import { formatDate } from "../lib/format";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const deps = authDeps(request, context);
  const { session } = await requireBusiness(request, deps);
  const [identity, sessions] = await Promise.all([signedInIdentity(request, deps), listActiveSessions(deps.db, session.sub, deps.now())]);
  if (!identity) throw redirect("/select-business");
  return {
    user: { ...identity.user, msisdn: identity.user.msisdn ? maskPhone(identity.user.msisdn) : null },
    business: identity.business,
    sessions: sessions.map((row) => ({
      id: row.id,
      current: row.id === session.sid,
      browser: row.userAgent ? browserOf(row.userAgent) : "Unknown browser",
      ip: row.ip,
      channel: row.channel,
      businessName: row.businessName,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    })),
  };
}

const SecurityForm = v.variant("intent", [
  v.object({ intent: v.literal("sign-out-everywhere") }),
  v.object({ intent: v.literal("sign-out-session"), sessionId: v.pipe(v.string(), v.uuid("Choose a session to sign out.")) }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const deps = authDeps(request, context);
  const { session } = await requireBusiness(request, deps);
  const parsed = v.safeParse(SecurityForm, Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "That request was not understood. Reload the page and try again." }, { status: 400 });
  if (parsed.output.intent === "sign-out-everywhere") {
    const { setCookie } = await signOutEverywhere(request, deps, session);
    const headers = new Headers({ "Set-Cookie": setCookie });
    headers.append("Set-Cookie", await flashCookie(request, context.config, { kind: "success", message: "You are signed out on every device, this one included." }));
    throw redirect(session.returnUrl, { headers });
  }
  if (parsed.output.sessionId === session.sid) return data({ error: "To sign out of this session, use Sign out in the account menu." }, { status: 400 });
  const revoked = await revokeOwnSession(deps, session, parsed.output.sessionId);
  if (!revoked) return data({ error: "That session has already ended." }, { status: 404 });
  throw await redirectWithFlash(request, context.config, "/settings", { kind: "success", message: "That session is signed out." });
}

const CHANNEL_LABEL = { microsoft: "Work account", google: "Google", userUniqueEmail: "Email" } as const;

function Details({ rows }: { rows: [string, string | null][] }) {
  return (
    <dl className="details">
      {rows.map(([term, value]) => (
        <div key={term} className="details__row">
          <dt>{term}</dt>
          <dd>{value || "N/A"}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function Settings() {
  const { user, business, sessions } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.error;
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const others = sessions.filter((row) => !row.current).length;
  return (
    <div className="page">
      <header className="page__header">
        <h1>Settings</h1>
        <p className="page__lead">Your profile, your business and how you are signed in.</p>
      </header>

      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Your profile</h2>
        <Details
          rows={[
            ["Name", user.employeeName],
            ["Email", user.employeeEmail],
            ["Gender", user.employeeGender === "unspecified" ? "Not given" : user.employeeGender === "female" ? "Female" : "Male"],
            ["Phone used to sign in", user.msisdn],
            ["Role", user.role],
          ]}
        />
      </section>

      <section className="card" aria-labelledby="business-title">
        <h2 id="business-title">Business profile</h2>
        <Details
          rows={[
            ["Business name", business.businessName],
            ["Business identifier", business.businessIdentifier],
            ["Contact number", business.contactNumber],
            ["Contact email", business.contactEmail],
            ["Town", business.town],
            ["Region", business.region],
            ["Sector", business.sector],
            ["Your access level", business.accessLevel],
          ]}
        />
      </section>

      <section className="card" aria-labelledby="security-title">
        <h2 id="security-title">Security</h2>
        {error ? (
          <p className="notice notice--danger notice__message" role="alert">
            {error}
          </p>
        ) : null}
        <h3>Signed-in sessions</h3>
        <ul className="session-list">
          {sessions.map((row) => (
            <li key={row.id} className="session" data-testid="session">
              <div>
                <strong>
                  {row.browser}
                  {row.current ? <span className="badge">This session</span> : null}
                </strong>
                <span className="menu__hint">
                  {CHANNEL_LABEL[row.channel]} · {row.businessName ?? "Signing in"} · {row.ip ?? "IP not recorded"}
                </span>
                <span className="menu__hint">
                  Since {formatDate(row.createdAt)} · until {formatDate(row.expiresAt)}
                </span>
              </div>
              {row.current ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="sign-out-session" />
                  <input type="hidden" name="sessionId" value={row.id} />
                  <button type="submit" className="button" disabled={navigation.state !== "idle"}>
                    Sign out
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        <h3>Sign out everywhere</h3>
        <p>
          Ends every session of yours on every device, this one included{others > 0 ? ` (${others} other ${others === 1 ? "session" : "sessions"})` : ""}. Use it if a
          device was lost or someone else may have used your account.
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="sign-out-everywhere" />
          <button type="submit" className="button button--danger" disabled={navigation.state !== "idle"}>
            {submitting === "sign-out-everywhere" ? "Signing out…" : "Sign out everywhere"}
          </button>
        </Form>
      </section>
    </div>
  );
}

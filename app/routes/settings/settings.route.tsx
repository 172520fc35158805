// /settings, in tabs (`?tab=`): the person's profile and the business profile
// (SPEC section 3), the Team (employees; every change through maker-checker)
// Security (the sessions that stand, signing one out, signing out
// everywhere) and, for administrators, Developers (Partner API keys and
// payment conflicts) and, for administrators and Finance, Audit (the business's audit log). The tabs are links, so the page works before the script loads,
// and the loader reads only what the chosen tab shows. Each tab lives in
// settings/<tab>.tsx, with what it reads and handles in settings/*.server.ts.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { refusalMessage, requirePermission, requireTenant } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { can } from "#server/permissions";
import { paths, SETTINGS_TABS, type SettingsTab } from "#app/lib/paths";
import { loadBusiness, loadProfile } from "./account.server";
import { loadAudit } from "./audit.server";
import { BusinessTab } from "./business";
import { loadPolicy, policyAction } from "./business.server";
import { OnDemand } from "#app/components/code-on-demand";
import { checkOf, FreshCheck } from "#app/components/forms/fresh-check";
import { DEVELOPER_INTENTS, developersAction, loadDevelopers } from "#app/routes/settings/developers/developers.server";
import { endpointsAction, isEndpointIntent, loadEndpoints } from "#app/routes/settings/developers/developers-endpoints.server";
import { ProfileTab } from "./profile";
import { loadPasskeys, loadSessions, securityAction } from "./security.server";
import { loadPhones, PHONE_INTENTS, phonesAction } from "./security-phones.server";
import { AUTHENTICATOR_INTENTS, authenticatorAction, loadAuthenticator } from "./security-authenticator.server";
import { POLICY_INTENT, TAB_LABEL } from "./tabs";
import { isLazyTab, loadTabCode, TAB_CODE, tabCode, tabOfSearch } from "./tab-code";
import { loadTeam, TEAM_INTENTS, teamAction, type InviteValues } from "./team.server";
import { readForm } from "#server/forms";
import { EMAIL_CHOICES_INTENT, emailChoicesAction, loadEmailChoices } from "#app/routes/notifications/preferences.server";

export const meta: MetaFunction = () => [{ title: "Settings" }];

/** The tab in the URL; none is the profile, an unknown one is not a page here. */
function readTab(request: Request): SettingsTab {
  const value = new URL(request.url).searchParams.get("tab");
  if (value === null || value === "") return "profile";
  return (SETTINGS_TABS as readonly string[]).includes(value) ? (value as SettingsTab) : pageNotFound(request);
}

// A new API key's one showing is never cached (the page without JavaScript carries it too; Remix passes on only cookies by itself).
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const cacheControl = actionHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : new Headers();
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  // Each tab checks its own permission.
  const { deps, session, tenant } = await requireTenant(request, context, null);
  const tab = readTab(request);
  // The tab's code before the page renders, so the server renders the whole tab (./tab-code).
  await loadTabCode(tab);
  const canSeeTeam = can(tenant.role, "view:employee");
  const canSeeDevelopers = can(tenant.role, "manage:developer");
  const canSeeAudit = can(tenant.role, "view:audit");
  switch (tab) {
    case "profile":
      return {
        tab,
        canSeeTeam,
        canSeeDevelopers,
        canSeeAudit,
        user: await loadProfile(request, deps),
        emailChoices: await loadEmailChoices(tenant),
      } as const;
    case "business": {
      const [business, policy] = await Promise.all([loadBusiness(request, deps), loadPolicy(tenant)]);
      return { tab, canSeeTeam, canSeeDevelopers, canSeeAudit, business, policy } as const;
    }
    case "security":
      return {
        tab,
        canSeeTeam,
        canSeeDevelopers,
        canSeeAudit,
        sessions: await loadSessions(deps, session),
        passkeys: await loadPasskeys(deps, session),
        phones: await loadPhones(deps, session),
        authenticator: await loadAuthenticator(deps, session),
      } as const;
    case "team":
      requirePermission(tenant, "view:employee");
      return { tab, canSeeTeam, canSeeDevelopers, canSeeAudit, team: await loadTeam(request, deps, tenant) } as const;
    case "audit":
      requirePermission(tenant, "view:audit");
      return { tab, canSeeTeam, canSeeDevelopers, canSeeAudit, audit: await loadAudit(request, deps, tenant) } as const;
    case "developers":
      requirePermission(tenant, "manage:developer");
      return {
        tab,
        canSeeTeam,
        canSeeDevelopers,
        canSeeAudit,
        developers: await loadDevelopers(request, deps, tenant),
        endpoints: await loadEndpoints(deps, tenant),
      } as const;
  }
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/forms/submission.ts).
export { clientAction, shouldRevalidate } from "#app/components/forms/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  // The permission depends on what was posted: checked below.
  const signedIn = await requireTenant(request, context, null);
  const { deps, session, tenant } = signedIn;
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  // Whatever was posted to the Developers tab, and the key intents wherever they are posted, need the tab's permission.
  if ((DEVELOPER_INTENTS as readonly unknown[]).includes(form.intent) || isEndpointIntent(form.intent) || readTab(request) === "developers") {
    requirePermission(tenant, "manage:developer");
    if (isEndpointIntent(form.intent)) return endpointsAction(request, context, signedIn, form);
    return developersAction(request, context, signedIn, form);
  }
  if (form.intent === EMAIL_CHOICES_INTENT) return emailChoicesAction(request, context, signedIn, form);
  if (form.intent === POLICY_INTENT) return policyAction(request, context, signedIn, form);
  if ((PHONE_INTENTS as readonly unknown[]).includes(form.intent)) return phonesAction(request, context, signedIn, form);
  if ((AUTHENTICATOR_INTENTS as readonly unknown[]).includes(form.intent)) return authenticatorAction(request, context, signedIn, form);
  if ((TEAM_INTENTS as readonly unknown[]).includes(form.intent)) {
    requirePermission(tenant, "request:employee");
    try {
      return await teamAction(request, context, deps, tenant, form);
    } catch (error) {
      // An employee who left the business between our read and the engine's is a 404.
      return refuse({ form: refusalMessage(request, error) });
    }
  }
  return securityAction(request, context, deps, session, form);
}

const LEAD: Record<SettingsTab, string> = {
  profile: "Who you are in the portal.",
  business: "The business you are working in.",
  team: "The people who work in the portal for this business, and their roles.",
  security: "Your phone numbers, passkeys and authenticator app, and where you are signed in.",
  developers: "How this business's own systems reach the portal: Partner API keys, and what the API could not take as sent.",
  audit: "Everything done in this business, newest first: who, when, from where, and what changed.",
};

// A navigation in the page (another tab, say) finishes once the tab's code is here as well as its data, so the page
// never shows the previous tab, still dimmed as busy, while the new tab's code comes (no clientLoader.hydrate: the
// first load uses the server's data).
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const [data] = await Promise.all([serverLoader<typeof loader>(), loadTabCode(tabOfSearch(new URL(request.url).search) ?? "profile").catch(() => undefined)]);
  return data;
}

const TeamTab = (props: Parameters<ReturnType<typeof tabCode<"team">>>[0]) => tabCode("team")(props);
const SecurityTab = (props: Parameters<ReturnType<typeof tabCode<"security">>>[0]) => tabCode("security")(props);
const AuditTab = (props: Parameters<ReturnType<typeof tabCode<"audit">>>[0]) => tabCode("audit")(props);
const DevelopersTab = (props: Parameters<ReturnType<typeof tabCode<"developers">>>[0]) => tabCode("developers")(props);

export default function Settings() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Refusals of the invitation and key-name forms carry what was typed; the others speak to the whole tab.
  // (The Developers tab reads its own answers, a revealed secret among them.)
  const refusal = actionData && "errors" in actionData ? actionData : null;
  const invite = refusal?.values && loaded.tab === "team" ? { errors: refusal.errors, values: refusal.values as InviteValues } : null;
  const error = refusal && !refusal.values ? (refusal.errors.form ?? null) : null;
  const visible: Partial<Record<SettingsTab, boolean>> = { team: loaded.canSeeTeam, developers: loaded.canSeeDevelopers, audit: loaded.canSeeAudit };
  const tabs = SETTINGS_TABS.filter((tab) => visible[tab] ?? true);
  return (
    <div className="page">
      <FreshCheck check={checkOf(actionData)} />
      <header className="page__header">
        <h1>Settings</h1>
        <p className="page__lead">{LEAD[loaded.tab]}</p>
      </header>
      <nav className="tabs" aria-label="Settings sections">
        <ul className="tabs__list">
          {tabs.map((tab) => (
            <li key={tab}>
              <Link to={paths.settings(tab)} className="tabs__tab" aria-current={tab === loaded.tab ? "page" : undefined}>
                {TAB_LABEL[tab]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <OnDemand code={isLazyTab(loaded.tab) ? TAB_CODE[loaded.tab] : null} fallback={<p aria-live="polite">Loading…</p>}>
        {loaded.tab === "profile" ? <ProfileTab user={loaded.user} emailChoices={loaded.emailChoices} /> : null}
        {loaded.tab === "business" ? <BusinessTab business={loaded.business} policy={loaded.policy} error={error} /> : null}
        {loaded.tab === "security" ? (
          <SecurityTab
            sessions={loaded.sessions}
            passkeys={loaded.passkeys}
            phones={loaded.phones}
            authenticator={loaded.authenticator}
            answer={actionData}
            error={error}
          />
        ) : null}
        {loaded.tab === "team" ? <TeamTab team={loaded.team} error={error} invite={invite} /> : null}
        {loaded.tab === "audit" ? <AuditTab audit={loaded.audit} /> : null}
        {loaded.tab === "developers" ? <DevelopersTab developers={loaded.developers} endpoints={loaded.endpoints} actionData={actionData ?? null} /> : null}
      </OnDemand>
    </div>
  );
}

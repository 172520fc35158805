// /settings, in tabs (`?tab=`): the person's profile and the business profile
// (SPEC section 3), the Team (employees; every change through maker-checker)
// Security (the sessions that stand, signing one out, signing out
// everywhere) and, for administrators, Developers (Partner API keys and
// payment conflicts). The tabs are links, so the page works before the script loads,
// and the loader reads only what the chosen tab shows. Each tab lives in
// settings/<tab>.tsx, with what it reads and handles in settings/*.server.ts.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { refusalMessage, requirePermission, requireTenant } from "../../functions/guards";
import { pageNotFound, refuse } from "../../functions/http";
import { can } from "../../functions/permissions";
import { paths, SETTINGS_TABS, type SettingsTab } from "../lib/paths";
import { loadBusiness, loadProfile } from "./settings/account.server";
import { BusinessTab } from "./settings/business";
import { DevelopersTab } from "./settings/developers";
import { DEVELOPER_INTENTS, developersAction, loadDevelopers } from "./settings/developers.server";
import { endpointsAction, isEndpointIntent, loadEndpoints } from "./settings/developers-endpoints.server";
import { ProfileTab } from "./settings/profile";
import { SecurityTab } from "./settings/security";
import { loadPasskeys, loadSessions, securityAction } from "./settings/security.server";
import { TAB_LABEL } from "./settings/tabs";
import { TeamTab } from "./settings/team";
import { loadTeam, TEAM_INTENTS, teamAction, type InviteValues } from "./settings/team.server";

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
  const canSeeTeam = can(tenant.role, "view:employee");
  const canSeeDevelopers = can(tenant.role, "manage:developer");
  switch (tab) {
    case "profile":
      return { tab, canSeeTeam, canSeeDevelopers, user: await loadProfile(request, deps) } as const;
    case "business":
      return { tab, canSeeTeam, canSeeDevelopers, business: await loadBusiness(request, deps) } as const;
    case "security":
      return { tab, canSeeTeam, canSeeDevelopers, sessions: await loadSessions(deps, session), passkeys: await loadPasskeys(deps, session) } as const;
    case "team":
      requirePermission(tenant, "view:employee");
      return { tab, canSeeTeam, canSeeDevelopers, team: await loadTeam(request, deps, tenant) } as const;
    case "developers":
      requirePermission(tenant, "manage:developer");
      return {
        tab,
        canSeeTeam,
        canSeeDevelopers,
        developers: await loadDevelopers(request, deps, tenant, context),
        endpoints: await loadEndpoints(deps, tenant),
      } as const;
  }
}

// A lost connection while sending keeps the page and what was typed, and a re-send runs once (app/components/submission.ts).
export { clientAction, shouldRevalidate } from "../components/submission";

export async function action({ request, context }: ActionFunctionArgs) {
  // The permission depends on what was posted: checked below.
  const { deps, session, tenant } = await requireTenant(request, context, null);
  const form = Object.fromEntries(await request.formData());
  // Whatever was posted to the Developers tab, and the key intents wherever they are posted, need the tab's permission.
  if ((DEVELOPER_INTENTS as readonly unknown[]).includes(form.intent) || isEndpointIntent(form.intent) || readTab(request) === "developers") {
    requirePermission(tenant, "manage:developer");
    if (isEndpointIntent(form.intent)) return endpointsAction(request, context, deps, tenant, form);
    return developersAction(request, context, deps, tenant, form);
  }
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
  security: "Your passkeys, and where you are signed in.",
  developers: "How this business's own systems reach the portal: Partner API keys, and what the API could not take as sent.",
};

export default function Settings() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Refusals of the invitation and key-name forms carry what was typed; the others speak to the whole tab.
  // (The Developers tab reads its own answers, a revealed secret among them.)
  const refusal = actionData && "errors" in actionData ? actionData : null;
  const invite = refusal?.values && loaded.tab === "team" ? { errors: refusal.errors, values: refusal.values as InviteValues } : null;
  const error = refusal && !refusal.values ? (refusal.errors.form ?? null) : null;
  const tabs = SETTINGS_TABS.filter((tab) => (tab === "team" ? loaded.canSeeTeam : tab === "developers" ? loaded.canSeeDevelopers : true));
  return (
    <div className="page">
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
      {loaded.tab === "profile" ? <ProfileTab user={loaded.user} /> : null}
      {loaded.tab === "business" ? <BusinessTab business={loaded.business} /> : null}
      {loaded.tab === "security" ? <SecurityTab sessions={loaded.sessions} passkeys={loaded.passkeys} error={error} /> : null}
      {loaded.tab === "team" ? <TeamTab team={loaded.team} error={error} invite={invite} /> : null}
      {loaded.tab === "developers" ? <DevelopersTab developers={loaded.developers} endpoints={loaded.endpoints} actionData={actionData ?? null} /> : null}
    </div>
  );
}

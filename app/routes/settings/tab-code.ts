// The code of the heavier Settings tabs (Team, Security, Developers, Audit), loaded only for the tab shown (decision
// 043): each is a chunk of its own instead of part of /settings' first load, and code on demand
// (app/components/code-on-demand.tsx): the loader awaits loadTabCode(tab) so the server always renders the whole tab,
// and the browser hydrates once the shown tab's code is here. Another tab, opened later, shows its boundary's fallback
// for as long as its code takes.
import { codeOnDemand, type CodeOnDemand } from "#app/components/code-on-demand";
import type { SettingsTab } from "#app/lib/paths";
import type { AuditTab } from "./audit";
import type { DevelopersTab } from "#app/routes/settings/developers/developers";
import type { SecurityTab } from "./security";
import type { TeamTab } from "./team";

type Components = {
  team: typeof TeamTab;
  security: typeof SecurityTab;
  developers: typeof DevelopersTab;
  audit: typeof AuditTab;
};
export type LazyTab = keyof Components;

export const TAB_CODE: { [T in LazyTab]: CodeOnDemand<Components[T]> } = {
  team: codeOnDemand("settings-team", () => import("./team").then((m) => m.TeamTab)),
  security: codeOnDemand("settings-security", () => import("./security").then((m) => m.SecurityTab)),
  developers: codeOnDemand("settings-developers", () => import("#app/routes/settings/developers/developers").then((m) => m.DevelopersTab)),
  audit: codeOnDemand("settings-audit", () => import("./audit").then((m) => m.AuditTab)),
};

export const isLazyTab = (tab: SettingsTab): tab is LazyTab => Object.hasOwn(TAB_CODE, tab);

/** Loads the tab's code (once; a failed import is tried again the next time). Resolves at once for the light tabs. */
export function loadTabCode(tab: SettingsTab): Promise<void> {
  return isLazyTab(tab) ? TAB_CODE[tab].preload() : Promise.resolve();
}

/** The tab's component, or a suspension (for the nearest Suspense boundary) until its code is here. */
export function tabCode<T extends LazyTab>(tab: T): Components[T] {
  return TAB_CODE[tab].read();
}

/** The tab a /settings URL shows (the route's readTab, without the 404). */
export function tabOfSearch(search: string): SettingsTab | null {
  const value = new URLSearchParams(search).get("tab");
  return value === null || value === "" ? "profile" : (value as SettingsTab);
}

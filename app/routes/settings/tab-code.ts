// The code of the heavier Settings tabs (Team, Security, Developers, Audit), loaded only for the tab shown (decision
// 043): each is a chunk of its own instead of part of /settings' first load.
//
// Hydration is why this is not React.lazy: a lazy component suspends on its first render, so the server would stream
// the tab's fallback first, and the browser met a different tree (React #418, the first attempt). Here the loader
// awaits loadTabCode(tab) before the page renders, so the server always renders the whole tab. In the browser the
// route module starts the shown tab's import as soon as it is evaluated; if hydration gets there first, the tab
// suspends inside its Suspense boundary, and React keeps the server's HTML until the code is here and then hydrates it
// (no mismatch: the server rendered the content, not the fallback). Another tab, opened later, shows its fallback for
// as long as its code takes.
import type { SettingsTab } from "#app/lib/paths";
import type { AuditTab } from "./audit";
import type { DevelopersTab } from "./developers";
import type { SecurityTab } from "./security";
import type { TeamTab } from "./team";

type Components = {
  team: typeof TeamTab;
  security: typeof SecurityTab;
  developers: typeof DevelopersTab;
  audit: typeof AuditTab;
};
export type LazyTab = keyof Components;

const IMPORTS: { [T in LazyTab]: () => Promise<Components[T]> } = {
  team: () => import("./team").then((m) => m.TeamTab),
  security: () => import("./security").then((m) => m.SecurityTab),
  developers: () => import("./developers").then((m) => m.DevelopersTab),
  audit: () => import("./audit").then((m) => m.AuditTab),
};

const loaded: Partial<Components> = {};
const loading: Partial<Record<LazyTab, Promise<void>>> = {};

const isLazy = (tab: SettingsTab): tab is LazyTab => Object.hasOwn(IMPORTS, tab);

/** Loads the tab's code (once; a failed import is tried again the next time). Resolves at once for the light tabs. */
export function loadTabCode(tab: SettingsTab): Promise<void> {
  if (!isLazy(tab) || loaded[tab]) return Promise.resolve();
  loading[tab] ??= IMPORTS[tab]().then(
    (component) => {
      (loaded as Record<LazyTab, unknown>)[tab] = component;
    },
    (error: unknown) => {
      delete loading[tab];
      throw error;
    },
  );
  return loading[tab];
}

/** The tab's component, or a suspension (for the nearest Suspense boundary) until its code is here. */
export function tabCode<T extends LazyTab>(tab: T): Components[T] {
  const component = loaded[tab];
  if (component) return component;
  // React's Suspense protocol (what React.lazy does inside): a thrown promise suspends until it settles.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw loadTabCode(tab);
}

/** The tab a /settings URL shows (the route's readTab, without the 404). */
export function tabOfSearch(search: string): SettingsTab | null {
  const value = new URLSearchParams(search).get("tab");
  return value === null || value === "" ? "profile" : (value as SettingsTab);
}

import { PrefetchPageLinks, UNSAFE_RemixContext, matchRoutes, useLocation } from "@remix-run/react";
import { useContext, useEffect, useMemo, useState, useSyncExternalStore, type FocusEventHandler, type MouseEventHandler } from "react";
import { FIRST_PREFETCH_DELAY_MS, likelyNextPages, shouldPrefetch, type ConnectionInfo } from "#app/lib/shell/prefetch";
import { useRootData } from "#app/lib/shell/root-data";

function subscribeToConnection(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

/** Whether the browser says it is online; the server renders as if it were. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeToConnection,
    () => navigator.onLine,
    () => true,
  );
}

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
}

type RouteNode = { id: string; path?: string; index: true } | { id: string; path?: string; children: RouteNode[] };

function routeTree(routes: readonly ManifestRoute[], parentId: string | undefined): RouteNode[] {
  return routes
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index ? { id: route.id, path: route.path, index: true } : { id: route.id, path: route.path, children: routeTree(routes, route.id) },
    );
}

/** The code (route modules) of the page at `page`, as far as the browser has discovered its routes; null when no route matches yet. */
function usePageCode(page: string): readonly string[] | null {
  const remix = useContext(UNSAFE_RemixContext);
  // The manifest grows as Remix discovers routes: the page is matched again each time this renders.
  const routes = remix?.manifest.routes as Record<string, ManifestRoute> | undefined;
  const matches = routes ? matchRoutes(routeTree(Object.values(routes), undefined), page) : null;
  // Module URLs hold no spaces: one string stands for the list, so the list is a new array only when it changes.
  const key = routes && matches ? matches.map((match) => routes[match.route.id]!.module).join(" ") : null;
  return useMemo(() => key?.split(" ") ?? null, [key]);
}

/**
 * Remix's PrefetchPageLinks for `page`, once the page's code has loaded here. Remix loads that code itself to read
 * its stylesheets, and reloads the document when the load fails, which offline shows the browser's own error page
 * (decision 038). Loaded first here, a failure costs nothing, and Remix's own load is then only a lookup.
 */
export function PrefetchPage({ page }: { page: string }) {
  const online = useOnline();
  const code = usePageCode(page);
  const [loaded, setLoaded] = useState<readonly string[] | null>(null);

  useEffect(() => {
    if (!online || !code) return;
    let current = true;
    Promise.all(code.map((module) => import(/* @vite-ignore */ module))).then(
      () => current && setLoaded(code),
      // No connection: no prefetch. The next `online` tries again.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [online, code]);

  if (!online || !code || loaded !== code) return null;
  return <PrefetchPageLinks page={page} />;
}

export interface PrefetchIntent {
  show: boolean;
  handlers: {
    onMouseEnter: MouseEventHandler;
    onMouseLeave: MouseEventHandler;
    onFocus: FocusEventHandler;
    onBlur: FocusEventHandler;
    onTouchStart: () => void;
  };
}

/** Remix's wait before a hover or focus counts as intent (its prefetch="intent"). */
const INTENT_DELAY_MS = 100;

/** Remix's prefetch="intent", for a link whose prefetch is a PrefetchPage: hovered or focused for a moment, touched. */
export function usePrefetchIntent(): PrefetchIntent {
  const [maybe, setMaybe] = useState(false);
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (!maybe) return;
    const timer = setTimeout(() => setShow(true), INTENT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [maybe]);
  const handlers = useMemo(() => {
    const start = () => setMaybe(true);
    const stop = () => {
      setMaybe(false);
      setShow(false);
    };
    return { onMouseEnter: start, onMouseLeave: stop, onFocus: start, onBlur: stop, onTouchStart: start };
  }, []);
  return { show, handlers };
}

/**
 * SPEC section 7's first payload prefetch: a second after a signed-in page loads, the
 * pages people usually open next (their code and loader data) are fetched, unless the
 * connection is very slow, the person asked to save data, or the browser is offline.
 * Hover prefetch (usePrefetchIntent on the navigation) still covers the rest.
 */
export function FirstPrefetch() {
  const role = useRootData()?.identity?.user.role;
  const { pathname } = useLocation();
  const online = useOnline();
  const [due, setDue] = useState(false);

  // Each page waits its second: a navigation's own requests go first.
  useEffect(() => {
    setDue(false);
    const connection = (navigator as Navigator & { connection?: ConnectionInfo }).connection;
    if (!shouldPrefetch(connection)) return;
    const timer = setTimeout(() => setDue(true), FIRST_PREFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pathname]);

  if (!due || !role || !online) return null;
  return (
    <>
      {likelyNextPages(pathname, role).map((page) => (
        <PrefetchPage key={page} page={page} />
      ))}
    </>
  );
}

// Code that a page shows only in some states (a payment's detail panel, a Settings tab, a merchant's form), loaded
// apart from the page's first load and still rendered by the server (decision 043).
//
// Not React.lazy: a lazy component suspends on its first render, so the server would stream its fallback and the
// browser would meet another tree when hydrating (React #418, seen with the Settings tabs). Instead the route's loader
// awaits preload() when the page will show the code, so the server renders it whole; read() suspends (inside the
// caller's <OnDemand> boundary) until the code is here, which only happens on a navigation in the browser.
//
// The browser hydrates only once the code of every such part the server drew is here (codeTheDocumentShows, awaited by
// entry.client). A part hydrated later would stay the server's HTML meanwhile, and React cannot keep that HTML as it
// is: a router update reaching it (a hash link) throws it away for the fallback (#421), a press on it bypasses the
// portal (the browser sends the form itself), and anything that touches its DOM breaks its hydration (#418).
import { Suspense, type ReactNode } from "react";

export interface CodeOnDemand<T> {
  /** What the document's marker calls it (unique in the app). */
  name: string;
  /** Starts loading (once; a failed import is tried again the next time) and resolves when the code is here. */
  preload: () => Promise<void>;
  /** The code, or a suspension until it is here. */
  read: () => T;
}

/** Every code on demand of the route modules evaluated so far, by name (a module evaluated again replaces its own). */
const byName = new Map<string, CodeOnDemand<unknown>>();

export function codeOnDemand<T>(name: string, load: () => Promise<T>): CodeOnDemand<T> {
  let value: { current: T } | null = null;
  let loading: Promise<void> | null = null;
  const preload = () => {
    if (value) return Promise.resolve();
    loading ??= load().then(
      (loaded) => {
        value = { current: loaded };
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const code: CodeOnDemand<T> = {
    name,
    preload,
    read: () => {
      if (value) return value.current;
      // React's Suspense protocol (what React.lazy does inside): a thrown promise suspends until it settles.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw preload();
    },
  };
  byName.set(name, code);
  return code;
}

/** In the browser, loads the code once the page is idle, before a click needs it (no-op on the server). */
export function loadWhenIdle(code: CodeOnDemand<unknown>): void {
  if (typeof document === "undefined") return;
  const load = () => void code.preload().catch(() => undefined);
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(load);
  else setTimeout(load, 2_000);
}

/** The attribute of the mark an <OnDemand> part leaves in the document: the name of its code. */
const MARK = "data-code-on-demand";

/**
 * Where a page shows code on demand: its Suspense boundary, with a mark naming the code. The mark is an empty
 * <template> (no box, never shown) inside the boundary, so the document the server sends says which codes it drew.
 * `code` null: what the boundary shows now is in the page's first load (a light Settings tab).
 */
export function OnDemand({ code, fallback, children }: { code: CodeOnDemand<unknown> | null; fallback: ReactNode; children: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      {code ? <template {...{ [MARK]: code.name }} /> : null}
      {children}
    </Suspense>
  );
}

/**
 * Resolves once the code of every part the document shows from code on demand is here (the route modules, evaluated
 * before this runs, have named them all). A code that cannot load is left to its part's boundary: hydration goes on.
 */
export async function codeTheDocumentShows(root: ParentNode): Promise<void> {
  const names = new Set(Array.from(root.querySelectorAll(`template[${MARK}]`), (mark) => mark.getAttribute(MARK) ?? ""));
  const loading: Promise<unknown>[] = [];
  for (const name of names) {
    const code = byName.get(name);
    if (code) loading.push(code.preload().catch(() => undefined));
  }
  await Promise.all(loading);
}

// Code that a page shows only in some states (a payment's detail panel, a Settings tab), loaded apart from the page's
// first load and still rendered by the server (decision 043).
//
// Not React.lazy: a lazy component suspends on its first render, so the server would stream its fallback and the
// browser would meet another tree when hydrating (React #418, seen with the Settings tabs). Instead the route's loader
// awaits preload() when the page will show the code, so the server renders it whole; the browser starts preload() as
// early as it can, and read() suspends (inside the caller's Suspense boundary) until the code is here. If hydration
// reaches a boundary before the code, React keeps the server's HTML there and hydrates it once the code has come.
export interface CodeOnDemand<T> {
  /** Starts loading (once; a failed import is tried again the next time) and resolves when the code is here. */
  preload: () => Promise<void>;
  /** The code, or a suspension until it is here. */
  read: () => T;
}

export function codeOnDemand<T>(load: () => Promise<T>): CodeOnDemand<T> {
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
  return {
    preload,
    read: () => {
      if (value) return value.current;
      // React's Suspense protocol (what React.lazy does inside): a thrown promise suspends until it settles.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw preload();
    },
  };
}

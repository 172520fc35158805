import type { LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import {
  Link,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useNavigate,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { Analytics, trackException } from "#app/components/analytics/analytics";
import { BuildUpdateCheck } from "./components/build-update";
import { STYLES_ID, useDocumentInfo } from "./components/document-context";
import { newClientErrorId, takeServerErrorId } from "./components/error-id";
import { NotificationRules } from "./components/notifications";
import { PaintFirstScripts } from "./components/paint-first-scripts";
import { RefusalFocus } from "#app/components/forms/form";
import { someRouteCodeUnreachable } from "./components/route-code";
import { isNetworkFailure, shouldRevalidate as formShouldRevalidate } from "#app/components/forms/submission";
import { DefaultLayout, PlatformLayout, StandardLayout } from "./components/shell";
import { AccessDenied } from "./routes/errors/access-denied";
import { DEFAULT_ERROR_MESSAGE, errorMessage } from "./lib/errors";
import { APP_NAME, NOT_FOUND_TITLE, SERVER_ERROR_TITLE } from "#app/lib/shell/page";
import { usePageLayout } from "#app/lib/shell/root-data";

// Nothing is reloaded after a send that lost its connection (app/components/forms/submission.ts). Otherwise the root's
// data (the bell's and the approvals' counts) is read again on every move to another page as well: its reads join the
// page's own in one round trip (functions/plumbing/d1-coalesce.ts), and the counts follow what others did meanwhile.
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  (!args.formMethod && args.currentUrl.pathname !== args.nextUrl.pathname) || formShouldRevalidate(args);
// In a module of its own, so the components that read it (useRootData) do not import this one, which imports them.
export { loader } from "./root.server";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

// A page's own `meta` replaces this one; on an error this one decides, because the root boundary shows it.
export const meta: MetaFunction = ({ error }) => {
  if (error) return [{ title: isNotFound(error) ? NOT_FOUND_TITLE : SERVER_ERROR_TITLE }];
  // Every page has a title of its own; only one whose code never arrived shows this, as "No connection" (HydrateFallback).
  if (someRouteCodeUnreachable()) return [{ title: SERVER_ERROR_TITLE }];
  return [{ title: APP_NAME }];
};

function isNotFound(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 404;
}

const SHELLS = { standard: StandardLayout, default: DefaultLayout, platform: PlatformLayout } as const;

export function Layout({ children }: { children: ReactNode }) {
  const { nonce, requestId, buildId, styles } = useDocumentInfo();
  const Shell = SHELLS[usePageLayout()];
  return (
    // The browser renders no build id: the attribute the server wrote stays, as React's production build leaves an
    // attribute only the server rendered in place when it hydrates (it warns only in development, which the portal
    // never runs: npm start serves the production build).
    <html lang="en" data-build={buildId}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b4f3f" />
        {requestId ? <meta name="pp-request-id" content={requestId} /> : null}
        <Meta />
        {/* The stylesheet in the document: the first paint waits for no second request (decision 043). */}
        {styles ? <style id={STYLES_ID} nonce={styles.nonce} dangerouslySetInnerHTML={{ __html: styles.textContent }} /> : null}
        <Links />
        {/* The page's code, asked for once the browser has painted; in the head, so that is while the rest streams. */}
        <PaintFirstScripts part="bootstrap" nonce={nonce} />
      </head>
      <body>
        <Shell>{children}</Shell>
        <NotificationRules />
        <RefusalFocus />
        <BuildUpdateCheck />
        <Analytics />
        <ScrollRestoration nonce={nonce} />
        <PaintFirstScripts part="handoff" nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * React Router renders the root's fallback in place of the page while a matched route's code is not loaded. No page
 * here loads data in the browser as it hydrates (no clientLoader.hydrate), so after hydration that happens only when the
 * code never arrived: its data came, the connection dropped before the code, and Remix's single fetch kept the data
 * and dropped the code's failure (app/components/route-code.ts).
 */
export function HydrateFallback() {
  return someRouteCodeUnreachable() ? <ConnectionLost /> : null;
}

/** The error id on the page: the failing request's, or one made in the browser. */
function useErrorId(error: unknown): string {
  const { requestId } = useDocumentInfo();
  // Computed once per error: during hydration it must equal the server's.
  const [{ id, browserOnly }] = useState(() => {
    if (typeof document === "undefined" || !document.documentElement.dataset.hydrated) {
      return { id: requestId ?? newClientErrorId(), browserOnly: false };
    }
    const serverId = takeServerErrorId();
    return serverId ? { id: serverId, browserOnly: false } : { id: newClientErrorId(), browserOnly: true };
  });
  useEffect(() => {
    if (!browserOnly) return;
    console.error(`[${id}]`, error);
    // Caught by the error boundary, so window.onerror never sees it: report it here.
    void trackException(error);
  }, [browserOnly, id, error]);
  return id;
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isNotFound(error)) {
    const message = (isRouteErrorResponse(error) ? errorMessage(error) : undefined) ?? "Page not found";
    return (
      <section className="error-page" aria-labelledby="error-title">
        <p className="error-page__code">404</p>
        <h1 id="error-title">{NOT_FOUND_TITLE}</h1>
        <p className="error-page__message" data-testid="error-message">
          {message}
        </p>
        <p>The page may have moved, or the link may be mistyped.</p>
        <Link className="button button--primary" to="/">
          Go to the dashboard
        </Link>
      </section>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied message={errorMessage(error) ?? null} />;
  if (isNetworkFailure(error)) return <ConnectionLost />;
  return <ServerError error={error} />;
}

/**
 * A page whose data or code never arrived (a link followed with no connection): not
 * the server's fault, so no 500 and no error id, and nothing to report. The shell
 * stays. When the browser is back online the page it was going to loads by itself;
 * Try again does the same in the page, so a click while still offline shows this
 * again rather than the browser's own error page.
 */
function ConnectionLost() {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const here = pathname + search + hash;
  useEffect(() => {
    const retry = () => navigate(here, { replace: true });
    window.addEventListener("online", retry);
    return () => window.removeEventListener("online", retry);
  }, [navigate, here]);
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">No connection</h1>
      <p data-testid="error-message">{DEFAULT_ERROR_MESSAGE}</p>
      <p>The page could not be loaded. It will load by itself when the connection is back.</p>
      <Link className="button button--primary" to={here} replace>
        Try again
      </Link>
    </section>
  );
}

function ServerError({ error }: { error: unknown }) {
  const errorId = useErrorId(error);
  const { pathname, search } = useLocation();
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">500</p>
      <h1 id="error-title">{SERVER_ERROR_TITLE}</h1>
      <p>Something went wrong on our side. Please try again in a moment.</p>
      <p>
        If it keeps happening, quote this error id to support:{" "}
        <strong className="error-id" data-testid="error-id">
          {errorId}
        </strong>
      </p>
      <a className="button button--primary" href={pathname + search}>
        Try again
      </a>
    </section>
  );
}

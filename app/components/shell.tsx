import { Form, Link, NavLink, useLocation, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { NAVIGATION, PLATFORM_NAVIGATION, WAITING_FOR_ME, isCurrentSection, isNavGroup, type NavGroup, type NavItem } from "#app/lib/shell/navigation";
import { APP_NAME, LIST_ID } from "#app/lib/shell/page";
import { BusinessSwitcher, NoticeBell, UserMenu } from "./account-menu";
import { AlertRegion, ResponseModal } from "./notifications";
import { FirstPrefetch, PrefetchPage, usePrefetchIntent } from "./prefetch";
import { useRootData } from "#app/lib/shell/root-data";
import { isTestBusiness, liveBusinessOf } from "#server/tenancy/test-mode";
import { TopBarSearch } from "./search/top-bar-search";

/**
 * Outside production every page says so, so nobody mistakes a test portal for
 * the live one (or the other way round).
 */
function EnvironmentBadge() {
  const environment = useRootData()?.environment;
  if (!environment || environment === "production") return null;
  return (
    <span className="env-badge" data-testid="env-badge">
      {environment === "test" ? (
        "Test"
      ) : (
        // "Dev" at 980 px and below, where the top bar needs the room; the whole word is still read out.
        <>
          <span className="env-badge__short" aria-hidden="true">
            Dev
          </span>
          <span className="env-badge__long">Development</span>
        </>
      )}
    </span>
  );
}

/** Test mode (decision 045) says so on every page, with the way back, so nobody takes test data for their business's money. */
function TestModeBanner() {
  const businessId = useRootData()?.identity?.business.businessId;
  if (!businessId || !isTestBusiness(businessId)) return null;
  return (
    <div className="test-mode-banner" data-testid="test-mode-banner">
      <p>
        <strong>Test mode.</strong> Test data only: nothing here is real money or reaches your live data.
      </p>
      <Form method="post" action="/select-business">
        <button name="businessId" value={liveBusinessOf(businessId)} className="button">
          Back to live data
        </button>
      </Form>
    </div>
  );
}

/** A thin bar at the top while a navigation or submission is in flight. */
function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return <div className={busy ? "progress progress--busy" : "progress"} role="progressbar" aria-label="Loading" aria-hidden={!busy} aria-busy={busy} />;
}

/**
 * On the sign-in pages (`discover="none"`) the dashboard link is not looked up in
 * advance: "/" only sends a signed-out person back to sign in, and the lookup
 * (Remix's manifest fetch) is cut off when the sign-in popup closes, which Remix
 * logs as an error ("Failed to fetch manifest patches").
 */
/** The mark and the name: inside the brand's link here, and in the 403 document (app/entry.server.tsx), where no router runs. */
export function BrandContent() {
  return (
    <>
      <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" />
        <path d="M9 22V10h7.5a4.5 4.5 0 0 1 0 9H13" />
      </svg>
      <span className="brand__name">{APP_NAME}</span>
    </>
  );
}

/** What the brand's link is called (to the dashboard). */
export const BRAND_LABEL = `${APP_NAME}, dashboard`;

function Brand({ discover }: { discover?: "none" }) {
  return (
    <Link to="/" className="brand" aria-label={BRAND_LABEL} discover={discover}>
      <BrandContent />
    </Link>
  );
}

/** The navigation's count of requests waiting for this person's decision (none shown for those who decide none). */
function PendingBadge({ to }: { to: string }) {
  const waiting = useRootData()?.identity?.approvalsWaiting;
  if (to !== "/approvals" || !waiting) return null;
  return (
    <span className="nav__badge" aria-label={`${waiting} waiting for you`} data-testid="pending-approvals">
      {waiting > 99 ? "99+" : waiting}
    </span>
  );
}

function NavLinkItem({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const current = item.exact ? isCurrentSection(item.to, pathname) && isCurrentSection(pathname, item.to) : isCurrentSection(item.to, pathname);
  // With requests waiting for this person, Approvals opens on them.
  const waiting = useRootData()?.identity?.approvalsWaiting;
  const to = item.to === "/approvals" && waiting ? WAITING_FOR_ME : item.to;
  // Not Remix's prefetch="intent": its prefetch reloads the page when the section's code cannot load (decision 038).
  const intent = usePrefetchIntent();
  return (
    <li>
      <NavLink
        to={to}
        end={item.exact}
        className={current ? "nav__link nav__link--current" : "nav__link"}
        aria-current={current ? "page" : undefined}
        onClick={onNavigate}
        {...intent.handlers}
      >
        {item.label}
        <PendingBadge to={item.to} />
      </NavLink>
      {intent.show ? <PrefetchPage page={to} /> : null}
    </li>
  );
}

function SideNavigation({ id, open, onClose, navigation }: { id: string; open: boolean; onClose: () => void; navigation: readonly (NavItem | NavGroup)[] }) {
  const groupIds = useId();
  return (
    <nav id={id} className={open ? "nav nav--open" : "nav"} aria-label="Main">
      <div className="nav__header">
        <Brand />
        <a href="#main" className="nav__close" aria-label="Close menu" onClick={(e) => (e.preventDefault(), onClose())}>
          ×
        </a>
      </div>
      <ul className="nav__list">
        {navigation.map((item, index) =>
          isNavGroup(item) ? (
            <li key={item.label} className="nav__group">
              <span className="nav__group-label" id={`${groupIds}-${index}`}>
                {item.label}
              </span>
              <ul aria-labelledby={`${groupIds}-${index}`}>
                {item.items.map((child) => (
                  <NavLinkItem key={child.to} item={child} onNavigate={onClose} />
                ))}
              </ul>
            </li>
          ) : (
            <NavLinkItem key={item.to} item={item} onNavigate={onClose} />
          ),
        )}
      </ul>
    </nav>
  );
}

/**
 * After a client-side move to another page, the focus starts on its h1 (or on main), as a full page load would start
 * at the top: left on the navigation link, a screen reader would not announce the new page and Tab would walk the
 * navigation again. A page that put the focus inside main itself (a panel, a field) keeps it; a first load, a change
 * of search or filter (the same path) and a hash move nothing.
 */
function useFocusOnNewPage(): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.getElementById("main");
    const active = document.activeElement;
    if (!main || (active && active !== main && main.contains(active))) return;
    const heading = main.querySelector<HTMLElement>("h1");
    if (heading && !heading.hasAttribute("tabindex")) heading.tabIndex = -1;
    (heading ?? main).focus({ preventScroll: true });
  }, [pathname]);
}

/**
 * Side navigation and a top bar; at 980 px or less the navigation is a drawer.
 * Before the script loads the menu button is a link to #main-nav, which the
 * stylesheet opens with :target, so the menu works on a slow first load too.
 */
export function DefaultLayout({ children, navigation = NAVIGATION }: { children: ReactNode; navigation?: readonly (NavItem | NavGroup)[] }) {
  const navId = "main-nav";
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLAnchorElement>(null);
  const location = useLocation();
  const signedInBusiness = Boolean(useRootData()?.identity?.business);
  useFocusOnNewPage();

  const close = useCallback(() => {
    setOpen(false);
  }, []);

  useEffect(() => close(), [location.pathname, close]);

  useEffect(() => {
    if (!open) return;
    const nav = document.getElementById(navId);
    nav?.querySelector<HTMLElement>("a.nav__link")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className={open ? "shell shell--nav-open" : "shell"}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {/* From the top of a list page to its first row in three keys (Tab, Tab, Enter; then Tab is in the first row). */}
      <a className="skip-link skip-link--list" href={`#${LIST_ID}`}>
        Skip to the list
      </a>
      <NavigationProgress />
      <SideNavigation id={navId} open={open} onClose={close} navigation={navigation} />
      <button type="button" className="nav-backdrop" aria-label="Close menu" tabIndex={-1} onClick={close} />
      <div className="shell__body">
        <header className="topbar">
          <a
            ref={menuButton}
            href={`#${navId}`}
            role="button"
            className="topbar__menu"
            aria-controls={navId}
            aria-expanded={open}
            aria-label="Open menu"
            onClick={(event) => {
              event.preventDefault();
              setOpen((was) => !was);
            }}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <path d="M3 6h18M3 12h18M3 18h18" />
            </svg>
          </a>
          <div className="topbar__brand">
            <Brand />
          </div>
          {/* The search reads a business's records: only once one is chosen (not on the platform's own screens). */}
          {signedInBusiness && navigation === NAVIGATION ? <TopBarSearch /> : null}
          <div className="topbar__context" data-testid="topbar-context">
            <EnvironmentBadge />
            {signedInBusiness && navigation === NAVIGATION ? <NoticeBell /> : null}
            <BusinessSwitcher />
            <UserMenu />
          </div>
        </header>
        <TestModeBanner />
        <main id="main" className="main" tabIndex={-1}>
          <AlertRegion />
          {children}
        </main>
      </div>
      <ResponseModal />
      <FirstPrefetch />
    </div>
  );
}

/** The platform staff's screens (decision 039): the same frame, the platform's sections. */
export function PlatformLayout({ children }: { children: ReactNode }) {
  return <DefaultLayout navigation={PLATFORM_NAVIGATION}>{children}</DefaultLayout>;
}

/** A centred card with no navigation: sign-in steps and the business choice. */
export function StandardLayout({ children }: { children: ReactNode }) {
  return (
    <div className="standard">
      <NavigationProgress />
      <main id="main" className="standard__card" tabIndex={-1}>
        <div className="standard__brand">
          <Brand discover="none" />
          <EnvironmentBadge />
        </div>
        <AlertRegion />
        {children}
      </main>
      <ResponseModal />
    </div>
  );
}

// The top bar's business switcher and the signed-in person's menu. Both are
// <details> menus, so they open before the script has loaded; their forms post
// to /select-business and /logout, which work without JavaScript too.
import { Form, Link, useLocation } from "@remix-run/react";
import { PLATFORM_HOME } from "#app/lib/shell/navigation";
import { useEffect, useRef, type ReactNode } from "react";
import { isTestBusiness, liveBusinessOf, testBusinessOf } from "#server/tenancy/test-mode";
import { usePageLayout, useRootData } from "#app/lib/shell/root-data";
import { useSending } from "#app/components/forms/form";

/** The signed-in person as platform staff (decision 039), or null. */
function usePlatformStaff() {
  return useRootData()?.platform ?? null;
}

/** Whether the page is one of the platform's own (its layout), not a business's. */
function useOnPlatform(): boolean {
  return usePageLayout() === "platform";
}

export function useSignedInIdentity() {
  return useRootData()?.identity ?? null;
}

/** Closes on navigation, Escape (focus back to the summary) and a click elsewhere. */
function Menu({ className, summary, label, children }: { className: string; summary: ReactNode; label: string; children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  // Every navigation, not only a new path: switching business posts and comes back to the same page ("/" to "/"), and a
  // menu left open there covers the test-mode banner the switch just brought.
  const { key } = useLocation();
  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [key]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const menu = details.current;
      if (event.key !== "Escape" || !menu?.open) return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
    };
    const onClick = (event: MouseEvent) => {
      const menu = details.current;
      if (menu?.open && !menu.contains(event.target as Node)) menu.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);
  return (
    <details ref={details} className={`menu ${className}`}>
      <summary className="menu__summary" aria-label={label}>
        {summary}
      </summary>
      <div className="menu__panel">{children}</div>
    </details>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "")).toUpperCase();
}

/** The business being worked in; with more than one, a menu to switch without signing in again. Platform staff switch to the platform there too. */
export function BusinessSwitcher() {
  const identity = useSignedInIdentity();
  const staff = usePlatformStaff();
  const onPlatform = useOnPlatform();
  const busy = useSending();
  if (onPlatform && staff) return <PlatformSwitcher role={staff.role} business={identity?.business.businessName ?? null} />;
  if (!identity) return null;
  const { business, businesses } = identity;
  const testMode = isTestBusiness(business.businessId);
  const live = liveBusinessOf(business.businessId);
  const others = businesses.filter((choice) => choice.id !== live);
  // Last, the way into the business's test mode or back out of it (decision 045): test data never mixes with live data.
  const choices = [
    ...others,
    testMode ? { id: live, name: "Back to live data", role: business.businessName } : { id: testBusinessOf(live), name: "Test mode", role: "Test data only" },
  ];
  const current = (
    <span className="business-name">
      <strong>{business.businessName}</strong> {testMode ? <span className="mode-badge">Test mode</span> : null}{" "}
      <span className="business-name__role">{business.accessLevel}</span>
    </span>
  );
  return (
    <Menu
      className="business-switcher"
      label={`Business: ${business.businessName}${testMode ? ", Test mode" : ""}, ${business.accessLevel}. Switch business`}
      summary={current}
    >
      <Form method="post" action="/select-business">
        {others.length > 0 ? <p className="menu__heading">Switch business</p> : null}
        <ul className="menu__list">
          {choices.map((choice) => (
            <li key={choice.id}>
              <button type="submit" name="businessId" value={choice.id} className="menu__item" disabled={busy}>
                <span>{choice.name}</span>
                <span className="menu__hint">{choice.role}</span>
              </button>
            </li>
          ))}
        </ul>
      </Form>
      {staff ? (
        <ul className="menu__list">
          <li>
            <Link to={PLATFORM_HOME} className="menu__item">
              <span>Platform operations</span>
              <span className="menu__hint">{staff.role}</span>
            </Link>
          </li>
        </ul>
      ) : null}
    </Menu>
  );
}

/** On the platform's screens: where the person is, and the way to a business. */
function PlatformSwitcher({ role, business }: { role: string; business: string | null }) {
  const current = (
    <span className="business-name">
      <strong>Platform operations</strong> <span className="business-name__role">{role}</span>
    </span>
  );
  return (
    <Menu className="business-switcher" label={`Platform operations, ${role}. Switch to a business`} summary={current}>
      <ul className="menu__list">
        {business ? (
          <li>
            <Link to="/" className="menu__item">
              <span>Back to {business}</span>
            </Link>
          </li>
        ) : null}
        <li>
          <Link to="/select-business" className="menu__item">
            <span>Choose a business</span>
          </Link>
        </li>
      </ul>
    </Menu>
  );
}

export function UserMenu() {
  const identity = useSignedInIdentity();
  const staff = usePlatformStaff();
  const onPlatform = useOnPlatform();
  // On the platform's screens the person is staff first; elsewhere an employee of the business they chose.
  const person =
    onPlatform && staff
      ? { name: staff.name, email: staff.email, role: staff.role }
      : identity
        ? { name: identity.user.employeeName, email: identity.user.employeeEmail, role: identity.user.role }
        : null;
  if (!person) return null;
  return (
    <Menu
      className="user-menu"
      label={`Signed in as ${person.name}. Account menu`}
      summary={
        <>
          {/* The initials are drawn by CSS: the menu's name is the person's name, and the letters beside it would make
              the visible text differ from it (WCAG 2.5.3, label in name). */}
          <span className="avatar" aria-hidden="true" data-initials={initials(person.name)} />
          <span className="user-menu__name">{person.name}</span>
        </>
      }
    >
      <div className="menu__identity">
        <strong>{person.name}</strong>
        <span>{person.email}</span>
        <span className="menu__hint">{person.role}</span>
      </div>
      <ul className="menu__list">
        {identity ? (
          <li>
            <Link to="/settings" className="menu__item">
              Settings
            </Link>
          </li>
        ) : null}
        <li>
          <Form method="post" action="/logout">
            <button type="submit" className="menu__item">
              Sign out
            </button>
          </Form>
        </li>
      </ul>
    </Menu>
  );
}

// The top bar's bell (decision 053): the person's notices not yet read nor settled, a link to their list. The count
// comes with the root's data, which is read again on every navigation (app/root.tsx), so it follows what happens
// without a reload.
export function NoticeBell() {
  const unread = useRootData()?.identity?.unreadNotices ?? 0;
  const shown = unread > 99 ? "99+" : unread;
  // The name starts with what the badge shows (WCAG 2.5.3, label in name).
  return (
    <Link
      to="/notifications"
      className="notice-bell"
      aria-label={unread ? `${shown} unread notifications` : "Notifications, none unread"}
      data-testid="notice-bell"
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className="notice-bell__icon">
        <path d="M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zm4 4a2 2 0 0 0 4 0" />
      </svg>
      {unread ? <span className="notice-bell__count">{shown}</span> : null}
    </Link>
  );
}

// The top bar's business switcher and the signed-in person's menu. Both are
// <details> menus, so they open before the script has loaded; their forms post
// to /select-business and /logout, which work without JavaScript too.
import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { useRootData } from "../lib/root-data";

export function useSignedInIdentity() {
  return useRootData()?.identity ?? null;
}

/** Closes on navigation, Escape (focus back to the summary) and a click elsewhere. */
function Menu({ className, summary, label, children }: { className: string; summary: ReactNode; label: string; children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [pathname]);
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

/** The business being worked in; with more than one, a menu to switch without signing in again. */
export function BusinessSwitcher() {
  const identity = useSignedInIdentity();
  const busy = useNavigation().state !== "idle";
  if (!identity) return null;
  const { business, businesses } = identity;
  const others = businesses.filter((choice) => choice.id !== business.businessId);
  const current = (
    <span className="business-name">
      <strong>{business.businessName}</strong> <span className="business-name__role">{business.accessLevel}</span>
    </span>
  );
  if (others.length === 0) return <div className="business-switcher business-switcher--single">{current}</div>;
  return (
    <Menu className="business-switcher" label={`Business: ${business.businessName}, ${business.accessLevel}. Switch business`} summary={current}>
      <p className="menu__heading">Switch business</p>
      <Form method="post" action="/select-business">
        <ul className="menu__list">
          {others.map((choice) => (
            <li key={choice.id}>
              <button type="submit" name="businessId" value={choice.id} className="menu__item" disabled={busy}>
                <span>{choice.name}</span>
                <span className="menu__hint">{choice.role}</span>
              </button>
            </li>
          ))}
        </ul>
      </Form>
    </Menu>
  );
}

export function UserMenu() {
  const identity = useSignedInIdentity();
  if (!identity) return null;
  const { user } = identity;
  return (
    <Menu
      className="user-menu"
      label={`Signed in as ${user.employeeName}. Account menu`}
      summary={
        <>
          {/* The initials are drawn by CSS: the menu's name is the person's name, and the letters beside it would make
              the visible text differ from it (WCAG 2.5.3, label in name). */}
          <span className="avatar" aria-hidden="true" data-initials={initials(user.employeeName)} />
          <span className="user-menu__name">{user.employeeName}</span>
        </>
      }
    >
      <div className="menu__identity">
        <strong>{user.employeeName}</strong>
        <span>{user.employeeEmail}</span>
        <span className="menu__hint">{user.role}</span>
      </div>
      <ul className="menu__list">
        <li>
          <Link to="/settings" className="menu__item">
            Settings
          </Link>
        </li>
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

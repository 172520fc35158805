// The top bar's bell (decision 053): the person's notices not yet read nor settled, a link to their list. The count
// comes with the root's data, which is read again on every navigation (app/root.tsx), so it follows what happens
// without a reload.
import { Link } from "@remix-run/react";
import { useRootData } from "#app/lib/shell/root-data";

export const NOTICES_PATH = "/notifications";

export function NoticeBell() {
  const unread = useRootData()?.identity?.unreadNotices ?? 0;
  const label = unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;
  return (
    <Link to={NOTICES_PATH} className="notice-bell" aria-label={label} data-testid="notice-bell" prefetch="none">
      <svg viewBox="0 0 24 24" aria-hidden="true" className="notice-bell__icon">
        <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Z" />
        <path d="M10 20a2 2 0 0 0 4 0" />
      </svg>
      {unread > 0 ? (
        <span className="notice-bell__count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}

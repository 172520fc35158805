// The dashboard's "disputes needing a response": how many open disputes can still be answered, and the
// nearest deadline, linking to the open ones on /disputes.
import { Link } from "@remix-run/react";
import { deadlineLabel, dueDay } from "#app/lib/disputes";
import { calendarDay, formatCount } from "#app/lib/format";
import { paths } from "#app/lib/paths";

export function DisputesNeedingResponse({ count, nearestDueAt, now }: { count: number; nearestDueAt: number | null; now: number }) {
  const nearest = nearestDueAt === null ? null : deadlineLabel(nearestDueAt, now);
  return (
    <Link
      to={paths.disputes({ status: "open" })}
      className={count > 0 ? "attention__item attention__item--warn" : "attention__item"}
      data-testid="dashboard-disputes"
    >
      <strong>{formatCount(count)}</strong>
      <span>
        {count === 1 ? "dispute needs a response" : "disputes need a response"}
        {nearest && nearestDueAt !== null ? ` (the nearest due ${calendarDay(dueDay(nearestDueAt))}: ${nearest.text.toLowerCase()})` : ""}
      </span>
    </Link>
  );
}

// A dispute's deadline in words: whole days in Africa/Accra (UTC+0 all year, app/lib/format.ts) between
// today and the evidence due date, whose end (the next midnight) is what the server stores.
import { ACCRA_UTC_OFFSET_MINUTES } from "./format";
import { DAY_MS } from "#server/plumbing/time";

const OFFSET_MS = ACCRA_UTC_OFFSET_MINUTES * 60_000;

/** Days from today to the due date (0: due today); negative once the deadline has passed. */
export function daysLeft(dueAt: number, now: number): number {
  const today = Math.floor((now + OFFSET_MS) / DAY_MS);
  const lastDay = Math.floor((dueAt + OFFSET_MS - 1) / DAY_MS);
  return now >= dueAt ? Math.min(-1, lastDay - today) : lastDay - today;
}

/** The due date itself (the last day on which a response is taken), as epoch ms at its start, for calendarDay. */
export function dueDay(dueAt: number): number {
  return dueAt - DAY_MS;
}

export function deadlineLabel(dueAt: number, now: number): { text: string; overdue: boolean } {
  const days = daysLeft(dueAt, now);
  if (days < 0) return { text: "Overdue", overdue: true };
  if (days === 0) return { text: "Due today", overdue: false };
  return { text: days === 1 ? "1 day left" : `${days} days left`, overdue: false };
}

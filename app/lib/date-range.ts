// The period a money list covers: a quick range (today, 7 days, 30 days, this
// month) or two typed days, in Africa/Accra (UTC+0 all year), as [from, to) epoch ms.
import { DAY_FIELD_FORMAT, typedDay } from "#app/lib/forms/days";
import { isCalendarDay } from "#app/lib/forms/validation";
import { DAY_MS, utcDay } from "#server/plumbing/time";

export const QUICK_RANGES = [
  { value: "today", label: "Today" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "month", label: "This month" },
  { value: "custom", label: "Custom" },
] as const;
export type RangeChoice = (typeof QUICK_RANGES)[number]["value"];

export interface ResolvedRange {
  range: RangeChoice;
  /** Inclusive, epoch ms. */
  from: number;
  /** Exclusive, epoch ms. */
  to: number;
  fromDay: string;
  toDay: string;
  /** Why the typed days were not used (shown by the date fields). */
  error: string | null;
}

/** A year and a day: enough for a year's report, small enough to stay fast. */
export const MAX_RANGE_DAYS = 366;

const dayOf = utcDay;
const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

export function resolveRange(
  params: { range?: string | null; from?: string | null; to?: string | null },
  now: number,
  fallback: RangeChoice = "7d",
): ResolvedRange {
  const today = dayOf(now);
  const quick = (range: Exclude<RangeChoice, "custom">, error: string | null = null): ResolvedRange => {
    const firstDay =
      range === "today" ? today : range === "7d" ? dayOf(now - 6 * DAY_MS) : range === "30d" ? dayOf(now - 29 * DAY_MS) : `${today.slice(0, 8)}01`;
    return { range, from: startOf(firstDay), to: startOf(today) + DAY_MS, fromDay: firstDay, toDay: today, error };
  };
  const choice = QUICK_RANGES.some((r) => r.value === params.range) ? (params.range as RangeChoice) : fallback;
  if (choice !== "custom") return quick(choice);
  // Typed day first by a person (a form sent before the script loaded), or YYYY-MM-DD from the script and links.
  const from = typedDay(params.from);
  const to = typedDay(params.to);
  const fallbackRange = fallback === "custom" ? "7d" : fallback;
  if (!isCalendarDay(from) || !isCalendarDay(to)) return { ...quick(fallbackRange, `Enter both days as real dates (${DAY_FIELD_FORMAT}).`), range: "custom" };
  if (from > to) return { ...quick(fallbackRange, "The first day must not be after the last day."), range: "custom" };
  if ((startOf(to) - startOf(from)) / DAY_MS + 1 > MAX_RANGE_DAYS)
    return { ...quick(fallbackRange, `Choose at most ${MAX_RANGE_DAYS} days.`), range: "custom" };
  return { range: "custom", from: startOf(from), to: startOf(to) + DAY_MS, fromDay: from, toDay: to, error: null };
}

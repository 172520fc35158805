// A day as a person types it into a day field (DateInput, app/components/lists/period-picker.tsx), read day first:
// here, not in validation.ts, so that only the screens with a day field carry it in their first load (decision 043).
import { calendarMonth } from "#app/lib/format";
/** The months' first three letters, which is how a typed month is known ("mar", "March", "Mar."). */
const MONTHS = "janfebmaraprmayjunjulaugsepoctnovdec";

/** How a day field asks for a day (SPEC section 9's day first: the day of 'DD/MM/YYYY, h:mm A'). */
export const DAY_FIELD_FORMAT = "DD/MM/YYYY";

/**
 * A day as a person types it, day first (21/11/2026, 21-11-2026, 21.11.2026, 21112026, 21 Nov 2026, 21 November
 * 2026) or as the URL holds it (2026-11-21), to YYYY-MM-DD; or why it is not a day, in words a person can act on.
 * Never read month first: 07/03/2026 is the 7th of March, whatever the browser's language.
 */
export function parseDay(text: string | null | undefined): { day: string } | { error: string } {
  const typed = (text ?? "").trim().toLowerCase();
  const url = /^(\d{4})-(\d\d?)-(\d\d?)$/.exec(typed);
  const parts = url ? [url[3], url[2], url[1]] : /^(\d\d?)[/.\- ]?(\d\d?|[a-z]{3,9})\.?[/.\-, ]*(\d{4})$/.exec(typed)?.slice(1);
  if (!parts) return { error: `Write the day as ${DAY_FIELD_FORMAT}, day first, e.g. 21/11/2026.` };
  const [day, year] = [Number(parts[0]), Number(parts[2])];
  const word = parts[1]!;
  const month = /\d/.test(word) ? Number(word) : MONTHS.indexOf(word.slice(0, 3)) % 3 === 0 ? MONTHS.indexOf(word.slice(0, 3)) / 3 + 1 : 0;
  if (month < 1 || month > 12) return { error: `There is no month ${word}: write the day as ${DAY_FIELD_FORMAT}, day first.` };
  if (year < 2000 || year > 2100) return { error: "Choose a day between the years 2000 and 2100." };
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const iso = `${year}-${String(month).padStart(2, "0")}-`;
  const name = calendarMonth(`${iso}01`);
  if (day < 1 || day > days) return { error: `There is no ${day} ${name}: ${name} has ${days} days.` };
  return { day: `${iso}${String(day).padStart(2, "0")}` };
}

/** A typed day as YYYY-MM-DD, or the text as it came when it is not one (a check after it refuses it). */
export function typedDay(text: string | null | undefined): string {
  const parsed = parseDay(text);
  return "day" in parsed ? parsed.day : (text ?? "");
}

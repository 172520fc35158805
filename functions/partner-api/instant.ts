// The one place the Partner API reads a time or a date (decision 030). What the schema takes is parsed
// here, once, into epoch milliseconds, and only that number travels on (the router's checks, the queue message,
// the consumer's writes). Date.parse is never asked: it reads some strings a pattern lets through as NaN
// ("+01", a space before the zone) and moves impossible days to the next month (31 September is 1 October).
// So the parser is our own arithmetic over the fields the pattern captured, and refuses any day the calendar
// does not have.
import * as v from "valibot";
import { DAY_MS } from "../plumbing/time";

/**
 * RFC 3339 `date-time`, upper-case T and Z, seconds required, fractions of up to 9 digits, and a zone of Z or
 * ±HH:MM; no hour 24 and no leap second (23:59:60 has no epoch millisecond of its own). The strings that both
 * match it and are RFC 3339 `date-time`s (JSON Schema's `format`: a day the calendar has) are exactly those taken.
 */
export const INSTANT_PATTERN =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,9}))?(?:Z|([+-])([01]\d|2[0-3]):([0-5]\d))$/;
/** A calendar day, YYYY-MM-DD. The pattern and format "date" together are exactly the days the calendar has. */
export const DATE_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const INSTANT_FORMAT_MESSAGE =
  "must be a time like 2026-11-23T10:15:00Z or 2026-11-23T11:15:00+01:00 (RFC 3339: the date, T, the time with seconds, then Z or ±HH:MM)";
export const DATE_FORMAT_MESSAGE = "must be a date written YYYY-MM-DD";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

export const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian day (H. Hinnant's days_from_civil): no Date, so no two-digit-year or overflow quirks. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

export type Parsed = { ms: number } | { problem: string };

function dayProblem(year: number, month: number, day: number): string | null {
  const days = daysInMonth(year, month);
  if (day < 1 || day > days) return `has no day ${day} in ${MONTHS[month - 1]} ${year} (it has ${days} days)`;
  return null;
}

/** A time the API takes, as epoch ms, or why it is not one. */
export function parseInstant(text: string): Parsed {
  const m = INSTANT_PATTERN.exec(text);
  if (!m) return { problem: INSTANT_FORMAT_MESSAGE };
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const wrongDay = dayProblem(year, month, day);
  if (wrongDay) return { problem: wrongDay };
  // The pattern already keeps hours, minutes, seconds and offsets in range; only the day needs the calendar.
  const offsetMinutes = m[8] ? (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  // Fractions past the millisecond are cut, never rounded: rounding 23:59:59.9999 would move the day.
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, "0")) : 0;
  const ms = daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + millis;
  // Four-digit years keep this well inside ECMAScript's ±8.64e15 ms: it is always a finite, representable time.
  return { ms };
}

/** A calendar day as the epoch ms of its UTC midnight (Africa/Accra is UTC+0), or why it is not one. */
export function parseCalendarDate(text: string): Parsed {
  const m = DATE_PATTERN.exec(text);
  if (!m) return { problem: DATE_FORMAT_MESSAGE };
  const [year, month, day] = m.slice(1, 4).map(Number) as [number, number, number];
  const wrongDay = dayProblem(year, month, day);
  if (wrongDay) return { problem: wrongDay };
  return { ms: daysFromCivil(year, month, day) * DAY_MS };
}

const transformWith = (parse: (text: string) => Parsed) =>
  v.rawTransform<string, number>(({ dataset, addIssue, NEVER }) => {
    const parsed = parse(dataset.value);
    if ("problem" in parsed) {
      addIssue({ message: parsed.problem });
      return NEVER;
    }
    return parsed.ms;
  });

/** A time field of the API: a string in, epoch ms out. */
export const Instant = (what: string) =>
  v.pipe(
    v.string("must be a string"),
    v.regex(INSTANT_PATTERN, INSTANT_FORMAT_MESSAGE),
    v.description(`${what} RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).`),
    v.examples(["2026-11-23T10:15:00Z", "2026-11-23T11:15:00.250+01:00"]),
    transformWith(parseInstant),
  );

/** A date field of the API: YYYY-MM-DD in, the epoch ms of its midnight (UTC, which is Accra's) out. */
export const CalendarDate = (what: string, examples: string[]) =>
  v.pipe(v.string("must be a string"), v.regex(DATE_PATTERN, DATE_FORMAT_MESSAGE), v.description(what), v.examples(examples), transformWith(parseCalendarDate));

/** For the OpenAPI document: the JSON Schema format a pattern of this module stands for. */
export function formatOfPattern(pattern: string | undefined): "date-time" | "date" | undefined {
  return pattern === INSTANT_PATTERN.source ? "date-time" : pattern === DATE_PATTERN.source ? "date" : undefined;
}

// Display rules of SPEC.md sections 5 and 9. Money arrives as integer pesewas
// and is only turned into text here, at the edge of the UI.
import { isEmpty, parseLooseNumber } from "#app/lib/forms/validation";
import { formatPesewas } from "#server/ledger/money";
import { replaceBrandWords } from "#server/lists/brand-word";

export const TIME_ZONE = "Africa/Accra";
export const NOT_AVAILABLE = "N/A";

export const DATE_FORMATS = {
  /** 21 Nov 2026, 4:05 PM */
  default: "DD MMM YYYY, h:mm A",
  /** 21/11/2026, 4:05 PM */
  numeric: "DD/MM/YYYY, h:mm A",
  /** 21 Nov 2026 */
  day: "DD MMM YYYY",
  /** 21 Nov, 2026 ▪ 4:05 PM */
  stamp: "DD MMM, YYYY ▪ h:mm A",
  /** Nov 21 */
  monthDay: "MMM DD",
} as const;
export type DateFormat = keyof typeof DATE_FORMATS;

/** A UTC instant (ISO string, epoch ms or Date) shown in Africa/Accra. */
export function formatDate(value: string | number | Date | null | undefined, format: DateFormat = "default"): string {
  if (isEmpty(value)) return NOT_AVAILABLE;
  const instant = parseUtc(value);
  if (Number.isNaN(instant.getTime())) return NOT_AVAILABLE;
  // Africa/Accra is UTC+0 all year (no daylight saving since 1942; app/lib/format.test.ts checks the time zone
  // database says so): the fixed offset gives the same text as a time zone lookup, which asks Intl for the offset of
  // every date it formats (a tenth of a millisecond each: 40 ms for a year's report by day).
  return formatAt(new Date(instant.getTime() + ACCRA_UTC_OFFSET_MINUTES * 60_000), DATE_FORMATS[format]);
}

/**
 * Where a date is shown decides how it is written: one of SPEC section 9's formats for each kind of place, so a page
 * reads one way in its tables, one way in its detail fields and one way in its sentences. Screens write a date only
 * through these (tests/unit/date-styles.test.ts refuses any other way under app/).
 */
export const DATE_STYLES = {
  /** A table cell: the day in digits, day first, so a column of dates lines up. */
  table: "numeric",
  /** A field of a detail page (a label and its value). */
  detail: "stamp",
  /** Inside a sentence or a line of text. */
  prose: "default",
} as const satisfies Record<string, DateFormat>;

/** An instant in a table cell: 21/11/2026, 4:05 PM. */
export const tableDate = (value: string | number | Date | null | undefined): string => formatDate(value, DATE_STYLES.table);
/** An instant as a detail page's field: 21 Nov, 2026 ▪ 4:05 PM. */
export const detailDate = (value: string | number | Date | null | undefined): string => formatDate(value, DATE_STYLES.detail);
/** An instant inside a sentence: 21 Nov 2026, 4:05 PM. */
export const proseDate = (value: string | number | Date | null | undefined): string => formatDate(value, DATE_STYLES.prose);

/** A calendar day's YYYY-MM-DD read at its noon, so no offset can move it to another day. */
const dayInstant = (value: string | number | null | undefined) =>
  typeof value === "string" && /^\d{4}-\d{2}(-\d{2})?$/.test(value) ? `${value}${value.length === 7 ? "-15" : ""}T12:00:00Z` : value;

/** A day with no time of day (a period's end, a due day, a report's row), in any place: 21 Nov 2026. */
export const calendarDay = (value: string | number | null | undefined): string => formatDate(dayInstant(value), "day");
/** A month (YYYY-MM or a day in it): Nov 2026. */
export const calendarMonth = (value: string | number | null | undefined): string => calendarDay(value).replace(/^\d{2} /, "");
/** A chart's axis: Nov 21. */
export const axisDay = (value: string | number | null | undefined): string => formatDate(dayInstant(value), "monthDay");
/** What a day field shows and takes, day first: 21/11/2026 (the day of SPEC section 9's 'DD/MM/YYYY, h:mm A'). */
export const fieldDay = (day: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}` : day);

// Parsing and formatting are dayjs's `dayjs.utc(value).format(...)` for the tokens DATE_FORMATS uses, written out so
// that every page's first load does not carry dayjs (decision 043); app/lib/format.test.ts compares the two.
/** dayjs's REGEX_PARSE: a date and time without a zone, read as UTC. */
const NO_ZONE = /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;

function parseUtc(value: string | number | Date): Date {
  if (value instanceof Date) return new Date(value.getTime());
  if (typeof value === "string" && !/Z$/i.test(value)) {
    const parts = NO_ZONE.exec(value);
    if (parts) {
      const [, year, month, day, hour, minute, second, fraction] = parts;
      const ms = (fraction ?? "0").substring(0, 3);
      return new Date(
        Date.UTC(Number(year), Number(month ?? 1) - 1, Number(day || 1), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), Number(ms)),
      );
    }
  }
  return new Date(value);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const pad2 = (n: number) => String(n).padStart(2, "0");

/** The tokens of DATE_FORMATS (YYYY, MMM, MM, DD, h, mm, A) of a date read in UTC. */
function formatAt(date: Date, pattern: string): string {
  return pattern.replace(/YYYY|MMM|MM|DD|h|mm|A/g, (token) => {
    switch (token) {
      case "YYYY":
        return String(date.getUTCFullYear()).padStart(4, "0");
      case "MMM":
        return MONTHS[date.getUTCMonth()]!;
      case "MM":
        return pad2(date.getUTCMonth() + 1);
      case "DD":
        return pad2(date.getUTCDate());
      case "h":
        return String(date.getUTCHours() % 12 || 12);
      case "mm":
        return pad2(date.getUTCMinutes());
      default:
        return date.getUTCHours() < 12 ? "AM" : "PM";
    }
  });
}

/** Africa/Accra's offset from UTC. */
export const ACCRA_UTC_OFFSET_MINUTES = 0;

const GROUP = /\B(?=(\d{3})+(?!\d))/g;
const group = (digits: string) => digits.replace(GROUP, ",");

/**
 * Integer pesewas as cedis with thousands separators and two decimals
 * ("1,234.56"), computed on integers so no float rounding creeps in.
 */
export function formatAmount(pesewas: number | null | undefined, currency?: string): string {
  if (typeof pesewas !== "number" || !Number.isSafeInteger(pesewas)) return NOT_AVAILABLE;
  const amount = formatPesewas(pesewas);
  return currency ? `${currency} ${amount}` : amount;
}

/** A count with thousands separators and no decimals. */
export function formatCount(count: number | null | undefined): string {
  if (typeof count !== "number" || !Number.isFinite(count)) return NOT_AVAILABLE;
  const rounded = Math.round(count);
  return (rounded < 0 ? "-" : "") + group(String(Math.abs(rounded)));
}

/**
 * A percentage, or the fallback ('...' unless given) when the value is empty,
 * not a number, or above 100.
 */
export function formatPercentage(value: string | number | null | undefined, fallback = "..."): string {
  if (typeof value === "string" && value.trim() === "") return fallback;
  const n = parseLooseNumber(value);
  if (!Number.isFinite(n) || n > 100) return fallback;
  const shown = Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  return `${shown}%`;
}

/**
 * A path-like text such as a category 'Retail/Groceries' reads as
 * 'Groceries Retail'; 'N/A' when empty or when it starts with '/ '.
 */
export function formatPathLike(text: string | null | undefined): string {
  if (isEmpty(text) || text.startsWith("/ ")) return NOT_AVAILABLE;
  const parts = text
    .split("/")
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.length === 0 ? NOT_AVAILABLE : parts.reverse().join(" ");
}

/**
 * The network once called Vodafone Cash trades as Telecel Cash: old names in
 * data (network labels, merchant text) are shown with the current brand. The
 * rule is functions/lists/brand-word.ts, which the searches fold by too.
 */
export { replaceBrandWords };

/**
 * A mobile-money network, card scheme or payout provider's name (or a label that
 * carries one, like "MTN 0244123456") as people read it, SPEC section 9's brand
 * word replaced: every column, page and CSV value that writes one goes through here.
 */
export function networkLabel(name: string): string {
  return replaceBrandWords(name);
}

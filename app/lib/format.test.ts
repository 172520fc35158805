import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayValue } from "#app/routes/approvals/request-words";
import { paymentMethod } from "./transactions-view";
import {
  ACCRA_UTC_OFFSET_MINUTES,
  DATE_FORMATS,
  NOT_AVAILABLE,
  TIME_ZONE,
  formatAmount,
  formatCount,
  formatDate,
  formatPathLike,
  formatPercentage,
  networkLabel,
  replaceBrandWords,
  type DateFormat,
} from "./format";

describe("DATE_FORMATS (SPEC 9)", () => {
  it("holds exactly the five formats of SPEC, with the default one", () => {
    expect(DATE_FORMATS).toEqual({
      default: "DD MMM YYYY, h:mm A",
      numeric: "DD/MM/YYYY, h:mm A",
      day: "DD MMM YYYY",
      stamp: "DD MMM, YYYY ▪ h:mm A",
      monthDay: "MMM DD",
    });
  });

  it("shows dates in Africa/Accra", () => {
    expect(TIME_ZONE).toBe("Africa/Accra");
  });

  it("formats with Africa/Accra's offset as the time zone database has it, every month from 1970 to 2040", () => {
    dayjs.extend(utc);
    dayjs.extend(timezone);
    for (let year = 1970; year <= 2040; year += 1) {
      for (let month = 0; month < 12; month += 1) {
        const instant = Date.UTC(year, month, 15, 23, 30);
        expect(dayjs.utc(instant).tz(TIME_ZONE).utcOffset()).toBe(ACCRA_UTC_OFFSET_MINUTES);
        expect(formatDate(instant, "default")).toBe(dayjs.utc(instant).tz(TIME_ZONE).format(DATE_FORMATS.default));
      }
    }
  });
});

describe("formatDate without dayjs (decision 043)", () => {
  // The page's first load no longer carries dayjs; its text must stay exactly dayjs's.
  const viaDayjs = (value: string | number | Date, format: DateFormat) => {
    dayjs.extend(utc);
    const instant = dayjs.utc(value);
    return instant.isValid() ? instant.utcOffset(ACCRA_UTC_OFFSET_MINUTES).format(DATE_FORMATS[format]) : NOT_AVAILABLE;
  };
  const formats = Object.keys(DATE_FORMATS) as DateFormat[];
  const instants = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) });

  it("gives dayjs's text for any instant, as epoch ms, Date and every ISO and SQLite spelling", () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...formats), (ms, format) => {
        const iso = new Date(ms).toISOString();
        for (const value of [ms, new Date(ms), iso, iso.slice(0, -1), iso.slice(0, 19).replace("T", " "), iso.slice(0, 10), iso.slice(0, 16)]) {
          expect(formatDate(value, format)).toBe(viaDayjs(value, format));
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each(["2026-11-21T18:05:00+02:00", "2026-11-21T16:05:00.1234Z", "20261121", "2026/11/21 4:5", "2026-11", "Sat, 21 Nov 2026 16:05:00 GMT"])(
    "reads %s as dayjs does",
    (value) => {
      for (const format of formats) expect(formatDate(value, format)).toBe(viaDayjs(value, format));
    },
  );
});

describe("formatDate in Africa/Accra (UTC+0, no daylight saving)", () => {
  // Fixed UTC instants: Accra shows the same wall-clock time as UTC all year.
  const PM = "2026-11-21T16:05:00Z";
  const BEFORE_MIDNIGHT = "2026-01-01T23:59:00Z";
  const MIDNIGHT = "2026-01-02T00:00:00Z";
  const MORNING = "2026-03-05T09:07:00Z";
  const NOON_IN_JULY = "2026-07-15T12:30:00Z";

  it.each<[string, DateFormat, string]>([
    [PM, "default", "21 Nov 2026, 4:05 PM"],
    [PM, "numeric", "21/11/2026, 4:05 PM"],
    [PM, "day", "21 Nov 2026"],
    [PM, "stamp", "21 Nov, 2026 ▪ 4:05 PM"],
    [PM, "monthDay", "Nov 21"],
    [BEFORE_MIDNIGHT, "default", "01 Jan 2026, 11:59 PM"],
    [BEFORE_MIDNIGHT, "numeric", "01/01/2026, 11:59 PM"],
    [BEFORE_MIDNIGHT, "day", "01 Jan 2026"],
    [BEFORE_MIDNIGHT, "stamp", "01 Jan, 2026 ▪ 11:59 PM"],
    [BEFORE_MIDNIGHT, "monthDay", "Jan 01"],
    [MIDNIGHT, "default", "02 Jan 2026, 12:00 AM"],
    [MIDNIGHT, "day", "02 Jan 2026"],
    [MORNING, "default", "05 Mar 2026, 9:07 AM"],
    [MORNING, "numeric", "05/03/2026, 9:07 AM"],
    [MORNING, "monthDay", "Mar 05"],
    [NOON_IN_JULY, "default", "15 Jul 2026, 12:30 PM"],
    ["2025-12-31T23:59:59.999Z", "day", "31 Dec 2025"],
  ])("%s as %s -> %j", (instant, format, expected) => {
    expect(formatDate(instant, format)).toBe(expected);
  });

  it("uses 'DD MMM YYYY, h:mm A' when no format is given", () => {
    expect(formatDate(PM)).toBe("21 Nov 2026, 4:05 PM");
    expect(formatDate(PM)).toBe(formatDate(PM, "default"));
  });

  it.each([
    ["ISO string with Z", "2026-11-21T16:05:00Z"],
    ["ISO string without offset (read as UTC)", "2026-11-21T16:05:00"],
    ["ISO string with another offset", "2026-11-21T18:05:00+02:00"],
    ["epoch milliseconds", Date.UTC(2026, 10, 21, 16, 5)],
    ["Date", new Date(Date.UTC(2026, 10, 21, 16, 5))],
  ])("accepts a %s", (_label, value) => {
    expect(formatDate(value)).toBe("21 Nov 2026, 4:05 PM");
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["empty string", ""],
    ["blank string", "   "],
    ["text", "not a date"],
    ["NaN", Number.NaN],
    ["invalid Date", new Date("nope")],
  ])("shows N/A for %s", (_label, value) => {
    expect(formatDate(value)).toBe("N/A");
    expect(formatDate(value, "stamp")).toBe(NOT_AVAILABLE);
  });
});

describe("formatAmount (integer pesewas; SPEC 9: thousands separators, two decimals)", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [10, "0.10"],
    [99, "0.99"],
    [100, "1.00"],
    [123_456, "1,234.56"],
    [100_000, "1,000.00"],
    [99_999, "999.99"],
    [123_456_789, "1,234,567.89"],
    [100_000_000_000, "1,000,000,000.00"],
    [-5, "-0.05"],
    [-123_456_789, "-1,234,567.89"],
    [Number.MAX_SAFE_INTEGER, "90,071,992,547,409.91"],
  ])("%s pesewas -> %j", (pesewas, expected) => {
    expect(formatAmount(pesewas)).toBe(expected);
  });

  it("puts a currency before the amount", () => {
    expect(formatAmount(123_456, "GHS")).toBe("GHS 1,234.56");
    expect(formatAmount(-5, "GH₵")).toBe("GH₵ -0.05");
    expect(formatAmount(0, "GHS")).toBe("GHS 0.00");
  });

  it("adds no prefix for an empty currency", () => {
    expect(formatAmount(123_456, "")).toBe("1,234.56");
  });

  it.each([
    ["a fraction of a pesewa", 1.5],
    ["a float cedi amount", 12.34],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["an unsafe integer", Number.MAX_SAFE_INTEGER + 1],
    ["null", null],
    ["undefined", undefined],
    ["a numeric string", "500" as unknown as number],
  ])("shows N/A for %s", (_label, value) => {
    expect(formatAmount(value)).toBe("N/A");
    expect(formatAmount(value, "GHS")).toBe("N/A");
  });
});

describe("formatCount (SPEC 9: thousands separators, no decimals)", () => {
  it.each([
    [0, "0"],
    [7, "7"],
    [999, "999"],
    [1000, "1,000"],
    [1_234_567, "1,234,567"],
    [-1234, "-1,234"],
    [1234.4, "1,234"],
    [1234.6, "1,235"],
    [999.5, "1,000"],
    [-0.4, "0"],
  ])("%s -> %j", (count, expected) => {
    expect(formatCount(count)).toBe(expected);
  });

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], [null], [undefined]])("%s -> N/A", (value) => {
    expect(formatCount(value)).toBe("N/A");
  });
});

describe("formatPercentage (SPEC 5)", () => {
  it.each([
    [0, "0%"],
    [50, "50%"],
    [100, "100%"],
    ["100", "100%"],
    ["99.99", "99.99%"],
    [12.5, "12.5%"],
    ["12.50", "12.5%"],
    [33.333333, "33.33%"],
    [" 50 ", "50%"],
  ])("%j -> %j", (value, expected) => {
    expect(formatPercentage(value)).toBe(expected);
  });

  it.each([
    ["empty string", ""],
    ["blank string", "  "],
    ["null", null],
    ["undefined", undefined],
    ["text", "abc"],
    ["NaN", Number.NaN],
    ["just above 100", 100.01],
    ["101 as text", "101"],
    ["Infinity", Number.POSITIVE_INFINITY],
  ])("shows '...' for %s, or the given fallback", (_label, value) => {
    expect(formatPercentage(value)).toBe("...");
    expect(formatPercentage(value, "N/A")).toBe("N/A");
    expect(formatPercentage(value, "--")).toBe("--");
  });

  it("ignores the fallback when the value can be shown", () => {
    expect(formatPercentage(100, "--")).toBe("100%");
  });
});

describe("formatPathLike (SPEC 5)", () => {
  it.each([
    ["a/b", "b a"],
    ["Retail/Groceries", "Groceries Retail"],
    ["a/b/c", "c b a"],
    ["Retail / Groceries", "Groceries Retail"],
    ["single", "single"],
    ["/x", "x"],
    ["/ x", "N/A"],
    ["/ ", "N/A"],
    ["/", "N/A"],
    ["//", "N/A"],
    ["", "N/A"],
    [null, "N/A"],
    [undefined, "N/A"],
  ])("%j -> %j", (text, expected) => {
    expect(formatPathLike(text)).toBe(expected);
  });
});

describe("replaceBrandWords (SPEC 9: Vodafone is shown as Telecel)", () => {
  it.each([
    ["Vodafone", "Telecel"],
    ["Vodafone Cash", "Telecel Cash"],
    ["VODAFONE CASH", "TELECEL CASH"],
    ["vodafone", "Telecel"],
    ["VodaFone", "Telecel"],
    ["Pay with Vodafone or vodafone cash", "Pay with Telecel or Telecel cash"],
  ])("%j -> %j", (text, expected) => {
    expect(replaceBrandWords(text)).toBe(expected);
  });

  it.each([["MTN Mobile Money"], ["AirtelTigo Money"], ["Telecel Cash"], ["Voda fone"], [""]])("leaves %j unchanged", (text) => {
    expect(replaceBrandWords(text)).toBe(text);
  });
});

describe("networkLabel: a network or provider's name as shown on screens and in CSVs", () => {
  it.each([
    ["Vodafone Cash", "Telecel Cash"],
    ["Vodafone", "Telecel"],
    ["VODAFONE", "TELECEL"],
    ["Vodafone Cash 0244123456", "Telecel Cash 0244123456"],
    ["MTN", "MTN"],
    ["Telecel", "Telecel"],
    ["AirtelTigo", "AirtelTigo"],
    ["VISA", "VISA"],
    ["GCB Bank", "GCB Bank"],
  ])("%j -> %j", (name, expected) => {
    expect(networkLabel(name)).toBe(expected);
  });

  it("is what a payment's channel and an approval's provider say", () => {
    expect(paymentMethod({ channel: "mobile_money", network: "Vodafone Cash" })).toBe("Mobile money · Telecel Cash");
    expect(paymentMethod({ channel: "card", network: "VISA" })).toBe("Card · VISA");
    expect(displayValue("provider", "Vodafone Cash", null)).toBe("Telecel Cash");
  });
});

// The Partner API's one normaliser of times and dates (functions/partner-api/instant.ts, decision 030), by property:
// whatever its schema takes is a finite epoch ms that agrees with an independent reckoning (Date.UTC) and
// round-trips; every day the calendar does not have is refused, never moved to the next month. A time the door once took was never written.
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { CalendarDate, DATE_PATTERN, daysInMonth, Instant, INSTANT_PATTERN, parseCalendarDate, parseInstant } from "./instant";
import { DisputeInput, PaymentInput } from "./schemas";
import { EXAMPLES } from "./openapi";

const InstantSchema = Instant("A time.");
const DateSchema = CalendarDate("A day.", ["2026-12-07"]);

/** The oracle: the calendar as ECMAScript's Date.UTC reckons it (setUTCFullYear, so years 0-99 are not 1900-1999). */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number | null {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  fraction: string;
  zone: { sign: "+" | "-"; hours: number; minutes: number } | "Z";
}

const zone = fc.oneof(
  fc.constant("Z" as const),
  // The zones the world uses at its edges, and every other offset RFC 3339 allows.
  fc.constantFrom({ sign: "+" as const, hours: 14, minutes: 0 }, { sign: "-" as const, hours: 12, minutes: 0 }, { sign: "+" as const, hours: 5, minutes: 45 }),
  fc.record({ sign: fc.constantFrom("+" as const, "-" as const), hours: fc.integer({ min: 0, max: 23 }), minutes: fc.integer({ min: 0, max: 59 }) }),
);

const validParts: fc.Arbitrary<Parts> = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1, max: 9998 }), fc.integer({ min: 2020, max: 2030 }), fc.constantFrom(1900, 2000, 2024, 2028, 2100, 2400)),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 23)),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.oneof(fc.integer({ min: 0, max: 59 }), fc.constant(59)),
    fraction: fc.oneof(fc.constant(""), fc.stringMatching(/^[0-9]{1,9}$/)),
    zone,
  })
  .map((p) => ({ ...p, day: Math.min(p.day, daysInMonth(p.year, p.month)) }));

function written(p: Parts): string {
  const z = p.zone === "Z" ? "Z" : `${p.zone.sign}${pad(p.zone.hours)}:${pad(p.zone.minutes)}`;
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${p.fraction ? `.${p.fraction}` : ""}${z}`;
}

function expectedMs(p: Parts): number {
  const offset = p.zone === "Z" ? 0 : (p.zone.sign === "-" ? -1 : 1) * (p.zone.hours * 60 + p.zone.minutes);
  const millis = p.fraction ? Number(p.fraction.slice(0, 3).padEnd(3, "0")) : 0;
  return utc(p.year, p.month, p.day, p.hour, p.minute, p.second, millis)! - offset * 60_000;
}

describe("times (RFC 3339 date-time)", () => {
  it("every generated real time is taken, as the epoch ms Date.UTC reckons, and round-trips through toISOString", () => {
    fc.assert(
      fc.property(validParts, (parts) => {
        const text = written(parts);
        const parsed = v.safeParse(InstantSchema, text);
        expect(parsed.success, text).toBe(true);
        const ms = parsed.output as number;
        expect(Number.isFinite(ms)).toBe(true);
        expect(ms).toBe(expectedMs(parts));
        // The queue and the database hold ms; the API shows them as toISOString: that text means the same instant.
        const shown = new Date(ms).toISOString();
        if (/^\d{4}-/.test(shown)) expect(parseInstant(shown)).toEqual({ ms });
      }),
      { numRuns: 3000 },
    );
  });

  it("every string the schema's pattern lets through is either a finite time that round-trips or refused for a day the calendar lacks", () => {
    fc.assert(
      fc.property(fc.stringMatching(INSTANT_PATTERN), (text) => {
        const parsed = v.safeParse(InstantSchema, text);
        const [, y, mo, d] = INSTANT_PATTERN.exec(text)!.map(Number);
        const real = utc(y!, mo!, d!) !== null;
        expect(parsed.success, text).toBe(real);
        if (parsed.success) {
          expect(Number.isFinite(parsed.output)).toBe(true);
          const shown = new Date(parsed.output).toISOString();
          if (/^\d{4}-/.test(shown)) expect(v.parse(InstantSchema, shown)).toBe(parsed.output);
        } else {
          expect(parsed.issues[0].message).toMatch(/^has no day \d+ in \w+ \d+ \(it has (28|29|30) days\)$/);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("every impossible day is refused, naming the day, never moved to the next month", () => {
    const impossible = fc
      .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 29, max: 31 }) })
      .filter(({ year, month, day }) => day > daysInMonth(year, month));
    fc.assert(
      fc.property(impossible, zone, ({ year, month, day }, z) => {
        const text = written({ year, month, day, hour: 12, minute: 0, second: 0, fraction: "", zone: z });
        const parsed = v.safeParse(InstantSchema, text);
        expect(parsed.success, text).toBe(false);
        expect(parsed.issues?.[0]?.message).toContain(`has no day ${day}`);
        expect(v.safeParse(DateSchema, text.slice(0, 10)).success).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("leap days: 29 February in leap years only (2024, 2000, 2400 yes; 2026, 2100, 1900 no)", () => {
    for (const year of [2024, 2028, 2000, 2400]) expect(v.safeParse(InstantSchema, `${year}-02-29T00:00:00Z`).success, String(year)).toBe(true);
    for (const year of [2026, 2027, 2100, 1900]) expect(v.safeParse(InstantSchema, `${year}-02-29T00:00:00Z`).success, String(year)).toBe(false);
  });

  it.each([
    ["2026-11-25T11:15:13+01", "a zone of hours alone (Date.parse gave NaN)"],
    ["2026-11-25T11:15:13 +00:00", "a space before the zone (Date.parse gave NaN)"],
    ["2026-11-25T11:15:13+0100", "a zone without its colon"],
    ["2026-11-25 11:15:13Z", "a space for the T"],
    ["2026-11-25t11:15:13z", "lower-case t and z"],
    ["2026-11-25T11:15Z", "no seconds"],
    ["2026-11-25T11:15:13", "no zone"],
    ["2026-11-25T24:00:00Z", "hour 24"],
    ["2026-12-31T23:59:60Z", "a leap second"],
    ["2026-11-25T11:15:13+24:00", "an offset past 23:59"],
    ["2026-11-25T11:15:13.Z", "a point without a fraction"],
    ["2026-11-25T11:15:13.1234567890Z", "ten digits of fraction"],
    ["+02026-11-25T11:15:13Z", "an extended year"],
    ["2026-13-01T00:00:00Z", "month 13"],
    ["2026-00-10T00:00:00Z", "month 0"],
    ["2026-11-00T00:00:00Z", "day 0"],
  ])("refuses %s (%s) with the format's words", (text) => {
    const parsed = v.safeParse(InstantSchema, text);
    expect(parsed.success).toBe(false);
    expect(parsed.issues?.[0]?.message).toMatch(/^must be a time like 2026-11-23T10:15:00Z/);
  });

  it("a fraction is cut to the millisecond, not rounded (23:59:59.9999 stays on its day)", () => {
    expect(v.parse(InstantSchema, "2026-12-31T23:59:59.9999Z")).toBe(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(v.parse(InstantSchema, "2026-11-25T12:15:13.5+01:00")).toBe(Date.UTC(2026, 10, 25, 11, 15, 13, 500));
    expect(v.parse(InstantSchema, "2026-11-25T00:30:00-12:00")).toBe(Date.UTC(2026, 10, 25, 12, 30));
    expect(v.parse(InstantSchema, "2026-11-25T00:30:00+14:00")).toBe(Date.UTC(2026, 10, 24, 10, 30));
  });
});

describe("dates (YYYY-MM-DD)", () => {
  it("every string the pattern lets through is the UTC midnight of a real day, or refused", () => {
    fc.assert(
      fc.property(fc.stringMatching(DATE_PATTERN), (text) => {
        const [y, m, d] = text.split("-").map(Number) as [number, number, number];
        const expected = utc(y, m, d);
        expect(parseCalendarDate(text)).toEqual(expected === null ? { problem: expect.stringMatching(/^has no day/) } : { ms: expected });
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the schemas use it", () => {
  it("occurred_at 2026-09-31 is refused, not 1 October; the +01 and space forms are refused, not a NaN later", () => {
    for (const [occurredAt, words] of [
      ["2026-09-31T10:00:00Z", "has no day 31 in September 2026 (it has 30 days)"],
      ["2026-11-25T11:15:13+01", "must be a time like"],
      ["2026-11-25T11:15:13 +00:00", "must be a time like"],
    ] as const) {
      const parsed = v.safeParse(PaymentInput, { ...EXAMPLES.cardPayment, occurred_at: occurredAt });
      expect(parsed.success).toBe(false);
      expect(parsed.issues?.map((issue) => [issue.path?.map((p) => p.key).join("."), issue.message])).toEqual([
        ["occurred_at", expect.stringContaining(words)],
      ]);
    }
  });

  it("evidence_due_by 2027-02-30 is refused, not 2 March; 2028-02-29 is the midnight of that day", () => {
    const refused = v.safeParse(DisputeInput, { ...EXAMPLES.dispute, evidence_due_by: "2027-02-30" });
    expect(refused.issues?.[0]?.message).toBe("has no day 30 in February 2027 (it has 28 days)");
    expect(v.parse(DisputeInput, { ...EXAMPLES.dispute, evidence_due_by: "2028-02-29" }).evidence_due_by).toBe(Date.UTC(2028, 1, 29));
  });
});

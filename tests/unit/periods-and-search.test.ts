// The money lists' period and search rules, at their edges.
import { describe, expect, it } from "vitest";
import { MAX_RANGE_DAYS, resolveRange } from "#app/lib/date-range";
import { isCalendarDay, parseCedis } from "#app/lib/forms/validation";

const NOW = Date.parse("2026-11-21T15:30:00Z");
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

describe("isCalendarDay", () => {
  it.each(["2026-02-28", "2024-02-29", "2026-12-31", "2000-01-01"])("%s is a day", (value) => expect(isCalendarDay(value)).toBe(true));
  it.each(["2026-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "2026-1-1", "26-11-21", "", "2026-11-21T00:00", "1999-12-31", "2101-01-01"])(
    "%j is not",
    (value) => expect(isCalendarDay(value)).toBe(false),
  );
});

describe("resolveRange (Africa/Accra days)", () => {
  it("quick ranges end tonight at midnight and start on whole days", () => {
    expect(resolveRange({ range: "today" }, NOW)).toMatchObject({ from: day("2026-11-21"), to: day("2026-11-22"), error: null });
    expect(resolveRange({ range: "7d" }, NOW)).toMatchObject({ fromDay: "2026-11-15", toDay: "2026-11-21" });
    expect(resolveRange({ range: "30d" }, NOW)).toMatchObject({ fromDay: "2026-10-23", toDay: "2026-11-21" });
    expect(resolveRange({ range: "month" }, NOW)).toMatchObject({ fromDay: "2026-11-01", toDay: "2026-11-21" });
  });

  it("reads typed days day first, as a form sent before the script loaded carries them", () => {
    expect(resolveRange({ range: "custom", from: "05/03/2026", to: "7/3/2026" }, NOW)).toMatchObject({
      fromDay: "2026-03-05",
      toDay: "2026-03-07",
      error: null,
    });
    expect(resolveRange({ range: "custom", from: "31/02/2026", to: "07/03/2026" }, NOW).error).toBe("Enter both days as real dates (DD/MM/YYYY).");
  });

  it("no or an unknown range is the fallback", () => {
    expect(resolveRange({}, NOW).range).toBe("7d");
    expect(resolveRange({ range: "forever" }, NOW, "30d").range).toBe("30d");
  });

  it("typed days include the whole last day", () => {
    expect(resolveRange({ range: "custom", from: "2026-03-01", to: "2026-03-31" }, NOW)).toMatchObject({
      from: day("2026-03-01"),
      to: day("2026-04-01"),
      error: null,
    });
  });

  it(`refuses impossible, reversed and longer-than-${MAX_RANGE_DAYS}-day periods, keeping 'custom' selected`, () => {
    expect(resolveRange({ range: "custom", from: "2026-02-30", to: "2026-03-01" }, NOW)).toMatchObject({
      range: "custom",
      fromDay: "2026-11-15",
      error: "Enter both days as real dates (DD/MM/YYYY).",
    });
    expect(resolveRange({ range: "custom", from: "2026-03-02", to: "2026-03-01" }, NOW).error).toBe("The first day must not be after the last day.");
    expect(resolveRange({ range: "custom", from: "2025-01-01", to: "2026-01-02" }, NOW).error).toBe(`Choose at most ${MAX_RANGE_DAYS} days.`);
    expect(resolveRange({ range: "custom", from: "2025-01-01", to: "2026-01-01" }, NOW).error).toBeNull();
  });
});

describe("parseCedis", () => {
  it.each([
    ["1,250", 125_000],
    ["1,250.5", 125_050],
    ["1250.50", 125_050],
    ["0.75", 75],
    ["GHS 12", 1_200],
    ["1,234,567.89", 123_456_789],
  ])("%s is %d pesewas", (typed, pesewas) => expect(parseCedis(typed)).toBe(pesewas));
  it.each(["", "12.345", "1,2,3", "12,34", "abc", "-5", "1e3", ".5", "1 000"])("%j is not an amount", (typed) => expect(parseCedis(typed)).toBeNull());
});

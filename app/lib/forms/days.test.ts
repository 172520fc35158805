import { describe, expect, it } from "vitest";
import { parseDay, typedDay } from "./days";

describe("parseDay: a day typed day first (SPEC section 9), whatever the browser's language", () => {
  it.each([
    ["07/03/2026", "2026-03-07"],
    ["7/3/2026", "2026-03-07"],
    ["07-03-2026", "2026-03-07"],
    ["07.03.2026", "2026-03-07"],
    ["07032026", "2026-03-07"],
    [" 7 Mar 2026 ", "2026-03-07"],
    ["07 March 2026", "2026-03-07"],
    ["29/02/2028", "2028-02-29"],
    ["2026-03-07", "2026-03-07"],
  ])("reads %j as %s (the 7th of March, never the 3rd of July)", (typed, day) => {
    expect(parseDay(typed)).toEqual({ day });
  });

  it.each([
    ["31/02/2026", "There is no 31 Feb 2026: Feb 2026 has 28 days."],
    ["31/04/2026", "There is no 31 Apr 2026: Apr 2026 has 30 days."],
    ["00/03/2026", "There is no 0 Mar 2026: Mar 2026 has 31 days."],
    ["07/13/2026", "There is no month 13: write the day as DD/MM/YYYY, day first."],
    ["07/03/1999", "Choose a day between the years 2000 and 2100."],
    ["7 Mai 2026", "There is no month mai: write the day as DD/MM/YYYY, day first."],
    ["tomorrow", "Write the day as DD/MM/YYYY, day first, e.g. 21/11/2026."],
    ["", "Write the day as DD/MM/YYYY, day first, e.g. 21/11/2026."],
  ])("refuses %j with a message a person can act on", (typed, error) => {
    expect(parseDay(typed)).toEqual({ error });
  });

  it("gives the text back as it came when it is no day, for the check after it to refuse", () => {
    expect(typedDay("31/02/2026")).toBe("31/02/2026");
    expect(typedDay("01/12/2026")).toBe("2026-12-01");
    expect(typedDay(undefined)).toBe("");
  });
});

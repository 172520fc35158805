import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CRON_LINES, cronInWords, schedulesOf } from "./jobs";

describe("cronInWords", () => {
  it("says the portal's crons as the Jobs screen always has", () => {
    expect(cronInWords("*/5 * * * *")).toBe("Every 5 minutes");
    expect(cronInWords("0 6 * * *")).toBe("Daily at 06:00");
  });

  it("says every 'every N minutes' and every daily time, and shows any other cron as written", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 23 }), (n, minute, hour) => {
        expect(cronInWords(`*/${n} * * * *`)).toBe(`Every ${n} minutes`);
        const at = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
        expect(cronInWords(`${minute} ${hour} * * *`)).toBe(`Daily at ${at}`);
        expect(cronInWords(`${minute} ${hour} * * 1`)).toBe(`${minute} ${hour} * * 1`);
      }),
    );
    expect(cronInWords("*/1 * * * *")).toBe("Every minute");
    for (const other of ["60 6 * * *", "0 24 * * *", "*/0 * * * *", "0 6 1 * *", "", "0  6 * * *"]) expect(cronInWords(other)).toBe(other);
  });

  it("has words for every cron the portal runs, so the Jobs screen never shows a bare cron", () => {
    for (const cron of Object.keys(CRON_LINES)) expect(cronInWords(cron), cron).not.toBe(cron);
    expect(schedulesOf("clearing")).toEqual(["Every 5 minutes", "Daily at 06:00"]);
  });
});

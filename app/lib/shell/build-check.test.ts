import { describe, expect, it } from "vitest";
import {
  BUILD_CHECK_INTERVAL_MS,
  BUILD_CHECK_INTERVAL_OVERRIDE,
  RELOAD_GUARD_MS,
  isNewerBuild,
  latestBuildUrl,
  pollInterval,
  reloadAllowed,
} from "./build-check";

describe("constants (SPEC 9)", () => {
  it("polls every hour", () => {
    expect(BUILD_CHECK_INTERVAL_MS).toBe(3_600_000);
  });

  it("guards reloads for 10000 ms", () => {
    expect(RELOAD_GUARD_MS).toBe(10000);
  });

  it("names the test-only override window property", () => {
    expect(BUILD_CHECK_INTERVAL_OVERRIDE).toBe("__PP_BUILD_CHECK_INTERVAL_MS__");
  });
});

describe("latestBuildUrl (SPEC 7: builds/latest.json with a timestamp query)", () => {
  it.each([
    [0, "/builds/latest.json?t=0"],
    [1_767_225_600_000, "/builds/latest.json?t=1767225600000"],
  ])("at %s -> %s", (now, expected) => {
    expect(latestBuildUrl(now)).toBe(expected);
  });

  it("carries the timestamp in a t parameter", () => {
    const url = new URL(latestBuildUrl(123456), "https://portal.example");
    expect(url.pathname).toBe("/builds/latest.json");
    expect(url.searchParams.get("t")).toBe("123456");
  });

  it("differs between polls so no cache answers", () => {
    expect(latestBuildUrl(1000)).not.toBe(latestBuildUrl(1001));
  });
});

describe("isNewerBuild (SPEC 5: the latest-build id compared with the current id)", () => {
  it.each([
    ["null", null, false],
    ["undefined", undefined, false],
    ["an empty string", "", false],
    ["the same id", "build-a", false],
    ["another id", "build-b", true],
    ["the same id in other case", "BUILD-A", true],
    ["a number", 42, false],
    ["an object", { id: "build-b" }, false],
    ["an array", ["build-b"], false],
    ["a boolean", true, false],
  ])("latest id is %s -> %s", (_label, latest, expected) => {
    expect(isNewerBuild("build-a", latest)).toBe(expected);
  });
});

describe("reloadAllowed (SPEC 9: a 10000 ms guard)", () => {
  const now = 1_700_000_000_000;

  it.each([
    ["never reloaded", null, true],
    ["just now", now, false],
    ["1 ms ago", now - 1, false],
    ["9999 ms ago", now - 9999, false],
    ["10000 ms ago", now - 10000, true],
    ["10001 ms ago", now - 10001, true],
    ["an hour ago", now - 3_600_000, true],
    ["NaN (unreadable)", Number.NaN, true],
    ["Infinity (unreadable)", Number.POSITIVE_INFINITY, true],
  ])("last reload %s -> %s", (_label, last, expected) => {
    expect(reloadAllowed(last, now)).toBe(expected);
  });

  it("is measured from the last reload, at the guard's exact edge", () => {
    expect(reloadAllowed(0, RELOAD_GUARD_MS - 1)).toBe(false);
    expect(reloadAllowed(0, RELOAD_GUARD_MS)).toBe(true);
  });
});

describe("pollInterval", () => {
  it.each([
    ["no override", undefined, 3_600_000],
    ["null", null, 3_600_000],
    ["a short override", 5000, 5000],
    ["the 100 ms minimum", 100, 100],
    ["just below the minimum", 99, 3_600_000],
    ["zero", 0, 3_600_000],
    ["a negative number", -5000, 3_600_000],
    ["NaN", Number.NaN, 3_600_000],
    ["Infinity", Number.POSITIVE_INFINITY, 3_600_000],
    ["a numeric string", "5000", 3_600_000],
    ["an object", { ms: 5000 }, 3_600_000],
    ["exactly one hour", 3_600_000, 3_600_000],
    // The override may only make the poll more frequent, never less (SPEC 9: every hour).
    ["longer than an hour", 7_200_000, 3_600_000],
  ])("%s -> %s", (_label, override, expected) => {
    expect(pollInterval(override)).toBe(expected);
  });
});

describe("reloadAllowed when the clock was set back", () => {
  it("allows a reload rather than waiting for the clock to catch up", () => {
    expect(reloadAllowed(1_000_000, 400_000)).toBe(true);
  });
});

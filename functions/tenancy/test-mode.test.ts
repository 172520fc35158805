import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTestBusiness, keyModeOf, liveBusinessOf, testBusinessOf } from "./test-mode";
import { BusinessIdHeader } from "../partner-api/credential";
import * as v from "valibot";

const businessId = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);

describe("a business's test business", () => {
  it("is the live id and ~test, goes back to its live id, and is never a live business", () => {
    fc.assert(
      fc.property(businessId, (live) => {
        const test = testBusinessOf(live);
        expect(isTestBusiness(live)).toBe(false);
        expect(isTestBusiness(test)).toBe(true);
        expect(liveBusinessOf(test)).toBe(live);
        expect(liveBusinessOf(live)).toBe(live);
        // A test business has no test business of its own.
        expect(testBusinessOf(test)).toBe(test);
        expect(keyModeOf(live)).toBe("live");
        expect(keyModeOf(test)).toBe("test");
      }),
    );
  });

  it("cannot be named in PP-Business, so no platform key reaches test data", () => {
    fc.assert(
      fc.property(businessId, (live) => {
        expect(v.is(BusinessIdHeader, testBusinessOf(live))).toBe(false);
      }),
    );
    expect(testBusinessOf("bus_kumasi_fresh_foods")).toBe("bus_kumasi_fresh_foods~test");
  });
});

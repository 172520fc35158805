import { describe, expect, it } from "vitest";
import { railName, railSummary, railViewOf } from "./rails";

const none = { rail: null, railReference: null, railStatus: null, railWaitingSince: null };

describe("a rail as the screens show it", () => {
  it("names each rail in the business's words, and an unknown one as it was stored", () => {
    expect(railName("switch")).toBe("Acquirer switch");
    expect(railName("paystack")).toBe("Paystack");
    expect(railName("simulator")).toBe("Simulator");
    expect(railName("Ɔman-rail 😊")).toBe("Ɔman-rail 😊");
    expect(railName(null)).toBeNull();
    expect(railName("  ")).toBeNull();
  });

  it("is nothing for an order no rail answered, and never the word null", () => {
    expect(railViewOf(none)).toBeNull();
    expect(railViewOf({ ...none, railReference: "null", railStatus: "" })).toBeNull();
    expect(railSummary(null)).toBeNull();
  });

  it("keeps the rail's reference and status word as given, and says since when it waits in Africa/Accra", () => {
    const view = railViewOf({ rail: "switch", railReference: "sw_Vodafone-1", railStatus: "processing", railWaitingSince: "2026-11-21T16:05:00.000Z" });
    expect(view).toEqual({ name: "Acquirer switch", reference: "sw_Vodafone-1", status: "processing", waitingSince: "21 Nov 2026, 4:05 PM" });
    expect(railSummary(view)).toBe("Acquirer switch · processing");
    expect(railViewOf({ ...none, rail: "switch", railWaitingSince: "not a time" })).toEqual({
      name: "Acquirer switch",
      reference: null,
      status: null,
      waitingSince: null,
    });
  });
});

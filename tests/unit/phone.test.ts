import { describe, expect, it } from "vitest";
import { ghanaMsisdn } from "../../app/lib/phone";

describe("ghanaMsisdn", () => {
  it("turns the local, short and international forms into 233XXXXXXXXX", () => {
    expect(ghanaMsisdn("0244123456")).toBe("233244123456");
    expect(ghanaMsisdn("244123456")).toBe("233244123456");
    expect(ghanaMsisdn("233244123456")).toBe("233244123456");
    expect(ghanaMsisdn(" 024 412 3456 ")).toBe("233244123456");
    expect(ghanaMsisdn("0244-123456")).toBe("233244123456");
  });

  it("refuses what fails SPEC section 5's rule or is not a Ghana number", () => {
    for (const bad of ["", "12345678", "+233244123456", "0244abc456", "1234567890123", "024-412-3456", "1244123456", "044123456", "233-24412"]) {
      expect(ghanaMsisdn(bad), bad).toBeNull();
    }
  });
});

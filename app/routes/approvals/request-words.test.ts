import { describe, expect, it } from "vitest";
import { APPROVAL_KINDS } from "#server/approvals/change-kinds";
import { KIND_BY_SLUG, KIND_SLUGS, columnLabel, displayValue, kindName } from "./request-words";

describe("request kinds in URLs", () => {
  it("every engine kind has a hyphenated slug that maps back to it", () => {
    for (const kind of APPROVAL_KINDS) expect(KIND_BY_SLUG[KIND_SLUGS[kind]]).toBe(kind);
    expect(KIND_SLUGS.point_of_sale).toBe("point-of-sale");
    expect(KIND_BY_SLUG.point_of_sale).toBeUndefined();
  });

  it("names the transfer kind", () => {
    expect(kindName("transfer")).toBe("Transfer");
  });
});

describe("values as a person reads them", () => {
  it("labels columns and names coded values; empty is N/A", () => {
    expect(columnLabel("contact_name")).toBe("Contact person");
    expect(columnLabel("some_new_column")).toBe("Some new column");
    expect(displayValue("is_primary", 1, null)).toBe("Yes");
    expect(displayValue("kind", "mobile_money", null)).toBe("Mobile money");
    expect(displayValue("status", "deactivated", null)).toBe("Deactivated");
    expect(displayValue("merchant_id", "mer_1", "Adum Foods")).toBe("Adum Foods");
    expect(displayValue("merchant_id", "mer_1", null)).toBe("mer_1");
    expect(displayValue("town", "", null)).toBe("N/A");
    expect(displayValue("town", null, null)).toBe("N/A");
  });
});

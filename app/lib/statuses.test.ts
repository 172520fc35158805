import { describe, expect, it } from "vitest";
import { paymentStatus, statusClass, statusLabel, statusLabels } from "./statuses";

describe("statuses read the same on every screen", () => {
  it("approval pills: pending waits, approved is good, rejected is bad, stale is plain", () => {
    expect(statusClass("approval", "pending")).toBe("status status--wait");
    expect(statusClass("approval", "approved")).toBe("status status--good");
    expect(statusClass("approval", "rejected")).toBe("status status--bad");
    expect(statusClass("approval", "stale")).toBe("status");
  });

  it("names each entity's statuses in words", () => {
    expect(statusLabel("terminal", "in_stock")).toBe("In stock");
    expect(statusLabel("transaction", "reversed")).toBe("Reversed");
    expect(statusLabel("transfer", "pending_approval")).toBe("Waiting for approval");
    expect(statusLabel("settlement", "failed")).toBe("Failed, will retry");
    expect(statusLabel("employee", "invited")).toBe("Invited");
    expect(statusClass("terminal", "faulty")).toBe("status status--bad");
    expect(statusClass("merchant", "inactive")).toBe("status");
  });

  it("lists every status of an entity in order, for filters and CSVs", () => {
    expect(statusLabels("terminal")).toEqual({
      in_stock: "In stock",
      assigned: "Assigned",
      active: "Active",
      blocked: "Blocked",
      faulty: "Faulty",
      retired: "Retired",
    });
    // The last two are how a successful payment with refunds reads (paymentStatus), not statuses a payment is stored with.
    expect(Object.keys(statusLabels("transaction"))).toEqual(["successful", "failed", "reversed", "partially_refunded", "refunded"]);
  });

  it("a successful payment with approved refunds reads Partially refunded, then Refunded", () => {
    expect(paymentStatus({ status: "successful", amount: 1_000 })).toBe("successful");
    expect(paymentStatus({ status: "successful", amount: 1_000, refunded: 1 })).toBe("partially_refunded");
    expect(paymentStatus({ status: "successful", amount: 1_000, refunded: 1_000 })).toBe("refunded");
    expect(paymentStatus({ status: "reversed", amount: 1_000, refunded: 0 })).toBe("reversed");
    expect(statusLabel("transaction", "partially_refunded")).toBe("Partially refunded");
  });
});

import { describe, expect, it } from "vitest";
import { approvalPath, paths } from "#app/lib/paths";
import { pageAt } from "../support/route-pages";

describe("paths to the SPEC screens", () => {
  it("builds each screen's path from its ids", () => {
    expect(paths.merchant("mer_kff_0001")).toBe("/merchants/mer_kff_0001");
    expect(paths.addPointOfSale("mer_kff_0001")).toBe("/merchants/mer_kff_0001/add-point-of-sale");
    expect(paths.pointOfSale("mer_kff_0001", "pos_kff_0002")).toBe("/merchants/mer_kff_0001/point-of-sale/pos_kff_0002");
    expect(paths.device("ter_0007")).toBe("/pos-terminals/device-details/ter_0007");
    expect(paths.transferHistory("mer_1")).toBe("/money/merchant-accounts/transfer-history/mer_1");
  });

  it("gives each approval kind its URL word, and transfers their own page", () => {
    expect(paths.approval("merchant", "apr_1")).toBe("/approvals/merchant/apr_1");
    expect(paths.approval("point_of_sale", "apr_2")).toBe("/approvals/point-of-sale/apr_2");
    expect(paths.approval("settlement_account", "apr_3")).toBe("/approvals/settlement-account/apr_3");
    expect(paths.approval("employee", "apr_4")).toBe("/approvals/employee/apr_4");
    expect(paths.approval("transfer", "apr_5")).toBe("/approvals/transfer/apr_5");
  });

  it("a kind read from data links only when it has a page", () => {
    expect(approvalPath("settlement_account", "apr_1")).toBe("/approvals/settlement-account/apr_1");
    expect(approvalPath("transfer", "apr_2")).toBe("/approvals/transfer/apr_2");
    expect(approvalPath("refund", "apr_3")).toBe("/approvals/refund/apr_3");
    expect(approvalPath("no_such_kind", "apr_3")).toBeNull();
    expect(approvalPath("toString", "apr_4")).toBeNull();
  });

  it("keeps an id inside its own segment", () => {
    expect(paths.merchant("a/../settings")).toBe("/merchants/a%2F..%2Fsettings");
    expect(paths.device("x?tab=team#y")).toBe("/pos-terminals/device-details/x%3Ftab%3Dteam%23y");
    expect(paths.pointOfSale("m 1", "Ɔkɔm😀")).toBe(`/merchants/m%201/point-of-sale/${encodeURIComponent("Ɔkɔm😀")}`);
    expect(paths.approval("employee", "a/b")).toBe("/approvals/employee/a%2Fb");
  });

  it("puts filters and tabs in the query, leaving out empty ones", () => {
    expect(paths.terminals()).toBe("/pos-terminals");
    expect(paths.terminals({ merchant: "mer_1" })).toBe("/pos-terminals?merchant=mer_1");
    expect(paths.terminals({ silent: "1" })).toBe("/pos-terminals?silent=1");
    expect(paths.terminals({ merchant: "a&b=c" })).toBe("/pos-terminals?merchant=a%26b%3Dc");
    expect(paths.device("ter_1", { assignMerchant: "mer_2" })).toBe("/pos-terminals/device-details/ter_1?assignMerchant=mer_2");
    expect(paths.device("ter_1", { assignMerchant: "" })).toBe("/pos-terminals/device-details/ter_1");
    expect(paths.settings()).toBe("/settings");
    expect(paths.settings("profile")).toBe("/settings");
    expect(paths.settings("team")).toBe("/settings?tab=team");
    expect(paths.settings("security")).toBe("/settings?tab=security");
    expect(paths.settings("developers")).toBe("/settings?tab=developers");
    expect(paths.transactions({ merchant: "mer_1" })).toBe("/transactions?merchant=mer_1");
    expect(paths.merchantFunds({ merchant: "a&b" })).toBe("/money/merchant-funds?merchant=a%26b");
    expect(paths.settlements({ merchant: "mer_1" })).toBe("/money/settlement-history?merchant=mer_1");
    expect(paths.settlement("stl_1")).toBe("/money/settlement-history?s=stl_1");
    expect(paths.transactions()).toBe("/transactions");
    expect(paths.confirmApiKey("roll", "key_1")).toBe("/settings?tab=developers&confirm=roll&key=key_1#confirm-key-title");
    expect(paths.confirmApiKey("revoke", "a&b#c")).toBe("/settings?tab=developers&confirm=revoke&key=a%26b%23c#confirm-key-title");
  });

  it("every path it builds reaches a screen, not the 404 route", async () => {
    const built = [
      paths.merchant("m"),
      paths.pointOfSale("m", "p"),
      paths.device("d"),
      paths.approval("merchant", "a"),
      paths.approval("point_of_sale", "a"),
      paths.approval("settlement_account", "a"),
      paths.approval("employee", "a"),
      paths.transferHistory("m"),
      paths.settings("team"),
      paths.terminals({ merchant: "m" }),
      paths.transactions({ merchant: "m" }),
      paths.merchantFunds({ merchant: "m" }),
      paths.settlements({ merchant: "m" }),
      paths.settlement("s"),
    ];
    for (const path of built) expect((await pageAt(path.split("?")[0]!)).routeId, path).not.toBe("routes/not-found");
  });
});

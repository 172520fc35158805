import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { approvalPath, paths } from "#app/lib/paths";
import { platformPaths } from "#app/lib/platform-paths";
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

describe("paths to the platform's screens", () => {
  it("builds each of them", () => {
    expect(platformPaths.platform()).toBe("/platform");
    expect(platformPaths.platform({ shard: "SHARD_2" })).toBe("/platform?shard=SHARD_2");
    expect(platformPaths.platformBusiness("bus_kff")).toBe("/platform/businesses/bus_kff");
    expect(platformPaths.platformBusinessLifecycle("bus_kff")).toBe("/platform/businesses/bus_kff/lifecycle");
    expect(platformPaths.platformOnboarding()).toBe("/platform/businesses/new");
    expect(platformPaths.platformJobs()).toBe("/platform/jobs");
    expect(platformPaths.platformQueues()).toBe("/platform/queues");
    expect(platformPaths.platformShards()).toBe("/platform/shards");
    expect(platformPaths.platformKeys()).toBe("/platform/keys");
    expect(platformPaths.platformRequests()).toBe("/platform/requests");
    expect(platformPaths.platformRequests("waiting")).toBe("/platform/requests");
    expect(platformPaths.platformRequests("decided")).toBe("/platform/requests?view=decided");
    expect(platformPaths.platformRequest("preq_1")).toBe("/platform/requests/preq_1");
  });

  it("keeps any id inside its own segment and any shard name inside its parameter", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), (id) => {
        for (const [built, prefix, suffix] of [
          [platformPaths.platformBusiness(id), "/platform/businesses/", ""],
          [platformPaths.platformBusinessLifecycle(id), "/platform/businesses/", "/lifecycle"],
          [platformPaths.platformRequest(id), "/platform/requests/", ""],
        ] as const) {
          expect(built.startsWith(prefix) && built.endsWith(suffix)).toBe(true);
          const segment = built.slice(prefix.length, built.length - suffix.length);
          expect(segment).not.toMatch(/[/?#]/);
          expect(decodeURIComponent(segment)).toBe(id);
        }
        const url = new URL(platformPaths.platform({ shard: id }), "https://portal.example");
        expect([url.pathname, url.searchParams.get("shard"), url.hash]).toEqual(["/platform", id, ""]);
      }),
    );
  });

  it("every one reaches its screen, not the 404 route", async () => {
    const built = [
      platformPaths.platform(),
      platformPaths.platformBusiness("b"),
      platformPaths.platformBusinessLifecycle("b"),
      platformPaths.platformOnboarding(),
      platformPaths.platformJobs(),
      platformPaths.platformQueues(),
      platformPaths.platformShards(),
      platformPaths.platformKeys(),
      platformPaths.platformRequests(),
      platformPaths.platformRequest("r"),
    ];
    for (const link of built) expect((await pageAt(link.split("?")[0]!)).routeId, link).not.toBe("routes/not-found");
    expect((await pageAt(platformPaths.platformOnboarding())).routeId).toBe("routes/platform.businesses.new");
  });

  // A link written out by hand is where an id goes unencoded (a business id with "/" or "?" would leave its segment)
  // and where a renamed screen is missed: every link to a platform screen is built by paths.
  it("is how app/ writes every link to them: no module spells one out", () => {
    const app = path.resolve(__dirname, "../../app");
    const modules = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) return modules(file);
        return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
      });
    const literal = /["'`]\/platform(?=[/?#"'`]|$)/m;
    const spelled = modules(app)
      .filter(
        (file) =>
          ![path.join("lib", "paths.ts"), path.join("lib", "shell", "navigation.ts"), path.join("lib", "platform-paths.ts")].includes(path.relative(app, file)),
      )
      .filter((file) => literal.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(app, file));
    expect(spelled).toEqual([]);
  });
});

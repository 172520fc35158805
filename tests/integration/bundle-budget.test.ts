// A size budget, not a timing: every route's client JavaScript stays under
// 150 kB gzip so the portal loads on a weak mobile connection.
import { describe, expect, it } from "vitest";
import { ROUTE_JS_BUDGET_BYTES, routeBundles } from "../../scripts/bench/bundle-size";

describe("client JavaScript per route", () => {
  const bundles = routeBundles();

  it("covers every route of the build", () => {
    expect(bundles.map((b) => b.routeId)).toEqual(expect.arrayContaining(["routes/dev.ui", "routes/not-found"]));
  });

  it.each(bundles.map((b) => [b.path, b] as const))("%s is under budget", (_path, bundle) => {
    expect(bundle.gzipBytes).toBeGreaterThan(40 * 1024); // React alone is more: the measurement is real
    expect(bundle.gzipBytes).toBeLessThanOrEqual(ROUTE_JS_BUDGET_BYTES);
  });
});

// The Partner API (functions/partner-api/) is a door onto the domains, never a room they lean on: a domain that records
// an event makes its data with the webhooks (functions/webhooks/views.ts), not with the API, and writes nothing
// through the API's machinery. What the door and the events both publish (the shapes of the API's answers and events,
// and the dated versions) is the contract any room may read. The graph counts `import type` too (scripts/import-cycles.ts).
import { describe, expect, it } from "vitest";
import { importGraph } from "../../scripts/import-cycles";

const DOOR = "functions/partner-api/";

/** The shapes and versions the API and the webhooks publish alike: pure, no request is read or answered in them. */
const CONTRACT = ["schemas.ts", "list-schemas.ts", "event-schemas.ts", "versions.ts"].map((name) => DOOR + name);

/**
 * What may go through the door: the Worker's entry, which mounts it; a domain's own operations of the API
 * (`<domain>/partner-api.ts`, rows of functions/partner-api/operations.ts kept with the domain they act on); the
 * scheduler, which runs the door's daily clean-up among every room's; and the store of the switch's platform keys,
 * which are the door's credentials kept with the platform's staff who make them.
 */
const doorways = (module: string) =>
  module === "functions/worker.ts" ||
  /^functions\/[\w-]+\/partner-api\.ts$/.test(module) ||
  module === "functions/operators/jobs.ts" ||
  module === "functions/operators/platform-keys.db.ts";

/** Every arrow from a module of functions/ outside the door into it, tests left out. */
function arrowsIntoTheDoor(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([from, imports]) =>
    from.startsWith("functions/") && !from.startsWith(DOOR) && !/\.test\.tsx?$/.test(from)
      ? imports.filter((to) => to.startsWith(DOOR)).map((to) => `${from} -> ${to}`)
      : [],
  );
}

const refused = (arrows: string[]) =>
  arrows.filter((arrow) => {
    const [from, to] = arrow.split(" -> ") as [string, string];
    return !doorways(from) && !CONTRACT.includes(to);
  });

describe("no domain imports the Partner API", () => {
  it("finds an arrow into the door from a domain, and lets the contract and the doorways through", () => {
    const graph = new Map([
      ["functions/approvals/approvals.db.ts", ["functions/webhooks/views.ts", "functions/partner-api/views.ts"]],
      ["functions/webhooks/views.ts", ["functions/partner-api/schemas.ts"]],
      ["functions/payments/partner-api.ts", ["functions/partner-api/kept-answers.ts"]],
      ["functions/disputes/disputes.db.ts", ["functions/partner-api/api-idempotency.db.ts"]],
      ["functions/partner-api/router.ts", ["functions/payments/partner-api.ts"]],
      ["functions/worker.ts", ["functions/partner-api/router.ts"]],
      ["functions/payments/consumer.test.ts", ["functions/partner-api/router.ts"]],
    ]);
    expect(refused(arrowsIntoTheDoor(graph))).toEqual([
      "functions/approvals/approvals.db.ts -> functions/partner-api/views.ts",
      "functions/disputes/disputes.db.ts -> functions/partner-api/api-idempotency.db.ts",
    ]);
  });

  it("holds for functions/: the webhook payload views are the webhooks', and no domain module reaches the door's machinery", () => {
    const graph = importGraph();
    const arrows = arrowsIntoTheDoor(graph);
    // The door is still reached, through its doorways: the test sees the real graph.
    expect(arrows).toContain("functions/worker.ts -> functions/partner-api/router.ts");
    expect(graph.get("functions/payments/consumer.ts")).toContain("functions/webhooks/views.ts");
    expect(refused(arrows)).toEqual([]);
  }, 60_000);
});

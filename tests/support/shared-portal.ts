import { rmSync } from "node:fs";
import { beforeAll } from "vitest";
import { startPortal, type Portal } from "./portal";
import { TEMPLATE_STATE } from "./state";
import { useBusinessDatabases } from "./tenants";

/**
 * One portal per vitest worker, started from the seeded template by the first file that asks and kept until the worker
 * ends, for the files that only read the seed or write only in a business, or rows, of their own (decision 003). A file
 * that writes to the seeded businesses, counts what every file may add (sessions, audit lines, limits per address),
 * or needs its own vars, consumers or clock keeps its own portal (usePortal).
 *
 * Integration files share their worker's module cache (vitest's isolate: false), so this module, and the portal,
 * outlive each file.
 */
let shared: Promise<Portal> | undefined;

export function useSharedPortal(): () => Portal {
  let portal: Portal | undefined;
  beforeAll(async () => {
    shared ??= startPortal({ template: TEMPLATE_STATE }).then((started) => {
      // Miniflare stops workerd when the worker process exits; the portal's copy of the template goes with it.
      process.once("exit", () => rmSync(started.stateDir, { recursive: true, force: true }));
      return started;
    });
    const started = await shared;
    portal = started;
    // A file before this one in the same worker may have started a portal of its own: the tenant helpers follow this one.
    useBusinessDatabases((businessId) => started.businessDb(businessId));
  });
  return () => {
    if (!portal) throw new Error("The portal is not started yet (use it inside a test).");
    return portal;
  };
}

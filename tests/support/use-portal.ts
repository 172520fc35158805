import { afterAll, beforeAll } from "vitest";
import { startPortal, type Portal, type PortalOptions } from "./portal";
import { TEMPLATE_STATE } from "./state";

/**
 * A portal for the enclosing describe (or file), started from the seeded template.
 * Options may be a function, run in the portal's beforeAll, for options known
 * only then (e.g. vars naming a server that test hooks start first).
 */
export function usePortal(options: PortalOptions | (() => PortalOptions | Promise<PortalOptions>) = {}): () => Portal {
  let portal: Portal | undefined;
  beforeAll(async () => {
    portal = await startPortal({ template: TEMPLATE_STATE, ...(typeof options === "function" ? await options() : options) });
  });
  afterAll(() => portal?.dispose());
  return () => {
    if (!portal) throw new Error("The portal is not started yet (use it inside a test).");
    return portal;
  };
}

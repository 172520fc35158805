import type { FullConfig } from "./env";
import type { RequestDatabases } from "./tenancy/shards";
import type { RequestTiming } from "./plumbing/timing";

export interface PortalLoadContext {
  cloudflare: { env: Env; ctx: ExecutionContext };
  /** Every setting, parsed once per env (configOf): the same object the queue and cron handlers are handed. */
  config: FullConfig;
  /** Quoted to users on error pages and written with every server log line. */
  requestId: string;
  /** CSP nonce for this document's inline scripts. */
  nonce: string;
  /** The business databases this request reads and writes, through D1 sessions (functions/tenancy/shards.ts). */
  databases: RequestDatabases;
  /** Where this request's time goes (Server-Timing); null unless SERVER_TIMING is on. */
  timing: RequestTiming | null;
  /**
   * The portal's 403 page as a whole document, for resource routes opened in the browser (a CSV export): drawn by the
   * UI's own entry (app/entry.server.tsx), so its words and look are the shell's 403 page's, and the server keeps none.
   */
  forbiddenDocument: (message: string) => string;
}

declare module "@remix-run/cloudflare" {
  // Loaders and actions reach bindings only through this context.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends PortalLoadContext {}
}

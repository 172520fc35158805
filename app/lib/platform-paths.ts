// Every link, redirect and form action to a platform staff's screen (decision 039), ids encoded: the platform's half
// of the URL builder (paths.ts is the business's). Apart so that a business's pages, which never link here, do not
// carry these builders in their first load (decision 043's budget).
const segment = (id: string) => encodeURIComponent(id);
const platform = {
  overview: "/platform",
  businesses: "/platform/businesses",
  jobs: "/platform/jobs",
  queues: "/platform/queues",
  shards: "/platform/shards",
  requests: "/platform/requests",
  keys: "/platform/keys",
} as const;

export const platformPaths = {
  /** The platform's overview of every business, optionally of the businesses on one database (shard). */
  platform: ({ shard }: { shard?: string } = {}) => (shard ? `${platform.overview}?shard=${segment(shard)}` : platform.overview),
  platformBusiness: (businessId: string) => `${platform.businesses}/${segment(businessId)}`,
  /** A business's standing: suspend, reactivate or close it. */
  platformBusinessLifecycle: (businessId: string) => `${platformPaths.platformBusiness(businessId)}/lifecycle`,
  /** The form that onboards a new business. */
  platformOnboarding: () => `${platform.businesses}/new`,
  platformJobs: () => platform.jobs,
  platformQueues: () => platform.queues,
  platformShards: () => platform.shards,
  platformKeys: () => platform.keys,
  /** The platform's requests, those waiting for a decision or those decided. */
  platformRequests: (view: "waiting" | "decided" = "waiting") => (view === "decided" ? `${platform.requests}?view=decided` : platform.requests),
  platformRequest: (requestId: string) => `${platform.requests}/${segment(requestId)}`,
};

// The statuses the approvals queue filters by (and its CSV): pending unless asked, "all" for every status.
export const STATUS_FILTERS = ["pending", "approved", "rejected", "stale", "all"] as const;

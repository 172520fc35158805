import { type RouteConfig, index, route } from "@remix-run/route-config";

// One folder per feature under routes/; a route module is a `*.route.ts(x)` file, listed here, and everything else in
// the folder is a section module it renders or a `.server.ts` module its loader and action call (decision 036).
// Each route keeps the id it had as a flat file: tests, the build manifest and the bundle budget name routes by id.
// Each page's title (meta) and layout (handle) are in its own module. Until a screen exists its path is unknown and
// falls through to the 404 route at the end.
export default [
  index("routes/dashboard/dashboard.route.tsx", { id: "routes/_index" }),

  // Sign-in: /login (work account, Google) and the unique-email steps.
  route("login", "routes/auth/login.route.tsx", { id: "routes/login" }),
  route("auth/oidc/:provider/start", "routes/auth/oidc-start.route.ts", { id: "routes/auth.oidc.start" }),
  route("auth/oidc/:provider/callback", "routes/auth/oidc-callback.route.tsx", { id: "routes/auth.oidc.callback" }),
  route("login-option", "routes/auth/login-option.route.tsx", { id: "routes/login-option" }),
  route("authenticate", "routes/auth/authenticate.route.tsx", { id: "routes/authenticate" }),
  route("authenticate/verify", "routes/auth/authenticate-verify.route.tsx", { id: "routes/authenticate.verify" }),
  // Passkeys: the JSON calls of signing in with one and adding one.
  route("authenticate/passkey", "routes/auth/authenticate-passkey.route.ts", { id: "routes/authenticate.passkey" }),
  route("select-business", "routes/auth/select-business.route.tsx", { id: "routes/select-business" }),
  route("logout", "routes/auth/logout.route.ts", { id: "routes/logout" }),
  route("auth/check", "routes/auth/check.route.ts", { id: "routes/auth.check" }),

  // Approvals: the maker-checker queue and one page per request kind.
  route("approvals", "routes/approvals/list.route.tsx", { id: "routes/approvals" }),
  route("approvals/export", "routes/approvals/export.route.ts", { id: "routes/approvals.export" }),
  route("approvals/:kind/:id", "routes/approvals/request.route.tsx", { id: "routes/approvals.request" }),
  // The two money requests share one page; each URL keeps its own route id.
  route("approvals/transfer/:id", "routes/approvals/money-request.route.tsx", { id: "routes/approvals.transfer" }),
  route("approvals/refund/:id", "routes/approvals/money-request.route.tsx", { id: "routes/approvals.refund" }),

  // Merchants and their settlement accounts: adding a merchant, and one
  // merchant's page, where edits, deactivations and settlement accounts are requested.
  route("merchants", "routes/merchants/list.route.tsx", { id: "routes/merchants" }),
  route("merchants/export", "routes/merchants/export.route.ts", { id: "routes/merchants.export" }),
  route("merchants/add-merchant", "routes/merchants/add-merchant.route.tsx", { id: "routes/merchants.add-merchant" }),
  route("merchants/:merchantId", "routes/merchants/detail.route.tsx", { id: "routes/merchants.$merchantId" }),
  route("merchants/:merchantId/point-of-sale/:branchId", "routes/merchants/point-of-sale.route.tsx", { id: "routes/merchants.point-of-sale" }),
  route("merchants/:merchantId/add-point-of-sale", "routes/merchants/add-point-of-sale.route.tsx", { id: "routes/merchants.add-point-of-sale" }),

  route("pos-terminals", "routes/pos-terminals/list.route.tsx", { id: "routes/pos-terminals" }),
  route("pos-terminals/export", "routes/pos-terminals/export.route.ts", { id: "routes/pos-terminals.export" }),
  route("pos-terminals/device-details/:deviceId", "routes/pos-terminals/device-details.route.tsx", { id: "routes/pos-terminals.device-details" }),

  route("money/merchant-accounts", "routes/money/merchant-accounts.route.tsx", { id: "routes/money.merchant-accounts" }),
  route("money/merchant-accounts/export", "routes/money/merchant-accounts-export.route.ts", { id: "routes/money.merchant-accounts.export" }),
  route("money/merchant-accounts/transfer-history/:merchantId", "routes/money/transfer-history.route.tsx", { id: "routes/money.transfer-history" }),
  route("money/merchant-accounts/transfer-history/:merchantId/export", "routes/money/transfer-history-export.route.ts", {
    id: "routes/money.transfer-history.export",
  }),
  route("money/merchant-funds", "routes/money/merchant-funds.route.tsx", { id: "routes/money.merchant-funds" }),
  route("money/merchant-funds/export", "routes/money/merchant-funds-export.route.ts", { id: "routes/money.merchant-funds.export" }),
  route("money/settlement-history", "routes/money/settlement-history.route.tsx", { id: "routes/money.settlement-history" }),
  route("money/settlement-history/export", "routes/money/settlement-history-export.route.ts", { id: "routes/money.settlement-history.export" }),

  // Disputes: the list, one dispute, and its evidence files.
  route("disputes", "routes/disputes/list.route.tsx", { id: "routes/disputes._index" }),
  route("disputes/export", "routes/disputes/export.route.ts", { id: "routes/disputes.export" }),
  route("disputes/:disputeId", "routes/disputes/dispute.route.tsx", { id: "routes/disputes.$disputeId" }),
  route("disputes/:disputeId/evidence/:evidenceId", "routes/disputes/evidence.route.ts", { id: "routes/disputes.evidence" }),

  route("transactions", "routes/transactions/list.route.tsx", { id: "routes/transactions" }),
  route("transactions/export", "routes/transactions/export.route.ts", { id: "routes/transactions.export" }),
  // The cold archive: an archived month's CSV.
  route("transactions/archive/:month", "routes/transactions/archive-month.route.ts", { id: "routes/transactions.archive.$month" }),
  // Refunds: asked from a payment, decided as the sixth kind of request.
  route("transactions/:transactionId/refund", "routes/transactions/refund.route.tsx", { id: "routes/transactions.refund" }),

  // The top bar's search box: every kind the person may view, found from one text (JSON).
  route("search", "routes/search/search.route.ts", { id: "routes/search" }),

  route("reports", "routes/reports/reports.route.tsx", { id: "routes/reports" }),
  route("reports/export", "routes/reports/export.route.ts", { id: "routes/reports.export" }),

  route("settings", "routes/settings/settings.route.tsx", { id: "routes/settings" }),
  // Notifications (decision 053): the bell's list, a notice's link, an email's unsubscribe link.
  route("notifications", "routes/notifications/list.route.tsx", { id: "routes/notifications" }),
  route("notifications/:id/open", "routes/notifications/open.route.ts", { id: "routes/notifications.open" }),
  route("notifications/unsubscribe/:token", "routes/notifications/unsubscribe.route.tsx", { id: "routes/notifications.unsubscribe" }),
  // Settings > Audit: the filtered audit log as CSV.
  route("settings/audit/export", "routes/settings/audit-export.route.ts", { id: "routes/settings.audit.export" }),
  // Settings > Developers: a webhook endpoint's delivery log.
  route("settings/developers/endpoints/:endpointId", "routes/settings/developers/delivery-log.route.tsx", {
    id: "routes/settings.developers.endpoints.$endpointId",
  }),
  // The Partner API's reference.
  route("developers/api", "routes/developers/api-reference.route.tsx", { id: "routes/developers.api" }),

  // The platform's own screens, for its staff only (decision 039).
  route("platform", "routes/platform/overview.route.tsx", { id: "routes/platform" }),
  route("platform/businesses/:businessId", "routes/platform/business.route.tsx", { id: "routes/platform.businesses.$businessId" }),
  route("platform/jobs", "routes/platform/jobs.route.tsx", { id: "routes/platform.jobs" }),
  route("platform/queues", "routes/platform/queues.route.tsx", { id: "routes/platform.queues" }),
  route("platform/shards", "routes/platform/shards.route.tsx", { id: "routes/platform.shards" }),
  route("platform/requests", "routes/platform/requests.route.tsx", { id: "routes/platform.requests" }),
  route("platform/requests/:id", "routes/platform/request.route.tsx", { id: "routes/platform.request" }),
  route("platform/businesses/:businessId/lifecycle", "routes/platform/business-lifecycle.route.tsx", { id: "routes/platform.business-lifecycle" }),
  route("platform/businesses/new", "routes/platform/onboard.route.tsx", { id: "routes/platform.businesses.new" }),
  // A business's logo, for its people and the platform's staff.
  route("logos/:businessId", "routes/platform/logo.route.ts", { id: "routes/logos.$businessId" }),
  // The switch's platform keys.
  route("platform/keys", "routes/platform/keys.route.tsx", { id: "routes/platform.keys" }),

  // Resource routes outside any screen. Analytics: POST /api/events, and POST /api/events/replay for operators.
  route("api/events/:op?", "routes/api/events.route.ts", { id: "routes/api.events" }),
  route("builds/latest.json", "routes/api/builds-latest.route.ts", { id: "routes/builds.latest" }),

  // Development tools (404s in production); the outbox holds the one-time codes sign-in sent.
  route("__dev/ui", "routes/dev/ui.route.tsx", { id: "routes/dev.ui" }),
  route("__dev/events", "routes/dev/events.route.tsx", { id: "routes/dev.events" }),
  route("__dev/outbox", "routes/dev/outbox.route.tsx", { id: "routes/dev.outbox" }),
  route("__dev/outbox/email/:id", "routes/dev/outbox-email.route.ts", { id: "routes/dev.outbox.email" }),

  route("*", "routes/errors/not-found.route.tsx", { id: "routes/not-found" }),
] satisfies RouteConfig;

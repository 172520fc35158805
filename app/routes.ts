import { type RouteConfig, index, route } from "@remix-run/route-config";

// Screens are added here as they are built (app/lib/route-table.ts holds the
// SPEC route table: titles, layouts and navigation). Until a screen exists its
// path is unknown and falls through to the 404 routes at the end.
export default [
  route("builds/latest.json", "routes/builds.latest.ts"),
  route("__dev/ui", "routes/dev.ui.tsx"),
  // Analytics: POST /api/events, and POST /api/events/replay for operators.
  route("api/events/:op?", "routes/api.events.ts"),
  route("__dev/events", "routes/dev.events.tsx"),
  // Sign-in: the dev outbox of one-time codes (a 404 in production).
  route("__dev/outbox", "routes/dev.outbox.tsx"),
  // Sign-in: /login (work account, Google) and the unique-email steps.
  route("login", "routes/login.tsx"),
  route("auth/oidc/:provider/start", "routes/auth.oidc.start.ts"),
  route("auth/oidc/:provider/callback", "routes/auth.oidc.callback.tsx"),
  route("login-option", "routes/login-option.tsx"),
  route("authenticate", "routes/authenticate.tsx"),
  route("authenticate/verify", "routes/authenticate.verify.tsx"),
  // Passkeys: the JSON calls of signing in with one and adding one.
  route("authenticate/passkey", "routes/authenticate.passkey.ts"),
  route("select-business", "routes/select-business.tsx"),
  route("logout", "routes/logout.ts"),
  route("auth/check", "routes/auth.check.ts"),
  route("settings", "routes/settings.tsx"),
  // Settings > Audit: the filtered audit log as CSV.
  route("settings/audit/export", "routes/settings.audit.export.ts"),
  // Settings > Developers: a webhook endpoint's delivery log.
  route("settings/developers/endpoints/:endpointId", "routes/settings.developers.endpoints.$endpointId.tsx"),
  // Operations screens.
  route("merchants", "routes/merchants._index.tsx", { id: "routes/merchants" }),
  route("merchants/export", "routes/merchants.export.ts"),
  index("routes/_index.tsx"),
  // Money and transactions.
  route("transactions", "routes/transactions._index.tsx", { id: "routes/transactions" }),
  route("transactions/export", "routes/transactions.export.ts"),
  // The cold archive: an archived month's CSV.
  route("transactions/archive/:month", "routes/transactions.archive.$month.ts"),
  route("money/merchant-accounts", "routes/money.merchant-accounts.tsx"),
  route("money/merchant-funds", "routes/money.merchant-funds.tsx"),
  route("money/settlement-history", "routes/money.settlement-history.tsx"),
  // The two money requests share one page; each URL keeps its own route id.
  route("approvals/transfer/:id", "routes/approvals.money-request.tsx", { id: "routes/approvals.transfer" }),
  // Refunds: asked from a payment, decided as the sixth kind of request.
  route("transactions/:transactionId/refund", "routes/transactions.refund.tsx"),
  route("approvals/refund/:id", "routes/approvals.money-request.tsx", { id: "routes/approvals.refund" }),
  route("reports", "routes/reports.tsx"),
  route("reports/export", "routes/reports.export.ts"),
  route("money/merchant-accounts/transfer-history/:merchantId", "routes/money.transfer-history.tsx"),
  // Approvals: the maker-checker queue and one page per request kind.
  route("approvals", "routes/approvals._index.tsx", { id: "routes/approvals" }),
  route("approvals/:kind/:id", "routes/approvals.$kind.$id.tsx", { id: "routes/approvals.request" }),
  // Merchants and their settlement accounts: adding a merchant, and one
  // merchant's page, where edits, deactivations and settlement accounts are requested.
  route("merchants/add-merchant", "routes/merchants.add-merchant.tsx"),
  route("merchants/:merchantId", "routes/merchants.$merchantId.tsx"),
  // Points of sale and POS terminals.
  route("merchants/:merchantId/point-of-sale/:branchId", "routes/merchants.point-of-sale.tsx"),
  route("merchants/:merchantId/add-point-of-sale", "routes/merchants.add-point-of-sale.tsx"),
  route("pos-terminals", "routes/pos-terminals._index.tsx", { id: "routes/pos-terminals" }),
  route("pos-terminals/export", "routes/pos-terminals.export.ts"),
  route("pos-terminals/device-details/:deviceId", "routes/pos-terminals.device-details.tsx"),
  // The Partner API's reference.
  route("developers/api", "routes/developers.api.tsx"),
  // Disputes: the list, one dispute, and its evidence files.
  route("disputes", "routes/disputes._index.tsx"),
  route("disputes/:disputeId", "routes/disputes.$disputeId.tsx"),
  route("disputes/:disputeId/evidence/:evidenceId", "routes/disputes.evidence.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;

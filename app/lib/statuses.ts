// How every status reads (on screen and in CSVs) and the tone of its pill: one
// map per entity, so a status reads the same on every list and page.
import type { Lifecycle } from "#server/operators/businesses.db";
import type { ApprovalStatus } from "#server/approvals/change-kinds";
import type { DisputeStatus } from "#server/disputes/dispute-rules";
import type { Employee } from "#server/team/employees.db";
import type { Merchant } from "#server/merchants/merchants.db";
import type { RefundStatus } from "#server/refunds/refunds.db";
import type { PointOfSale } from "#server/merchants/points-of-sale.db";
import type { SettlementAccount } from "#server/settlement/settlement-accounts.db";
import type { Settlement } from "#server/settlement/settlements.db";
import type { TerminalStatus } from "#server/merchants/terminals.db";
import type { Transaction } from "#server/payments/transactions.db";
import type { Transfer } from "#server/ledger/transfers.db";
import type { WebhookDeliveryStatus } from "#server/webhooks/delivery-log.db";
import type { WebhookEndpointStatus } from "#server/webhooks/endpoints.db";

/** An API key's state, read from its revoked and expiry times (app/routes/settings/developers/developers.server.ts). */
export type ApiKeyStatus = "active" | "rolled" | "expired" | "revoked";

type Tone = "good" | "bad" | "wait" | "plain";
type Statuses<S extends string> = Record<S, readonly [label: string, tone: Tone]>;

const ACTIVE_OR_NOT = { active: ["Active", "good"], inactive: ["Inactive", "plain"] } as const;

const STATUSES = {
  // A successful payment with refunds reads by what went back (paymentStatus below).
  transaction: {
    successful: ["Successful", "good"],
    failed: ["Failed", "bad"],
    reversed: ["Reversed", "wait"],
    partially_refunded: ["Partially refunded", "wait"],
    refunded: ["Refunded", "plain"],
  } satisfies Statuses<Transaction["status"] | "partially_refunded" | "refunded">,
  refund: {
    pending_approval: ["Waiting for approval", "wait"],
    rejected: ["Rejected", "bad"],
    sending: ["Sending to the payer", "wait"],
    succeeded: ["Refunded", "good"],
    failed: ["Failed, money returned", "bad"],
  } satisfies Statuses<RefundStatus>,
  terminal: {
    in_stock: ["In stock", "plain"],
    assigned: ["Assigned", "wait"],
    active: ["Active", "good"],
    blocked: ["Blocked", "bad"],
    faulty: ["Faulty", "bad"],
    retired: ["Retired", "plain"],
  } satisfies Statuses<TerminalStatus>,
  merchant: ACTIVE_OR_NOT satisfies Statuses<Merchant["status"]>,
  point_of_sale: ACTIVE_OR_NOT satisfies Statuses<PointOfSale["status"]>,
  settlement_account: ACTIVE_OR_NOT satisfies Statuses<SettlementAccount["status"]>,
  employee: { active: ["Active", "good"], invited: ["Invited", "wait"], deactivated: ["Deactivated", "bad"] } satisfies Statuses<Employee["status"]>,
  transfer: {
    pending_approval: ["Waiting for approval", "wait"],
    rejected: ["Rejected", "bad"],
    completed: ["Completed", "good"],
    failed: ["Failed", "bad"],
  } satisfies Statuses<Transfer["status"]>,
  settlement: { pending: ["Paying out", "wait"], paid: ["Paid", "good"], failed: ["Failed, will retry", "bad"] } satisfies Statuses<Settlement["status"]>,
  // A rolled key's pill reads "Expires <time>" (app/routes/settings/developers/developers.tsx): the label here is its word alone.
  api_key: {
    active: ["Active", "good"],
    rolled: ["Expires", "wait"],
    expired: ["Expired", "plain"],
    revoked: ["Revoked", "bad"],
  } satisfies Statuses<ApiKeyStatus>,
  approval: {
    pending: ["Pending", "wait"],
    approved: ["Approved", "good"],
    rejected: ["Rejected", "bad"],
    stale: ["Stale", "plain"],
  } satisfies Statuses<ApprovalStatus>,
  webhook_endpoint: { enabled: ["Enabled", "good"], disabled: ["Disabled", "bad"] } satisfies Statuses<WebhookEndpointStatus>,
  webhook_delivery: { pending: ["Pending", "wait"], delivered: ["Delivered", "good"], failed: ["Failed", "bad"] } satisfies Statuses<WebhookDeliveryStatus>,
  business: { active: ["Active", "good"], suspended: ["Suspended", "bad"], closed: ["Closed", "plain"] } satisfies Statuses<Lifecycle>,
  dispute: {
    open: ["Open", "wait"],
    submitted: ["Response submitted", "plain"],
    won: ["Won", "good"],
    lost: ["Lost", "bad"],
  } satisfies Statuses<DisputeStatus>,
} as const;

export type StatusEntity = keyof typeof STATUSES;
export type StatusOf<E extends StatusEntity> = keyof (typeof STATUSES)[E] & string;

function entry<E extends StatusEntity>(entity: E, status: StatusOf<E>): readonly [string, Tone] {
  return (STATUSES[entity] as Statuses<string>)[status] ?? [status, "plain"];
}

export function statusLabel<E extends StatusEntity>(entity: E, status: StatusOf<E>): string {
  return entry(entity, status)[0];
}

/** The pill's classes: `status`, with `status--good`, `--bad` or `--wait` for its tone. */
export function statusClass<E extends StatusEntity>(entity: E, status: StatusOf<E>): string {
  const tone = entry(entity, status)[1];
  return tone === "plain" ? "status" : `status status--${tone}`;
}

/** Every status of the entity with its label, in the map's order (filter choices, CSV values). */
export function statusLabels<E extends StatusEntity>(entity: E): Record<StatusOf<E>, string> {
  return Object.fromEntries(Object.entries(STATUSES[entity] as Statuses<string>).map(([status, [label]]) => [status, label])) as Record<StatusOf<E>, string>;
}

/** How a payment reads: a successful one with refunds approved (sending or done) is "Partially refunded" or "Refunded". */
export function paymentStatus(payment: { status: Transaction["status"]; amount: number; refunded?: number }): StatusOf<"transaction"> {
  const refunded = payment.refunded ?? 0;
  if (payment.status !== "successful" || refunded <= 0) return payment.status;
  return refunded >= payment.amount ? "refunded" : "partially_refunded";
}

// What each webhook event's `data` holds (decision 044), per dated version: one schema per event type and
// version, from which the OpenAPI document's `webhooks` section is generated (the current version's), and against
// which the integration tests check every event the portal wrote and every delivery it made, in the delivery's
// endpoint's version (tests/support/event-payloads.ts), so the document cannot say one thing while the portal sends
// another. From 2026-12-01 every event's data is the object it is about as GET answers it (payment.* the payment,
// settlement.* the settlement, refund.* the refund, dispute.* the dispute, terminal.silent the terminal), and
// transfers and approval requests, which have no GET, in the same snake_case. 2026-11-27 keeps the shapes the portal
// sent before versions existed: payment.* as now, dispute.* as { dispute }, the others camelCase. The one place that
// turns one into the other is functions/webhooks/event-versions.ts.
import * as v from "valibot";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../webhooks/types";
import { DisputeView, PaymentView } from "./schemas";
import { RefundListItem, SettlementView, TerminalView } from "./list-schemas";
import type { ApiVersion } from "./versions";

const Time = (what: string) => v.pipe(v.string(), v.description(`${what} ISO 8601 in UTC.`));
const Pesewas = (what: string) => v.pipe(v.number(), v.integer(), v.description(`${what} Pesewas.`));
const Nullable = <T extends v.GenericSchema>(schema: T, what: string) => v.pipe(v.nullable(schema), v.description(what));
const Ghs = v.literal("GHS");

// ------------------------------------------------------------------------------------- 2026-12-01 (the current one)

/** A transfer as its transfer.* events carry it from 2026-12-01 (there is no GET of a transfer). */
export const TransferView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The transfer's id (trf_...).")),
    from_merchant: v.pipe(v.string(), v.description("The merchant whose available balance the money left.")),
    to_merchant: Nullable(v.string(), "The merchant the money went to, for a transfer between merchants; else null."),
    to_settlement_account: Nullable(v.string(), "The merchant's settlement account the money was paid out to, for a payout; else null."),
    settlement: Nullable(
      v.string(),
      "For an approved payout, the settlement that pays it out (GET /api/v1/settlements; settlement.paid and settlement.failed follow); else null.",
    ),
    amount: Pesewas("The amount moved (or that was to be)."),
    currency: Ghs,
    narration: Nullable(v.string(), "The line its asker wrote for the checker and the statement (at most 100 characters); null when none."),
    status: v.pipe(v.picklist(["completed", "rejected"]), v.description("completed: approved and the money moved; rejected: nothing moved.")),
    reason: Nullable(v.string(), "Why it was rejected, in the words of the person who rejected it; null unless rejected."),
    requested_by: Nullable(v.string(), "Who asked for it (a person's id)."),
    requested_at: Time("When it was asked for."),
    decided_by: Nullable(v.string(), "Who approved or rejected it (a person's id)."),
    decided_at: Time("When it was decided."),
  }),
  v.description("A transfer of a merchant's money, decided by a second person."),
);
export type TransferView = v.InferOutput<typeof TransferView>;

/** An approval request as approval.requested carries it from 2026-12-01 (there is no GET of one). */
export const ApprovalRequestView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The approval request's id (apr_... or req_...).")),
    kind: v.pipe(v.string(), v.description("What it changes: merchant, point_of_sale, terminal, settlement_account, employee, transfer or refund.")),
    action: v.pipe(v.string(), v.description("create, update, deactivate…")),
    target: Nullable(v.string(), "The id of what it changes (a transfer's or refund's id for those kinds); null when it makes something new."),
    maker: v.pipe(v.string(), v.description("Who asked (a person's id): a refund asked through the Partner API is asked in the name of the key's maker.")),
    made_at: Time("When it was asked."),
  }),
  v.description("A change someone asked for that another person must approve in the portal."),
);
export type ApprovalRequestView = v.InferOutput<typeof ApprovalRequestView>;

const OLDER = "Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md).";

/** Each event type's `data` in the current version, with what it means (the OpenAPI document's `webhooks`). */
export const EVENT_DATA = {
  "payment.succeeded": [PaymentView, "A payment succeeded: the payment as GET /api/v1/payments/{reference} answers it (without its refunds)."],
  "payment.failed": [PaymentView, "A payment failed: the payment, with fee and net 0 (nothing was charged or is owed)."],
  "payment.reversed": [PaymentView, "A payment was reversed: the payment, with its reversal."],
  "settlement.paid": [
    SettlementView,
    `A settlement was paid out to the merchant's settlement account: the settlement as GET /api/v1/settlements lists it. ${OLDER}`,
  ],
  "settlement.failed": [
    SettlementView,
    `A payout attempt of a settlement failed: the settlement as GET /api/v1/settlements lists it (status failed; the portal tries again while attempts is under 5). ${OLDER}`,
  ],
  "transfer.approved": [TransferView, `A transfer of a merchant's money was approved and made. ${OLDER}`],
  "transfer.rejected": [TransferView, `A transfer request was rejected: no money moved. ${OLDER}`],
  "refund.succeeded": [RefundListItem, `A refund reached the payer: the refund as GET /api/v1/refunds/{id} answers it. ${OLDER}`],
  "refund.failed": [
    RefundListItem,
    `A refund failed for good; its money is back in the merchant's available balance: the refund as GET /api/v1/refunds/{id} answers it. ${OLDER}`,
  ],
  "approval.requested": [ApprovalRequestView, `Someone asked for a change that another person must approve in the portal. ${OLDER}`],
  "terminal.silent": [
    TerminalView,
    `A terminal in service has not been seen for 24 hours (once per silence): the terminal as GET /api/v1/terminals lists it. ${OLDER}`,
  ],
  "dispute.opened": [
    DisputeView,
    `A dispute was opened on a payment (its amount is held from the merchant): the dispute as GET /api/v1/disputes/{id} answers it (without its evidence). ${OLDER}`,
  ],
  "dispute.closed": [DisputeView, `A dispute was closed, won (the hold returns) or lost (the amount leaves): the dispute, as GET answers it. ${OLDER}`],
} as const satisfies Record<WebhookEventType, readonly [v.GenericSchema, string]>;

// --------------------------------------------------------------------------------------------------------- 2026-11-27

const settlementFacts = {
  id: v.pipe(v.string(), v.description("The settlement's id (stl_...).")),
  reference: v.pipe(v.string(), v.description("The settlement's reference, as the merchant's statement shows it.")),
  net: Pesewas("What was paid out (or was to be)."),
  currency: Ghs,
  attempt: v.pipe(v.number(), v.integer(), v.description("Which payout attempt this is about (1 first).")),
};
const SettlementPaidEvent = v.object({ settlement: v.object({ ...settlementFacts, paidAt: Time("When the rail confirmed the payout.") }) });
const SettlementFailedEvent = v.object({
  settlement: v.object({
    ...settlementFacts,
    error: v.pipe(v.string(), v.description("Why the attempt failed, as the rail said.")),
    willRetry: v.pipe(v.boolean(), v.description("Whether the portal will try again (at most 5 attempts).")),
  }),
});

const TransferEvent = v.object({
  transfer: v.object({
    id: v.string(),
    fromMerchantId: v.string(),
    toMerchantId: v.nullable(v.string()),
    toSettlementAccountId: v.nullable(v.string()),
    amount: Pesewas("The amount moved."),
    currency: Ghs,
    status: v.pipe(v.picklist(["completed", "rejected"]), v.description("completed: approved and the money moved; rejected: nothing moved.")),
    requestedBy: v.nullable(v.string()),
    decidedBy: v.nullable(v.string()),
    decidedAt: Time("When it was decided."),
    reason: v.optional(v.pipe(v.string(), v.description("Why it was rejected."))),
  }),
});

const refundFacts = {
  id: v.pipe(v.string(), v.description("The refund's id (rfd_...).")),
  paymentReference: v.string(),
  amount: Pesewas("The amount refunded."),
  currency: Ghs,
  completedAt: Time("When the rail answered."),
};
const RefundSucceededEvent = v.object({ refund: v.object({ ...refundFacts, status: v.literal("succeeded") }) });
const RefundFailedEvent = v.object({
  refund: v.object({
    ...refundFacts,
    status: v.literal("failed"),
    error: v.pipe(v.string(), v.description("Why it failed; the money is back in the merchant's available balance.")),
    attempts: v.pipe(v.number(), v.integer()),
  }),
});

const ApprovalRequestedEvent = v.object({
  approvalRequest: v.object({
    id: v.pipe(v.string(), v.description("The approval request's id (apr_...).")),
    kind: v.pipe(v.string(), v.description("What it changes: merchant, point_of_sale, terminal, settlement_account, employee, transfer or refund.")),
    action: v.pipe(v.string(), v.description("create, update, deactivate…")),
    targetId: v.nullable(v.string()),
    makerId: v.pipe(v.string(), v.description("Who asked (a person's id, or empty when the Partner API asked).")),
    madeAt: Time("When it was asked."),
  }),
});

const TerminalSilentEvent = v.object({
  terminal: v.object({ id: v.string(), serial: v.string(), merchantId: v.nullable(v.string()), pointOfSaleId: v.nullable(v.string()) }),
  lastSeenAt: v.nullable(Time("The terminal's last heartbeat or payment.")),
  silentAfterHours: v.pipe(v.number(), v.description("How long without a sign counts as silent.")),
});

const DisputeEvent = v.object({ dispute: DisputeView });

/** Each event type's `data` in 2026-11-27: the shapes the portal sent before versions existed. */
const EVENT_DATA_2026_11_27: Record<WebhookEventType, v.GenericSchema> = {
  "payment.succeeded": PaymentView,
  "payment.failed": PaymentView,
  "payment.reversed": PaymentView,
  "settlement.paid": SettlementPaidEvent,
  "settlement.failed": SettlementFailedEvent,
  "transfer.approved": TransferEvent,
  "transfer.rejected": TransferEvent,
  "refund.succeeded": RefundSucceededEvent,
  "refund.failed": RefundFailedEvent,
  "approval.requested": ApprovalRequestedEvent,
  "terminal.silent": TerminalSilentEvent,
  "dispute.opened": DisputeEvent,
  "dispute.closed": DisputeEvent,
};

/** The 2026-11-27 data of the event types whose shape 2026-12-01 changed, as TypeScript reads their schemas. */
export interface EventData20261127 {
  "settlement.paid": v.InferOutput<typeof SettlementPaidEvent>;
  "settlement.failed": v.InferOutput<typeof SettlementFailedEvent>;
  "transfer.approved": v.InferOutput<typeof TransferEvent>;
  "transfer.rejected": v.InferOutput<typeof TransferEvent>;
  "refund.succeeded": v.InferOutput<typeof RefundSucceededEvent>;
  "refund.failed": v.InferOutput<typeof RefundFailedEvent>;
  "approval.requested": v.InferOutput<typeof ApprovalRequestedEvent>;
  "terminal.silent": v.InferOutput<typeof TerminalSilentEvent>;
  "dispute.opened": v.InferOutput<typeof DisputeEvent>;
  "dispute.closed": v.InferOutput<typeof DisputeEvent>;
}

/** Each version's schema of each event type's `data`. */
export const EVENT_DATA_BY_VERSION: Record<ApiVersion, Record<WebhookEventType, v.GenericSchema>> = {
  "2026-11-27": EVENT_DATA_2026_11_27,
  "2026-12-01": Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type): [WebhookEventType, v.GenericSchema] => [type, EVENT_DATA[type][0]])) as Record<
    WebhookEventType,
    v.GenericSchema
  >,
};

/** The body of a delivery of `type`: the envelope with its data. */
export function eventEnvelope<T extends WebhookEventType>(type: T) {
  return v.object({
    id: v.pipe(v.string(), v.description("The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it.")),
    type: v.literal(type),
    created: Time("When what it describes happened (for payment.*, the payment's occurred_at)."),
    data: EVENT_DATA[type][0],
  });
}

export const EVENT_TYPES_DOCUMENTED = WEBHOOK_EVENT_TYPES;

/** The name of a delivery body's schema in the OpenAPI document: payment.succeeded -> PaymentSucceededEvent. */
export function eventSchemaName(type: WebhookEventType): string {
  return `${type
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("")}Event`;
}

/** Every delivery body's schema, by its name in the document. */
export const EVENT_SCHEMAS = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [eventSchemaName(type), eventEnvelope(type)])) as Record<
  string,
  v.GenericSchema
>;

// The examples name the demo seed's rows (scripts/seed): Kumasi Fresh Foods (bus_kumasi_fresh_foods), its merchant
// mer_kff_0001 (MRC-0001) with its point of sale, settlement account and terminal, and its people.
const payment = {
  reference: "KFF-261126-0000496",
  merchant: { id: "mer_kff_0001", code: "MRC-0001" },
  point_of_sale: "pos_kff_00001",
  terminal_serial: null,
  channel: "mobile_money",
  network: "MTN",
  payer: { msisdn: "233548672565" },
  amount: 43_800,
  currency: "GHS",
  fee: 329,
  net: 43_471,
  status: "successful",
  failure_reason: null,
  occurred_at: "2026-11-26T08:39:30.000Z",
  cleared: false,
  cleared_at: null,
  reversal: null,
  settlement: null,
};
const dispute = {
  id: "dsp_0c1d2e3f4a5b6c7d8e9f0a1b",
  payment_reference: payment.reference,
  merchant_id: "mer_kff_0001",
  reason_code: "13.1",
  amount: 43_800,
  currency: "GHS",
  evidence_due_by: "2026-12-10",
  status: "open",
  opened_at: "2026-11-26T09:12:40.000Z",
  response_submitted_at: null,
  closed_at: null,
};
const settlement = {
  id: "stl_kff_000070",
  reference: "STL-KFF-MRC-0001-20261125",
  merchant: "mer_kff_0001",
  settlement_account: "sac_kff_00001",
  transfer: null,
  period_start: "2026-11-25T00:00:00.000Z",
  period_end: "2026-11-26T00:00:00.000Z",
  gross: 48_592,
  fees: 414,
  net: 48_178,
  currency: "GHS",
  status: "paid",
  attempts: 1,
  created_at: "2026-11-26T06:00:00.000Z",
  paid_at: "2026-11-26T06:04:12.000Z",
  rail: "switch",
  rail_reference: "SW-PAYOUT-88213",
  rail_status: "completed",
};
const transfer = {
  id: "trf_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
  from_merchant: "mer_kff_0001",
  to_merchant: null,
  to_settlement_account: "sac_kff_00001",
  settlement: "stl_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
  amount: 50_000,
  currency: "GHS",
  narration: "Float for the Ɛjisu branch",
  status: "completed",
  reason: null,
  requested_by: "usr_esi_owusu",
  requested_at: "2026-11-26T10:40:00.000Z",
  decided_by: "usr_kofi_boateng",
  decided_at: "2026-11-26T11:02:00.000Z",
};
const refund = {
  id: "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
  amount: 4_000,
  currency: "GHS",
  status: "succeeded",
  reason: "One crate of tomatoes returned",
  requested_at: "2026-11-26T11:58:00.000Z",
  decided_at: "2026-11-26T12:00:00.000Z",
  completed_at: "2026-11-26T12:00:05.000Z",
  failure_reason: null,
  payment_reference: payment.reference,
};
const terminal = {
  id: "trm_kff_00001",
  serial: "655-001-992",
  model: "Verifone V240m",
  software_version: "VOS2 3.14.2",
  status: "active",
  merchant: "mer_kff_0001",
  point_of_sale: "pos_kff_00001",
  last_seen_at: "2026-11-25T08:00:00.000Z",
  battery_percent: 64,
  signal_percent: 71,
  created_at: "2026-06-06T15:09:32.000Z",
  updated_at: "2026-06-26T16:24:07.000Z",
};

/** One event's data of each type in the current version, as the portal sends it (checked against the schemas by openapi.test.ts). */
export const EVENT_DATA_EXAMPLES: Record<WebhookEventType, unknown> = {
  "payment.succeeded": payment,
  "payment.failed": { ...payment, status: "failed", fee: 0, net: 0, failure_reason: "Insufficient funds in the wallet" },
  "payment.reversed": { ...payment, status: "reversed", reversal: { reason: "Wallet debit not completed", reversed_at: "2026-11-26T09:05:00.000Z" } },
  "settlement.paid": settlement,
  "settlement.failed": { ...settlement, status: "failed", paid_at: null, rail_status: "failed" },
  "transfer.approved": transfer,
  "transfer.rejected": { ...transfer, settlement: null, status: "rejected", reason: "Not agreed with the merchant" },
  "refund.succeeded": refund,
  "refund.failed": { ...refund, status: "failed", failure_reason: "Switch: wallet closed" },
  "approval.requested": {
    id: "req_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
    kind: "refund",
    action: "create",
    target: refund.id,
    maker: "usr_esi_owusu",
    made_at: "2026-11-26T11:58:00.000Z",
  },
  "terminal.silent": terminal,
  "dispute.opened": dispute,
  "dispute.closed": { ...dispute, status: "won", closed_at: "2026-12-03T15:00:00.000Z" },
};

/** One delivery body of each type in the current version (the document's example of each webhook). */
export const EVENT_EXAMPLES: Record<WebhookEventType, { id: string; type: WebhookEventType; created: string; data: unknown }> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    { id: "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1", type, created: "2026-11-26T09:12:40.000Z", data: EVENT_DATA_EXAMPLES[type] },
  ]),
) as Record<WebhookEventType, { id: string; type: WebhookEventType; created: string; data: unknown }>;

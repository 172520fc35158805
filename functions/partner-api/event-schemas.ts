// What each webhook event's `data` holds (issue 29, point 3): one schema per event type, from which the OpenAPI
// document's `webhooks` section is generated, and against which the integration tests check every event the portal
// wrote (tests/support/event-payloads.ts), so the document cannot say one thing while the portal sends another.
// The shapes are those of the 2026-11-27 version as the portal sends them today: payment.* and dispute.* carry what
// GET answers for them; the others are older camelCase shapes kept as they were (docs/api-changelog.md says a shape
// change only ever comes with a new version date).
import * as v from "valibot";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../webhooks/types";
import { DisputeView, PaymentView } from "./schemas";

const Time = (what: string) => v.pipe(v.string(), v.description(`${what} ISO 8601 in UTC.`));
const Pesewas = (what: string) => v.pipe(v.number(), v.integer(), v.description(`${what} Pesewas.`));
const Ghs = v.literal("GHS");

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

/** Each event type's `data`, with what it means. */
export const EVENT_DATA = {
  "payment.succeeded": [PaymentView, "A payment succeeded: the payment as GET /api/v1/payments/{reference} answers it (without its refunds)."],
  "payment.failed": [PaymentView, "A payment failed: the payment, with fee and net 0 (nothing was charged or is owed)."],
  "payment.reversed": [PaymentView, "A payment was reversed: the payment, with its reversal."],
  "settlement.paid": [SettlementPaidEvent, "A settlement was paid out to the merchant's settlement account."],
  "settlement.failed": [SettlementFailedEvent, "A payout attempt of a settlement failed."],
  "transfer.approved": [TransferEvent, "A transfer of a merchant's money was approved and made."],
  "transfer.rejected": [TransferEvent, "A transfer request was rejected: no money moved."],
  "refund.succeeded": [RefundSucceededEvent, "A refund reached the payer."],
  "refund.failed": [RefundFailedEvent, "A refund failed for good; its money is back in the merchant's available balance."],
  "approval.requested": [ApprovalRequestedEvent, "Someone asked for a change that another person must approve in the portal."],
  "terminal.silent": [TerminalSilentEvent, "A terminal in service has not been seen for 24 hours (once per silence)."],
  "dispute.opened": [DisputeEvent, "A dispute was opened on a payment: its amount is held from the merchant."],
  "dispute.closed": [DisputeEvent, "A dispute was closed, won (the hold returns) or lost (the amount leaves)."],
} as const satisfies Record<WebhookEventType, readonly [v.GenericSchema, string]>;

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

const payment = {
  reference: "PSP-20261123-K000187",
  merchant: { id: "mer_kff_osu", code: "KFF-OSU" },
  point_of_sale: "pos_kff_osu_1",
  terminal_serial: null,
  channel: "mobile_money",
  network: "MTN",
  payer: { msisdn: "233244123456" },
  amount: 12_000,
  currency: "GHS",
  fee: 90,
  net: 11_910,
  status: "successful",
  failure_reason: null,
  occurred_at: "2026-11-23T10:15:00.000Z",
  cleared: false,
  cleared_at: null,
  reversal: null,
  settlement: null,
};
const dispute = {
  id: "dsp_0c1d2e3f4a5b6c7d8e9f0a1b",
  payment_reference: "PSP-20261123-K000187",
  merchant_id: "mer_kff_osu",
  reason_code: "13.1",
  amount: 12_000,
  currency: "GHS",
  evidence_due_by: "2026-12-07",
  status: "open",
  opened_at: "2026-11-26T09:12:40.000Z",
  response_submitted_at: null,
  closed_at: null,
};
const settlement = { id: "stl_mer_kff_osu_20261126", reference: "STL-MRC-0001-20261126-K3F9QZ2M", net: 1_250_000, currency: "GHS", attempt: 1 };
const transfer = {
  id: "trf_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
  fromMerchantId: "mer_kff_osu",
  toMerchantId: null,
  toSettlementAccountId: "sac_kff_osu_gcb",
  amount: 50_000,
  currency: "GHS",
  requestedBy: "usr_esi_owusu",
  decidedBy: "usr_kofi_boateng",
  decidedAt: "2026-11-26T11:02:00.000Z",
};
const refund = {
  id: "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
  paymentReference: "PSP-20261123-K000187",
  amount: 4_000,
  currency: "GHS",
  completedAt: "2026-11-26T12:00:05.000Z",
};

/** One delivery body of each type, as the portal sends it (checked against the schemas by openapi.test.ts). */
export const EVENT_EXAMPLES: Record<WebhookEventType, { id: string; type: WebhookEventType; created: string; data: unknown }> = Object.fromEntries(
  (
    [
      ["payment.succeeded", payment],
      ["payment.failed", { ...payment, status: "failed", fee: 0, net: 0, failure_reason: "Insufficient funds in the wallet" }],
      ["payment.reversed", { ...payment, status: "reversed", reversal: { reason: "Wallet debit not completed", reversed_at: "2026-11-23T10:40:00.000Z" } }],
      ["settlement.paid", { settlement: { ...settlement, paidAt: "2026-11-26T06:04:12.000Z" } }],
      ["settlement.failed", { settlement: { ...settlement, error: "Switch: account closed", willRetry: true } }],
      ["transfer.approved", { transfer: { ...transfer, status: "completed" } }],
      ["transfer.rejected", { transfer: { ...transfer, status: "rejected", reason: "Not agreed with the merchant" } }],
      ["refund.succeeded", { refund: { ...refund, status: "succeeded" } }],
      ["refund.failed", { refund: { ...refund, status: "failed", error: "Switch: wallet closed", attempts: 3 } }],
      [
        "approval.requested",
        {
          approvalRequest: {
            id: "apr_9f8e7d6c",
            kind: "refund",
            action: "create",
            targetId: refund.id,
            makerId: "usr_esi_owusu",
            madeAt: "2026-11-26T11:58:00.000Z",
          },
        },
      ],
      [
        "terminal.silent",
        {
          terminal: { id: "trm_kff_osu_1", serial: "PAX-A920-004512", merchantId: "mer_kff_osu", pointOfSaleId: "pos_kff_osu_1" },
          lastSeenAt: "2026-11-25T08:00:00.000Z",
          silentAfterHours: 24,
        },
      ],
      ["dispute.opened", { dispute }],
      ["dispute.closed", { dispute: { ...dispute, status: "won", closed_at: "2026-12-03T15:00:00.000Z" } }],
    ] as const
  ).map(([type, data]) => [type, { id: "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1", type, created: "2026-11-26T09:12:40.000Z", data }]),
) as Record<WebhookEventType, { id: string; type: WebhookEventType; created: string; data: unknown }>;

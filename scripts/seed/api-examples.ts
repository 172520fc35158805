// What the Partner API's examples name (functions/partner-api/openapi.ts, docs/partner-api.md), placed in the demo and
// large data of Kumasi Fresh Foods with fixed ids and references, so that every example runs as it is written against
// a fresh `npm start` (tests/integration/api-examples.test.ts sends each one). The rest of the seed is drawn; these
// are placed:
//
// - three card payments at the business's first live terminal, each in the place of a drawn payment of the
//   business (the size's count stays): PAYMENT cleared an hour ago, after the last settlement run, so its net is in
//   the merchant's available money (asking for a refund needs it); DISPUTED_TO_CLOSE and DISPUTED_WITH_EVIDENCE days
//   before, settled;
// - an open dispute on each of the last two, holding its amount (DISPUTE_TO_CLOSE is the one the close example closes,
//   DISPUTE is the one the examples read and attach evidence to), with its dispute.opened event as opening it makes;
// - a refund of PAYMENT asked by Esi Owusu, waiting for approval, with its approval request;
// - a webhook endpoint, made after the disputes were opened (so no delivery of theirs is owed to it).
//
// Times are relative to the seed's `now`, as every time of the seed is.
import { disputeData, type DisputeFacts } from "#server/disputes/processor-disputes.db";
import { disputeHoldPosting, ledgerAccountId, type PostingLine } from "#server/ledger/ledger";
import { KUMASI_FRESH_FOODS } from "./data";
import type { CardScheme } from "./ghana";
import { Rng } from "./prng";
import { DAY_MS, HOUR_MS } from "./profile";
import { iso, type BusinessModel, type SeedContext, type TerminalModel } from "./structure";
import type { ApprovalRequestRow, DisputeRow, LedgerAccountRow, RefundRow, TransactionRow, WebhookEndpointRow, WebhookEventRow } from "./tables";

/** The payment the examples read, dispute and refund. */
export const PAYMENT = "PSP-K000187";
/** A payment whose open dispute the close example closes. */
export const DISPUTED_TO_CLOSE = "PSP-K000171";
/** A payment whose open dispute the examples read and attach evidence to. */
export const DISPUTED_WITH_EVIDENCE = "PSP-K000175";
export const DISPUTE_TO_CLOSE = "dsp_fedcba9876543210fedcba9876543210";
export const DISPUTE = "dsp_0123456789abcdef0123456789abcdef";
export const REFUND = "rfd_kff_0001";
export const WEBHOOK_ENDPOINT = "we_kff_0001";
/** The dispute.opened event of DISPUTE, with the id opening a dispute gives it (functions/disputes/disputes.db.ts). */
export const EVENT = `evt_${DISPUTE}_opened`;

const REFUND_REQUEST = "apr_kff_refund_0001";
const REFUND_MAKER = "usr_esi_owusu";
const ENDPOINT_MAKER = "usr_ama_mensah";

export interface ExamplePayment {
  reference: string;
  at: number;
  amount: number;
  network: CardScheme;
  cardBin: string;
  cardLast4: string;
}

export interface ExamplePlan {
  model: BusinessModel;
  /** Where the example payments were made: a terminal of the business that is live now. */
  terminal: TerminalModel;
  payments: readonly ExamplePayment[];
}

/** The placed payments of Kumasi Fresh Foods, or null when the data has no such business. */
export function examplePlan(ctx: SeedContext, models: readonly BusinessModel[]): ExamplePlan | null {
  const model = models.find((m) => m.business.id === KUMASI_FRESH_FOODS);
  if (!model) return null;
  // The first live terminal (in the demo data, mer_kff_0001's trm_kff_00001).
  const terminal = model.merchants
    .flatMap((m) => m.pointsOfSale.flatMap((p) => p.terminals))
    .find((t) => t.row.status === "active" && t.transacting && t.lastSeen >= ctx.now - HOUR_MS);
  if (!terminal) throw new Error("the API examples need a live terminal at Kumasi Fresh Foods");
  const { now } = ctx;
  return {
    model,
    terminal,
    payments: [
      { reference: DISPUTED_TO_CLOSE, at: now - 6 * DAY_MS - 2 * HOUR_MS, amount: 1_800, network: "VISA", cardBin: "419773", cardLast4: "0171" },
      { reference: DISPUTED_WITH_EVIDENCE, at: now - 5 * DAY_MS - 3 * HOUR_MS, amount: 2_400, network: "VISA", cardBin: "476173", cardLast4: "0175" },
      // Cards clear in three days: this one an hour before now, after the last 06:00 run whatever the hour.
      { reference: PAYMENT, at: now - 3 * DAY_MS - HOUR_MS, amount: 12_550, network: "VISA", cardBin: "455657", cardLast4: "4242" },
    ],
  };
}

/** A posting the activity writes with its own entry ids. */
export interface ExampleHold {
  lines: PostingLine[];
  postingId: string;
  memo: string;
  at: number;
  transactionId: number;
}

export interface ExampleRecords {
  accounts: LedgerAccountRow[];
  holds: ExampleHold[];
  disputes: DisputeRow[];
  refunds: RefundRow[];
  approvals: ApprovalRequestRow[];
  events: WebhookEventRow[];
  endpoints: WebhookEndpointRow[];
}

/** The disputes, the refund and the endpoint, given the placed payments as the activity wrote them. */
export function exampleRecords(ctx: SeedContext, plan: ExamplePlan, payments: ReadonlyMap<string, TransactionRow>): ExampleRecords {
  const { now } = ctx;
  const businessId = plan.model.business.id;
  const paid = (reference: string) => {
    const payment = payments.get(reference);
    if (!payment) throw new Error(`the API example payment ${reference} was not written`);
    return payment;
  };
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const disputes: DisputeRow[] = [];
  const holds: ExampleHold[] = [];
  const events: WebhookEventRow[] = [];
  const open = (id: string, reference: string, reasonCode: string, openedAt: number, dueInDays: number) => {
    const payment = paid(reference);
    // Due by the end of that day (Africa/Accra is UTC+0), as POST /api/v1/disputes stores it.
    const facts: DisputeFacts = {
      id,
      paymentReference: reference,
      merchantId: payment.merchant_id,
      reasonCode,
      amount: payment.amount,
      evidenceDueAt: today + (dueInDays + 1) * DAY_MS,
      status: "open",
      openedAt,
      submittedAt: null,
      closedAt: null,
    };
    disputes.push({
      id,
      business_id: businessId,
      merchant_id: payment.merchant_id,
      transaction_id: payment.id,
      reason_code: reasonCode,
      amount: payment.amount,
      evidence_due_at: facts.evidenceDueAt,
      status: "open",
      opened_at: openedAt,
    });
    holds.push({
      lines: disputeHoldPosting(payment.merchant_id, payment.amount),
      postingId: `pst_${id}_hold`,
      memo: `Dispute ${id} held`,
      at: openedAt,
      transactionId: payment.id,
    });
    events.push({
      id: `evt_${id}_opened`,
      business_id: businessId,
      type: "dispute.opened",
      payload: JSON.stringify({ dispute: disputeData(facts) }),
      happened_at: openedAt,
      created_at: openedAt,
    });
  };
  open(DISPUTE_TO_CLOSE, DISPUTED_TO_CLOSE, "13.1", now - 2 * DAY_MS, 7);
  open(DISPUTE, DISPUTED_WITH_EVIDENCE, "13.3", now - DAY_MS - 4 * HOUR_MS, 10);

  const payment = paid(PAYMENT);
  const merchant = plan.model.merchants.find((m) => m.row.id === payment.merchant_id)!;
  const askedAt = iso(now - 2 * HOUR_MS);
  const refund: RefundRow = {
    id: REFUND,
    business_id: businessId,
    transaction_id: payment.id,
    merchant_id: payment.merchant_id,
    amount: 1_500,
    reason: "Customer returned one item",
    status: "pending_approval",
    idempotency_key: `seed-${REFUND}`,
    requested_by: REFUND_MAKER,
    created_at: askedAt,
  };
  // As functions/refunds/refund-requests.db.ts requestRefund writes the request the administrators decide.
  const after = {
    payment_reference: payment.reference,
    merchant_id: payment.merchant_id,
    merchant: merchant.row.name,
    payment_amount: payment.amount,
    already_refunded: 0,
    amount: refund.amount,
    reason: refund.reason,
  };
  const approval: ApprovalRequestRow = {
    id: REFUND_REQUEST,
    business_id: businessId,
    kind: "refund",
    action: "create",
    target_id: REFUND,
    target_version: null,
    before_json: null,
    after_json: JSON.stringify(after),
    maker_id: REFUND_MAKER,
    made_at: askedAt,
    status: "pending",
    checker_id: null,
    decided_at: null,
    reason: null,
  };

  const secret = Rng.stream("api-examples:webhook-secret");
  const endpointAt = now - 3 * HOUR_MS;
  const endpoint: WebhookEndpointRow = {
    id: WEBHOOK_ENDPOINT,
    business_id: businessId,
    url: "https://hooks.kumasifreshfoods.example.com/partners-portal",
    description: "Disputes, for the accounts team",
    event_types: JSON.stringify(["dispute.opened", "dispute.closed"]),
    secret: `whsec_${Array.from({ length: 64 }, () => "0123456789abcdef"[secret.int(0, 15)]).join("")}`,
    status: "enabled",
    enabled_at: endpointAt,
    created_by: ENDPOINT_MAKER,
    created_at: iso(endpointAt),
    updated_at: iso(endpointAt),
  };

  // The held money's account: the runtime makes it with the first hold (functions/ledger/ledger.db.ts postingStatements).
  const accounts = [...new Set(disputes.map((d) => d.merchant_id))].map((merchantId): LedgerAccountRow => ({
    id: ledgerAccountId(businessId, { kind: "merchant_held", merchantId }),
    business_id: businessId,
    merchant_id: merchantId,
    kind: "merchant_held",
  }));
  return { accounts, holds, disputes, refunds: [refund], approvals: [approval], events, endpoints: [endpoint] };
}

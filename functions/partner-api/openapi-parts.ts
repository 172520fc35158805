// The pieces the Partner API's OpenAPI document is made of, shared by the operation table (./operations.ts), whose
// rows describe each operation with them, and the document (./openapi.ts), which puts the rows together: the schemas
// it names, the references and media types, and the examples, which name the demo data `npm start` seeds. Apart from
// ./openapi.ts so that the table can use them while the document is built from the table.
import * as v from "valibot";
import type { JsonSchema } from "@valibot/to-json-schema";
import { DAY_MS } from "../plumbing/time";
import {
  Accepted,
  IdempotencyKey,
  DisputeCloseInput,
  DisputeInput,
  DisputeView,
  DisputeDetailView,
  EvidenceView,
  RefundRequestInput,
  HeartbeatInput,
  HeartbeatNotApplied,
  Payer,
  PaymentBatchInput,
  PaymentInput,
  PaymentsRequest,
  PaymentView,
  Problem,
  Reference,
  ReversalInput,
  TerminalSerial,
} from "./schemas";
import { RejectionsPage, RejectionView, ReversalAccepted, WaitingReversalsPage, WaitingReversalView } from "./rejections";
import {
  Cursor,
  DisputesPage,
  DisputesQuery,
  Limit,
  MerchantsPage,
  MerchantsQuery,
  MerchantView,
  PaymentsPage,
  PaymentsQuery,
  PointOfSaleView,
  PointsOfSalePage,
  PointsOfSaleQuery,
  RefundListItem,
  RefundsPage,
  EventsQuery,
  EventView,
  EventsPage,
  ResendFailedInput,
  ResendFailedAnswer,
  RefundsQuery,
  SettlementsPage,
  SettlementsQuery,
  SettlementView,
  TerminalsPage,
  TerminalsQuery,
  TerminalView,
} from "./list-schemas";

/** The Retry-After answer header of a 429. */
export const RetryAfter = v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Seconds to wait before sending again."));

export const SCHEMAS = {
  Reference,
  TerminalSerial,
  Payer,
  PaymentInput,
  PaymentBatchInput,
  PaymentsRequest,
  ReversalInput,
  HeartbeatInput,
  HeartbeatNotApplied,
  PaymentView,
  DisputeInput,
  DisputeCloseInput,
  DisputeView,
  DisputeDetailView,
  EvidenceView,
  RefundRequestInput,
  Accepted,
  Problem,
  IdempotencyKey,
  RetryAfter,
  ReversalAccepted,
  RejectionView,
  RejectionsPage,
  WaitingReversalView,
  WaitingReversalsPage,
  Limit,
  Cursor,
  PaymentsQuery,
  PaymentsPage,
  MerchantsQuery,
  MerchantView,
  MerchantsPage,
  PointsOfSaleQuery,
  PointOfSaleView,
  PointsOfSalePage,
  TerminalsQuery,
  TerminalView,
  TerminalsPage,
  DisputesQuery,
  DisputesPage,
  SettlementsQuery,
  SettlementView,
  SettlementsPage,
  RefundsQuery,
  RefundListItem,
  RefundsPage,
  EventsQuery,
  EventView,
  EventsPage,
  ResendFailedInput,
  ResendFailedAnswer,
};
export type SchemaName = keyof typeof SCHEMAS;

export type Schema = JsonSchema & { "x-rules"?: string[]; "x-trim"?: boolean; description?: string };

export const ref = (name: string, kind = "schemas") => ({ $ref: `#/components/${kind}/${name}` });
export const json = (schema: SchemaName, example?: unknown) => ({
  "application/json": { schema: ref(schema), ...(example === undefined ? {} : { example }) },
});

/**
 * What the examples name: Kumasi Fresh Foods (bus_kumasi_fresh_foods) in the demo data `npm start` seeds, with the
 * ids and references scripts/seed/api-examples.ts places there, so that every request example runs as it is against a
 * fresh portal with a key of that business (tests/integration/api-examples.test.ts sends each one).
 */
export const EXAMPLE_IDS = {
  merchant: "mer_kff_0001",
  pointOfSale: "pos_kff_00001",
  /** trm_kff_00001, at pos_kff_00001. */
  terminalSerial: "655-001-992",
  /** A card payment the seed holds: the examples read it, dispute part of it and ask for a refund of part of it. */
  payment: "PSP-K000187",
  /** Open disputes the seed holds: the close example closes the first; the others read the second and attach evidence to it. */
  disputeToClose: "dsp_fedcba9876543210fedcba9876543210",
  dispute: "dsp_0123456789abcdef0123456789abcdef",
  /** A refund of the payment, waiting for approval. */
  refund: "rfd_kff_0001",
  event: "evt_dsp_0123456789abcdef0123456789abcdef_opened",
  webhookEndpoint: "we_kff_0001",
} as const;

/** When the document is dated when no time is given (the typed client, the unit tests): a fixed instant, so they stay the same. */
export const EXAMPLE_TIME = Date.UTC(2026, 10, 23, 10, 20, 0);

/**
 * The request examples, dated from `now`: a payment may say it happened at most 90 days ago and a heartbeat older than
 * the terminal's last is not applied, so the document the portal serves dates them from its clock, and each one is
 * taken as it is when it is sent. The payments sent are new to the seed; the reversal reverses the card payment sent.
 */
export function examplesAt(now: number) {
  const at = (offsetMs: number) => new Date(Math.floor((now + offsetMs) / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const day = (offsetDays: number) => new Date(now + offsetDays * DAY_MS).toISOString().slice(0, 10);
  return {
    cardPayment: {
      reference: "PSP-K000201",
      merchant: EXAMPLE_IDS.merchant,
      point_of_sale: EXAMPLE_IDS.pointOfSale,
      terminal_serial: EXAMPLE_IDS.terminalSerial,
      channel: "card",
      network: "VISA",
      payer: { card_bin: "492181", card_last4: "4242" },
      amount: 12_550,
      currency: "GHS",
      status: "successful",
      occurred_at: at(-3 * 60_000),
    },
    failedMobileMoney: {
      reference: "PSP-M000202",
      merchant: EXAMPLE_IDS.merchant,
      point_of_sale: EXAMPLE_IDS.pointOfSale,
      channel: "mobile_money",
      network: "MTN",
      payer: { msisdn: "233244123456" },
      amount: 4_000,
      currency: "GHS",
      status: "failed",
      failure_reason: "Insufficient funds in the wallet",
      occurred_at: at(-2 * 60_000),
    },
    reversal: { reason: "Customer returned the goods", reversed_at: at(-60_000) },
    heartbeat: { battery_percent: 76, signal_percent: 58, software_version: "3.14.2", sent_at: at(0) },
    dispute: { payment_reference: EXAMPLE_IDS.payment, reason_code: "13.1", amount: 4_000, currency: "GHS", evidence_due_by: day(14) },
    disputeClose: { outcome: "won" },
    refundRequest: { payment_reference: EXAMPLE_IDS.payment, amount: 2_000, currency: "GHS", reason: "One item returned" },
    resendFailed: { since: "2026-11-26T06:00:00Z" },
    accepted: { accepted: 1 },
  } as const;
}

/** The examples as the document dated at EXAMPLE_TIME shows them. */
export const EXAMPLES = examplesAt(EXAMPLE_TIME);

/** The items of the lists' example pages: records of the demo data (EXAMPLE_IDS), in a state each may be in. */
export const LISTED = {
  event: {
    id: EXAMPLE_IDS.event,
    type: "dispute.opened",
    created: "2026-11-22T06:20:00.000Z",
    recorded_at: "2026-11-22T06:20:00.412Z",
    // As 2026-12-01 sends it: the dispute itself (2026-11-27 wrapped it in { dispute }). Shortened here.
    data: { id: EXAMPLE_IDS.dispute, payment_reference: "PSP-K000175", status: "open" },
  },
  payment: {
    reference: EXAMPLE_IDS.payment,
    merchant: { id: EXAMPLE_IDS.merchant, code: "MRC-0001" },
    point_of_sale: EXAMPLE_IDS.pointOfSale,
    terminal_serial: EXAMPLE_IDS.terminalSerial,
    channel: "card",
    network: "VISA",
    payer: { card_bin: "455657", card_last4: "4242" },
    amount: 12_550,
    currency: "GHS",
    fee: 220,
    net: 12_330,
    status: "successful",
    failure_reason: null,
    occurred_at: "2026-11-20T09:20:00.000Z",
    cleared: true,
    cleared_at: "2026-11-23T09:20:00.000Z",
    reversal: null,
    settlement: { id: "stl_kff_001114", reference: "STL-KFF-MRC-0001-20261123", status: "paid", paid_at: "2026-11-24T08:02:11.000Z" },
    refunded: 1_500,
    refunds: [
      {
        id: EXAMPLE_IDS.refund,
        amount: 1_500,
        currency: "GHS",
        status: "succeeded",
        reason: "Customer returned one item",
        requested_at: "2026-11-23T08:20:00.000Z",
        decided_at: "2026-11-23T09:30:00.000Z",
        completed_at: "2026-11-23T09:30:05.000Z",
        failure_reason: null,
      },
    ],
  },
  merchant: {
    id: "mer_kff_0008",
    code: "MRC-0008",
    name: "Ɔhemaa Chop Bar Enterprise",
    trading_name: "Ɔhemaa Chop Bar",
    tin: "P0046335793",
    sector: "Restaurants",
    town: "Dormaa Ahenkro",
    region: "Bono",
    address: "Block 89, Zongo, Dormaa Ahenkro (BD-722-5871)",
    contact_name: "Yaa Boateng",
    contact_phone: "233571286044",
    contact_email: "yaa.boateng@ohemaachopbar.example.com",
    status: "active",
    created_at: "2024-12-04T04:45:30.000Z",
    updated_at: "2024-12-04T04:45:30.000Z",
  },
  pointOfSale: {
    id: EXAMPLE_IDS.pointOfSale,
    merchant: EXAMPLE_IDS.merchant,
    name: "Adum Outlet",
    town: "Kumasi",
    region: "Ashanti",
    address: "Stall 34, Suame, Kumasi (AK-529-7058)",
    contact_phone: "233548065664",
    status: "active",
    created_at: "2025-07-29T08:57:09.000Z",
    updated_at: "2025-07-29T08:57:09.000Z",
  },
  terminal: {
    id: "trm_kff_00001",
    serial: EXAMPLE_IDS.terminalSerial,
    model: "Verifone V240m",
    software_version: "VOS2 3.14.2",
    status: "active",
    merchant: EXAMPLE_IDS.merchant,
    point_of_sale: EXAMPLE_IDS.pointOfSale,
    last_seen_at: "2026-11-23T10:20:00.000Z",
    battery_percent: 76,
    signal_percent: 58,
    created_at: "2026-04-07T15:09:32.000Z",
    updated_at: "2026-04-27T16:24:07.000Z",
  },
  dispute: {
    id: EXAMPLE_IDS.dispute,
    payment_reference: "PSP-K000175",
    merchant_id: EXAMPLE_IDS.merchant,
    reason_code: "13.3",
    amount: 2_400,
    currency: "GHS",
    evidence_due_by: "2026-12-03",
    status: "open",
    opened_at: "2026-11-22T06:20:00.000Z",
    response_submitted_at: null,
    closed_at: null,
  },
  settlement: {
    id: "stl_kff_001114",
    reference: "STL-KFF-MRC-0001-20261123",
    merchant: EXAMPLE_IDS.merchant,
    settlement_account: "sac_kff_00001",
    transfer: null,
    period_start: "2026-11-23T00:00:00.000Z",
    period_end: "2026-11-24T00:00:00.000Z",
    gross: 77_854,
    fees: 1_092,
    net: 76_762,
    currency: "GHS",
    status: "paid",
    attempts: 1,
    created_at: "2026-11-24T06:00:00.000Z",
    paid_at: "2026-11-24T08:02:11.000Z",
    rail: "switch",
    rail_reference: "SW-PAYOUT-88213",
    rail_status: "completed",
  },
  refund: {
    id: EXAMPLE_IDS.refund,
    amount: 1_500,
    currency: "GHS",
    status: "succeeded",
    reason: "Customer returned one item",
    requested_at: "2026-11-23T08:20:00.000Z",
    decided_at: "2026-11-23T09:30:00.000Z",
    completed_at: "2026-11-23T09:30:05.000Z",
    failure_reason: null,
    payment_reference: EXAMPLE_IDS.payment,
  },
} as const;

/** An evidence file, as attaching it and reading its dispute answer it. */
export const EVIDENCE_EXAMPLE = {
  id: "dev_4b0c6e2a9f1d4c7e8a3b5d0f2e1c9a7b",
  dispute_id: EXAMPLE_IDS.dispute,
  file_name: "Receipt Ɔdɔ Ɛnyo 🍲.pdf",
  content_type: "application/pdf",
  size: 48_213,
  uploaded_at: "2026-11-24T09:30:00.000Z",
} as const;

/** A page as every list answers it: here the first of several. */
export const examplePage = (item: unknown) => ({ data: [item], has_more: true, next_cursor: "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd" });

/** The answers every operation may give, described once in the document's components. */
export type ResponseName = "BadRequest" | "Unauthorized" | "NotFound" | "Forbidden" | "Conflict" | "TooLarge" | "UnsupportedMediaType" | "TooManyRequests";

/** The answers of the door every operation may give (functions/partner-api/credential.ts): no key, no or another business, not allowed. */
const DOOR: ResponseName[] = ["BadRequest", "Unauthorized", "Forbidden", "NotFound"];

export const errors = (...own: ResponseName[]) => {
  const codes: Record<ResponseName, string> = {
    BadRequest: "400",
    Unauthorized: "401",
    Forbidden: "403",
    NotFound: "404",
    Conflict: "409",
    TooLarge: "413",
    UnsupportedMediaType: "415",
    TooManyRequests: "429",
  };
  const names = [...new Set([...DOOR, ...own])].sort((a, b) => codes[a].localeCompare(codes[b]));
  return Object.fromEntries(names.map((name) => [codes[name], ref(name, "responses")]));
};

export const accepted = (what: string) => ({
  "202": { description: `${what} queued: the portal applies it within seconds.`, content: json("Accepted", EXAMPLES.accepted) },
});

export const BUSINESS = ref("business", "parameters");
export const POST_PARAMETERS = [BUSINESS, ref("IdempotencyKey", "parameters")];
export const PAGE_PARAMETERS = [
  BUSINESS,
  { name: "limit", in: "query", required: false, description: "How many to a page: 1 to 100 (25).", schema: { type: "integer", minimum: 1, maximum: 100 } },
  { name: "after", in: "query", required: false, description: "The previous page's `next`.", schema: { type: "string" } },
];

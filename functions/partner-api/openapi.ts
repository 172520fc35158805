// GET /api/v1/openapi.json: the Partner API described as
// OpenAPI 3.1, generated from the valibot schemas the Worker checks requests
// with (functions/partner-api/schemas.ts), so the document cannot drift from the code.
// What JSON Schema cannot say (valibot's v.check rules across fields) is said in
// words: every check must have its sentence here, or building the document
// throws. functions/partner-api/openapi.test.ts checks the document and the schemas agree.
import { toJsonSchemaDefs, type JsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { configOf } from "../env";
import { formatOfPattern } from "./instant";
import {
  Accepted,
  IdempotencyKey,
  MAX_BODY_BYTES,
  CARD_SCHEMES,
  CLOCK_SKEW_MS,
  DisputeCloseInput,
  DisputeInput,
  DisputeView,
  DisputeDetailView,
  EvidenceView,
  RefundRequestInput,
  HeartbeatInput,
  HeartbeatNotApplied,
  MAX_AMOUNT_PESEWAS,
  MAX_PAYMENT_AGE_MS,
  MAX_PAYMENTS_PER_REQUEST,
  MOBILE_MONEY_NETWORKS,
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
import {
  PAYMENT_NOT_KNOWN_MESSAGE,
  RejectionsPage,
  RejectionView,
  ReversalAccepted,
  REVERSAL_WAIT_DAYS,
  WaitingReversalsPage,
  WaitingReversalView,
} from "./rejections";
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
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../lists/page";
import { DAY_MS } from "../platform/time";
import { BUSINESS_HEADER, MESSAGES } from "./credential";
import { API_VERSIONS, CURRENT_API_VERSION, VERSION_HEADER } from "./versions";
import { EVENT_DATA, EVENT_EXAMPLES, EVENT_SCHEMAS, eventSchemaName } from "./event-schemas";
import { WEBHOOK_EVENT_TYPES } from "../webhooks/types";
import { PROBLEM_CODES, PROBLEM_CONTENT_TYPE, PROBLEMS, problemType, type ProblemCode, type ProblemError } from "./problems";
import { isBusinessKeyOperation, OPERATION_SCOPES, PLATFORM_SCOPES, SCOPE_WORDS, type ApiOperation } from "../operators/platform-scopes";

/** The Retry-After answer header of a 429. */
export const RetryAfter = v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Seconds to wait before sending again."));

const SCHEMAS = {
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

const list = (items: readonly string[]) => `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;

/** The rules of the schemas' v.check actions, by the check's message, in words for people. */
export const RULES_IN_WORDS: Record<string, string> = {
  "does not go with the channel": `network goes with channel: ${list(MOBILE_MONEY_NETWORKS)} for mobile_money; ${list(CARD_SCHEMES)} for card.`,
  "card payments need card_bin and card_last4 only; mobile money needs msisdn only":
    "payer holds card_bin and card_last4 (and no msisdn) for a card payment, and msisdn alone for mobile money.",
  "is required for a card payment": "terminal_serial is required for a card payment (card-present).",
  "is required when status is failed, and only then": "failure_reason is required when status is failed, and not allowed otherwise.",
};

const TRIMMED = "Spaces around it are removed first; it must hold more than spaces.";

type Schema = JsonSchema & { "x-rules"?: string[]; "x-trim"?: boolean; description?: string };

// Valibot's trim, checks and transforms have no JSON Schema of their own:
// trim (always before minLength(1) here) becomes "holds a non-space", a check
// becomes its rule in words, and the times' and dates' parse (functions/partner-api/instant.ts)
// adds format date-time or date to their pattern: a string both allow is exactly
// one the Worker takes (the pattern fixes the spelling; the format, in JSON Schema's
// RFC 3339 sense, asks for a day and time the calendar has).
function convert(): Record<SchemaName, Schema> {
  // The webhook deliveries' bodies go in too, so they can $ref the payment and the dispute they carry.
  const defs = toJsonSchemaDefs(
    { ...SCHEMAS, ...EVENT_SCHEMAS },
    {
      target: "draft-2020-12",
      errorMode: "throw",
      overrideRef: (context) => `#/components/schemas/${context.referenceId}`,
      overrideAction: (context) => {
        const action = context.valibotAction as { type: string; message?: unknown; requirement?: unknown };
        const schema = context.jsonSchema as Schema;
        if (action.type === "trim") return { ...schema, pattern: "\\S", "x-trim": true } as JsonSchema;
        if (action.type === "raw_transform") {
          const format = formatOfPattern(schema.pattern);
          if (!format) throw new Error("functions/partner-api/openapi.ts: a transform the document cannot describe");
          return { ...schema, format };
        }
        if (action.type === "check" || action.type === "partial_check") {
          const words = typeof action.message === "string" ? RULES_IN_WORDS[action.message] : undefined;
          if (!words) throw new Error(`functions/partner-api/openapi.ts: no words for the check "${String(action.message)}"`);
          return { ...schema, "x-rules": [...(schema["x-rules"] ?? []), words] } as JsonSchema;
        }
        return undefined;
      },
    },
  ) as Record<SchemaName, Schema>;
  return JSON.parse(JSON.stringify(defs), (_key, value: unknown) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return value;
    const { "x-rules": rules, "x-trim": trim, ...rest } = value as Schema;
    const words = [rest.description, trim ? TRIMMED : "", rules ? `Also: ${rules.join(" ")}` : ""].filter(Boolean).join(" ");
    return words ? { ...rest, description: words } : rest;
  }) as Record<SchemaName, Schema>;
}

const ref = (name: string, kind = "schemas") => ({ $ref: `#/components/${kind}/${name}` });
const json = (schema: SchemaName, example?: unknown) => ({
  "application/json": { schema: ref(schema), ...(example === undefined ? {} : { example }) },
});

/** A problem as the API answers it (functions/partner-api/problems.ts), for the document's examples. */
const problemExample = (code: ProblemCode, detail: string, errors?: ProblemError[]) => ({
  type: problemType(EXAMPLE_ORIGIN, code),
  title: PROBLEMS[code].title,
  status: PROBLEMS[code].status,
  code,
  detail,
  message: detail,
  request_id: "7F3K-Q2M9-XD4T",
  ...(errors ? { errors } : {}),
});
const problemJson = (example: unknown) => ({ [PROBLEM_CONTENT_TYPE]: { schema: ref("Problem"), example } });

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
const LISTED = {
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
const EVIDENCE_EXAMPLE = {
  id: "dev_4b0c6e2a9f1d4c7e8a3b5d0f2e1c9a7b",
  dispute_id: EXAMPLE_IDS.dispute,
  file_name: "Receipt Ɔdɔ Ɛnyo 🍲.pdf",
  content_type: "application/pdf",
  size: 48_213,
  uploaded_at: "2026-11-24T09:30:00.000Z",
} as const;

/** A page as every list answers it: here the first of several. */
const examplePage = (item: unknown) => ({ data: [item], has_more: true, next_cursor: "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd" });

const EXAMPLE_ORIGIN = "https://portal.example.com";
export const PROBLEM_EXAMPLE = problemExample("validation_failed", "The request has 2 problems.", [
  { path: "payments[0].amount", message: "must be whole pesewas" },
  { path: "payments[1].failure_reason", message: "is required when status is failed, and only then" },
]);

const DEFAULT_RATE_LIMIT_PER_MINUTE = configOf({}).api.rateLimitPerMinute;

export interface DocumentOptions {
  /** Requests a minute per API key (API_RATE_LIMIT_PER_MINUTE, functions/env.ts); the default is the Worker's. */
  rateLimitPerMinute?: number;
  /** The clock the request examples are dated from (examplesAt); EXAMPLE_TIME when left out. */
  now?: number;
}

const rateLimitWords = (perMinute: number) =>
  `Each API key may send at most ${perMinute} requests a minute (a platform key as many for each business it acts for). Over the limit the API answers 429 with Retry-After (seconds): wait that long, ` +
  `then send the same request again (with the same Idempotency-Key). Send up to ${MAX_PAYMENTS_PER_REQUEST} payments in one request rather than many small ones. ` +
  `Every answer carries the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10): \`RateLimit-Policy: "per-key";q=${perMinute};w=60\` ` +
  'and, once the request was counted against a key, `RateLimit: "per-key";r=<requests left>;t=<seconds until the window ends>`.';

const description = (perMinute: number) =>
  [
    "Processors push payments, reversals and terminal heartbeats into the Partners Portal; the portal answers 202 once it has queued them and applies them within seconds.",
    "",
    "**Authentication.** Every request carries `Authorization: Bearer <key>` with one of the business's API keys (Settings → Developers). " +
      "A key is shown once, when it is made; `pp_live_` keys act for the business's live data, `pp_test_` keys only for its test data (Test mode, on every deployment: the two never mix). A rolled key keeps working for 24 hours; a revoked one stops at once. " +
      "No key, or a wrong one, is 401, and the answer says nothing about which businesses exist. " +
      "A suspended business's own keys are refused with 403 until the platform reactivates it; a closed business takes nothing (403).",
    "",
    `**Platform keys.** The switch holds a platform key (\`pp_platform_live_\` or \`pp_platform_test_\`, made by the platform's staff) that acts for any business: ` +
      `each request names the business in the \`${BUSINESS_HEADER}\` header, as Stripe Connect's Stripe-Account does. Without the header it is 400; ` +
      "an id that is no business's is 404. A platform key may do only what its scopes allow, 403 otherwise: " +
      PLATFORM_SCOPES.map((scope) => `\`${scope}\` (${SCOPE_WORDS[scope].toLowerCase()})`).join(", ") +
      ". It still acts for a suspended business, so that money that moved is recorded. " +
      `A business's own key may send \`${BUSINESS_HEADER}\` only with its own business's id (403 otherwise).`,
    "",
    "**Idempotency.** A reference is unique within the business: sending the same payment again is harmless (it is one payment), " +
      "while the same reference with other content is kept aside as a conflict for an administrator and does not change the payment. " +
      "Send an `Idempotency-Key` header to get the first answer again when you retry a request; the same key with another body is 409. " +
      "Keys are kept per business, and a platform key's apart from the business's own keys: the same key sent for two businesses is two requests.",
    "",
    `**Rate limits.** ${rateLimitWords(perMinute)}`,
    "",
    "**Card numbers.** Never send a full card number (PAN). A request whose path, query, headers (Authorization aside) or body (values and keys) holds 13 to 19 digits " +
      "that pass the Luhn check, in any script and with anything but letters between them (spaces, dots, slashes, dashes, zero-width characters), is refused with 400 " +
      "naming where, and nothing of it is stored or logged (PCI DSS 3.4.1). Cards are sent as their BIN (first six digits) and last four. " +
      "Put a letter among every 12 digits of a reference; a date and a serial (PSP-20261123-000187, KFF-261121-0000487) is fine as it is.",
    "",
    "**Times.** A time is RFC 3339 with seconds and a zone: `2026-11-23T10:15:00Z` or `2026-11-23T11:15:00+01:00` (upper-case T and Z, " +
      "the zone as Z or ±HH:MM, up to 9 digits of fraction, cut to the millisecond). A date is `YYYY-MM-DD`. Each must be a day the calendar has " +
      "(no 31 September, no 30 February): anything else is a 400 naming the field, never moved to another day. " +
      `A payment or reversal may say it happened at most ${MAX_PAYMENT_AGE_MS / DAY_MS} days ago, ` +
      `and at most ${CLOCK_SKEW_MS / 60_000} minutes ahead of the portal's clock. Amounts are integer pesewas in GHS, at most ${MAX_AMOUNT_PESEWAS}.`,
    "",
    "**Versions.** The API is versioned by date. Each key answers as the version that was current when it was made (a rolled key keeps its " +
      `predecessor's); send \`${VERSION_HEADER}: <date>\` to be answered as another. Every answer names its version in \`${VERSION_HEADER}\`. ` +
      `Versions: ${API_VERSIONS.join(", ")}. docs/api-changelog.md says what each one changed; a change that could break your code only ever comes with a new date.`,
    "",
    "**Errors.** Every refusal is an RFC 9457 problem (`application/problem+json`): `type` links to the code's explanation in the API reference, " +
      "`code` is stable (branch on it, not on the words), `detail` says what went wrong with this request, `request_id` is what to quote to support, and a 400 " +
      `lists \`errors\`. The codes: ${PROBLEM_CODES.map((code) => `\`${code}\` (${PROBLEMS[code].status})`).join(", ")}.`,
    "",
    "**Validation.** A 400 lists every problem of the request with its JSON path (`payments[3].merchant`): a missing field `is required`, " +
      "an unknown one `is not a documented field`. A merchant, point of sale or terminal that is not this business's is answered exactly as an " +
      "unknown one, whoever it belongs to.",
    "",
    "**Webhooks.** The portal calls the business's endpoints on payment.succeeded, payment.failed, payment.reversed, settlement.paid, settlement.failed, " +
      "transfer.approved, transfer.rejected, refund.succeeded, refund.failed, approval.requested, terminal.silent, dispute.opened and dispute.closed. " +
      "Each call is signed the [Standard Webhooks](https://www.standardwebhooks.com/) way (`webhook-id` = the event id, `webhook-timestamp`, `webhook-signature`), " +
      "so its libraries and Svix's verify it given the endpoint's secret as shown (`whsec_...`). It is also signed the portal's own way: its `PP-Signature` header is " +
      '`t=<unix seconds>,v1=<hex>`, the hex being `HMAC-SHA256(secret, timestamp + "." + body)` over the raw body, keyed with the endpoint\'s secret (`whsec_...`). ' +
      "While a secret is being rolled a second `v1=` is made with the previous one: accept the call when any `v1=` matches. Compare in constant time, " +
      "refuse a timestamp more than 5 minutes from your clock, and de-duplicate on the event's id (`PP-Event-Id`): a call may come more than once. " +
      "Each endpoint is pinned to the version current when it was made, and every delivery's body is in that version's shapes: the `webhooks` section " +
      "shows the current version's, where each event's data is the object as GET answers it; endpoints pinned to 2026-11-27 get the older shapes " +
      "docs/api-changelog.md lists. docs/webhooks.md has the details and a receiver.",
  ].join("\n");

const responsesFor = (perMinute: number) => ({
  BadRequest: {
    description:
      "The request is not valid: every problem is listed with its JSON path. A field that looks like a full card number is one of them. " +
      `A platform key without the ${BUSINESS_HEADER} header is 400 too.`,
    content: problemJson(PROBLEM_EXAMPLE),
  },
  Unauthorized: {
    description: "No API key, or not a live key of any business (revoked, expired after a roll, or never made). The answer says nothing more.",
    content: problemJson(problemExample("unauthorized", MESSAGES.unauthorized)),
  },
  NotFound: {
    description:
      `No such payment, terminal, dispute, refund or event in this business (another business's reads the same); with a platform key, also a ${BUSINESS_HEADER} ` +
      "that names no business.",
    content: problemJson(problemExample("payment_not_found", "No payment with that reference.")),
  },
  Forbidden: {
    description:
      "The key may not do this for this business: the operation is outside a platform key's scopes, the business is closed, " +
      `the business is suspended (its own keys; a platform key still acts for it), or a business's own key named another business in ${BUSINESS_HEADER}.`,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: ref("Problem"),
        examples: {
          scope: { summary: "Outside the key's scopes", value: problemExample("out_of_scope", MESSAGES.outOfScope("disputes")) },
          suspended: { summary: "A suspended business's own key", value: problemExample("business_suspended", MESSAGES.suspended) },
          closed: { summary: "A closed business", value: problemExample("business_closed", MESSAGES.closed) },
          otherBusiness: { summary: "A business's key naming another business", value: problemExample("not_your_business", MESSAGES.notYourBusiness) },
        },
      },
    },
  },
  Conflict: {
    description: "The Idempotency-Key was already used with another request.",
    content: problemJson(
      problemExample("idempotency_key_reused", "This Idempotency-Key was already used with another request. Use a new key for a new request."),
    ),
  },
  TooLarge: {
    description: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB (${MAX_PAYMENTS_PER_REQUEST} payments take about 60 kB).`,
    content: problemJson(problemExample("body_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes. Send at most 100 payments a request.`)),
  },
  UnsupportedMediaType: {
    description: "The body is not sent as Content-Type: application/json.",
    content: problemJson(problemExample("unsupported_media_type", "Send the body as JSON with Content-Type: application/json.")),
  },
  TooManyRequests: {
    description: rateLimitWords(perMinute),
    headers: { "Retry-After": ref("RetryAfter", "headers") },
    content: problemJson(problemExample("rate_limited", `Too many requests for this key: at most ${perMinute} a minute.`)),
  },
});
type ResponseName = keyof ReturnType<typeof responsesFor>;

/** The answers of the door every operation may give (functions/partner-api/credential.ts): no key, no or another business, not allowed. */
const DOOR: ResponseName[] = ["BadRequest", "Unauthorized", "Forbidden", "NotFound"];

const errors = (...own: ResponseName[]) => {
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

const accepted = (what: string) => ({
  "202": { description: `${what} queued: the portal applies it within seconds.`, content: json("Accepted", EXAMPLES.accepted) },
});

/**
 * Who may call an operation: a business's own key, or a platform key holding the operation's scope (OpenAPI 3.1 lets
 * any scheme list the roles an operation needs).
 */
const securedFor = (operation: ApiOperation) =>
  isBusinessKeyOperation(operation) ? [{ apiKey: [] }] : [{ apiKey: [] }, { platformKey: [OPERATION_SCOPES[operation]] }];

const BUSINESS = ref("business", "parameters");
const POST_PARAMETERS = [BUSINESS, ref("IdempotencyKey", "parameters")];
const PAGE_PARAMETERS = [
  BUSINESS,
  { name: "limit", in: "query", required: false, description: "How many to a page: 1 to 100 (25).", schema: { type: "integer", minimum: 1, maximum: 100 } },
  { name: "after", in: "query", required: false, description: "The previous page's `next`.", schema: { type: "string" } },
];

/** The query schemas of the lists (./list-schemas.ts), each parameter of which the document lists. */
export const LIST_QUERIES = {
  listPayments: "PaymentsQuery",
  listMerchants: "MerchantsQuery",
  listPointsOfSale: "PointsOfSaleQuery",
  listTerminals: "TerminalsQuery",
  listDisputes: "DisputesQuery",
  listSettlements: "SettlementsQuery",
  listRefunds: "RefundsQuery",
  listEvents: "EventsQuery",
} as const satisfies Record<string, SchemaName>;

/**
 * A list's query parameters, one for each property of its query schema, as the Worker reads them. The limit is
 * written in digits, so it is shown as the integer it is (1 to 100); openapi.test.ts checks both say the same.
 */
function listParameters(schemas: Record<SchemaName, Schema>, query: SchemaName) {
  const properties = (schemas[query] as { properties?: Record<string, Schema> }).properties ?? {};
  return [
    BUSINESS,
    ...Object.entries(properties).map(([name, schema]) => {
      const resolved = schema.$ref ? schemas[schema.$ref.split("/").at(-1) as SchemaName] : schema;
      return {
        name,
        in: "query",
        required: false,
        description: resolved.description ?? "",
        schema: name === "limit" ? { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } : schema,
      };
    }),
  ];
}

const LIST_WORDS =
  "A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; " +
  "the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while " +
  "nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 " +
  "naming each as `query.<name>`.";

/** A list operation: its query, its page, and the door's answers. */
const listOperation = (
  schemas: Record<SchemaName, Schema>,
  operationId: keyof typeof LIST_QUERIES,
  route: ApiOperation,
  tag: string,
  summary: string,
  description: string,
  page: SchemaName,
  example: unknown,
) => ({
  operationId,
  security: securedFor(route),
  tags: [tag],
  summary,
  description: `${description} ${LIST_WORDS}`,
  parameters: listParameters(schemas, LIST_QUERIES[operationId]),
  responses: {
    "200": { description: "A page of them.", content: json(page, examplePage(example)) },
    ...errors("BadRequest", "Unauthorized", "TooManyRequests"),
  },
});

/** The headers every webhook delivery carries (docs/webhooks.md). */
const WEBHOOK_HEADERS = [
  ["webhook-id", "The event's id (evt_...): the same on every retry. Standard Webhooks."],
  ["webhook-timestamp", "When this attempt was signed, in Unix seconds. Standard Webhooks."],
  [
    "webhook-signature",
    'Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks.',
  ],
  ["PP-Signature", 't=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal\'s own signature of the same body.'],
  ["PP-Event-Id", "The event's id, again."],
  ["PP-Event-Type", "The event's type, again."],
].map(([name, description]) => ({ name, in: "header", required: true, description, schema: { type: "string" } }));

/** OpenAPI 3.1's webhooks: what the portal POSTs to a business's endpoints, one entry per event type. */
function webhooksSection() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          tags: ["Events"],
          summary: type,
          description: `${EVENT_DATA[type][1]} The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).`,
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: json(eventSchemaName(type) as SchemaName, EVENT_EXAMPLES[type]) },
          responses: {
            "200": {
              description:
                "Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled.",
            },
          },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of the Partner API, with `origin` as its server. */
export function openApiDocument(origin: string, options: DocumentOptions = {}) {
  const perMinute = options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const examples = examplesAt(options.now ?? EXAMPLE_TIME);
  const schemas = convert();
  return withVersionParameter({
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    // The document describes the newest version; docs/api-changelog.md says what each changed.
    info: { title: "Partners Portal Partner API", version: CURRENT_API_VERSION, description: description(perMinute) },
    servers: [{ url: origin, description: "This portal" }],
    webhooks: webhooksSection(),
    security: [{ apiKey: [] }],
    tags: [
      { name: "Payments", description: "Payments and their reversals." },
      { name: "Terminals", description: "POS terminals' heartbeats." },
      { name: "Disputes", description: "Disputes a scheme or network raised on payments: opened and closed by the processor." },
      { name: "Merchants", description: "The business's merchants and their points of sale: what a payment names." },
      { name: "Money out", description: "Settlements paid to merchants, and refunds of payments." },
      { name: "Events", description: "The events feed (what the webhooks announce, kept 30 days) and sending failed webhook deliveries again." },
    ],
    paths: {
      "/api/v1/payments": {
        get: listOperation(
          schemas,
          "listPayments",
          "listPayments",
          "Payments",
          "List payments",
          "The business's payments, newest first (by occurred_at, then as they were written), each as GET /api/v1/payments/{reference} answers it, " +
            "with its settlement and refunds. Filter by when they happened (`created_from` inclusive, `created_to` exclusive), status, merchant (its id: " +
            "another business's merchant filters to nothing, as an unknown one) and channel.",
          "PaymentsPage",
          LISTED.payment,
        ),
        post: {
          operationId: "sendPayments",
          security: securedFor("payments"),
          tags: ["Payments"],
          summary: "Send payments",
          description:
            `One payment, or up to ${MAX_PAYMENTS_PER_REQUEST} as {"payments": [...]}. The whole request is refused if any payment in it is not valid; ` +
            "a payment whose reference the business already holds is not applied twice.",
          parameters: POST_PARAMETERS,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: ref("PaymentsRequest"),
                examples: {
                  one: { summary: "One card payment", value: examples.cardPayment },
                  batch: { summary: "A batch", value: { payments: [examples.cardPayment, examples.failedMobileMoney] } },
                },
              },
            },
          },
          responses: {
            ...accepted("Payments"),
            ...errors("BadRequest", "Unauthorized", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
      "/api/v1/payments/{reference}": {
        get: {
          operationId: "getPayment",
          security: securedFor("payment"),
          tags: ["Payments"],
          summary: "Get a payment",
          description: "The payment as the portal holds it: status, fee, net, whether it cleared, and its settlement once there is one.",
          parameters: [ref("reference", "parameters"), BUSINESS],
          responses: {
            "200": { description: "The payment.", content: json("PaymentView") },
            ...errors("Unauthorized", "NotFound", "TooManyRequests"),
          },
        },
      },
      "/api/v1/payments/{reference}/reversal": {
        post: {
          operationId: "reversePayment",
          security: securedFor("reversal"),
          tags: ["Payments"],
          summary: "Reverse a payment",
          description:
            "A full reversal. A reversal that arrives before its payment waits for it; reversing twice is one reversal. " +
            "A cleared payment can be reversed: the amount comes back out of the merchant's available money.",
          // The card payment the payments example sends (the reference parameter's own example is a payment the seed holds).
          parameters: [
            { name: "reference", in: "path", required: true, description: schemas.Reference.description, schema: ref("Reference"), example: "PSP-K000201" },
            ...POST_PARAMETERS,
          ],
          requestBody: { required: true, content: json("ReversalInput", examples.reversal) },
          responses: {
            "202": {
              description:
                "The reversal queued. payment_known says whether the portal held the payment; when it did not, the reversal waits " +
                `${REVERSAL_WAIT_DAYS} days for it (GET /api/v1/reversals/waiting) and then expires.`,
              content: json("ReversalAccepted", { accepted: 1, payment_known: false, message: PAYMENT_NOT_KNOWN_MESSAGE }),
            },
            ...errors("BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
      "/api/v1/rejections": {
        get: {
          operationId: "listRejections",
          security: securedFor("rejections"),
          tags: ["Payments"],
          summary: "List requests accepted but not applied",
          description:
            "Requests the API answered 202 and the portal then could not apply (kept aside so that they hold back nothing else), newest first. " +
            "Nothing of such a request was applied; the portal's operators are alerted and apply it again once the cause is fixed. Empty when all is well.",
          parameters: PAGE_PARAMETERS,
          responses: {
            "200": { description: "A page of them.", content: json("RejectionsPage") },
            ...errors("BadRequest", "Unauthorized", "TooManyRequests"),
          },
        },
      },
      "/api/v1/reversals/waiting": {
        get: {
          operationId: "listWaitingReversals",
          security: securedFor("waitingReversals"),
          tags: ["Payments"],
          summary: "List reversals waiting for their payment",
          description:
            `Reversals sent for a reference the portal did not hold, newest first: each waits ${REVERSAL_WAIT_DAYS} days for its payment and is applied when it arrives; ` +
            "after that it is listed as expired and never applied (a later payment with the reference is another payment).",
          parameters: PAGE_PARAMETERS,
          responses: {
            "200": { description: "A page of them.", content: json("WaitingReversalsPage") },
            ...errors("BadRequest", "Unauthorized", "TooManyRequests"),
          },
        },
      },
      "/api/v1/disputes": {
        get: listOperation(
          schemas,
          "listDisputes",
          "listDisputes",
          "Disputes",
          "List disputes",
          "The business's disputes, newest first (by opened_at), each as opening it answered; filter by status or by the disputed payment's reference.",
          "DisputesPage",
          LISTED.dispute,
        ),
        post: {
          operationId: "openDispute",
          security: securedFor("disputes"),
          tags: ["Disputes"],
          summary: "Open a dispute",
          description:
            "Written before the answer (not queued): the disputed amount is held from the merchant's available money at once, so it is neither " +
            "transferred nor settled until the dispute is closed. Only a successful payment can be disputed, for at most its amount less its earlier " +
            "disputes that were not won. The business answers in the portal before the evidence due date.",
          parameters: POST_PARAMETERS,
          requestBody: { required: true, content: json("DisputeInput", examples.dispute) },
          responses: {
            "201": { description: "The dispute, with the id to close it with.", content: json("DisputeView") },
            ...errors("BadRequest", "Unauthorized", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
      "/api/v1/disputes/{id}": {
        get: {
          operationId: "getDispute",
          security: securedFor("dispute"),
          tags: ["Disputes"],
          summary: "Get a dispute",
          description:
            "The dispute as the portal holds it: its status, whether the business submitted its response, when it closed, and the evidence files " +
            "attached to it (on its page or through the API). Another business's id is 404.",
          parameters: [
            { name: "id", in: "path", required: true, description: "The dispute's id (dsp_...).", schema: { type: "string" }, example: EXAMPLE_IDS.dispute },
            BUSINESS,
          ],
          responses: {
            "200": {
              description: "The dispute, with its evidence files.",
              content: json("DisputeDetailView", { ...LISTED.dispute, evidence: [EVIDENCE_EXAMPLE] }),
            },
            ...errors("Unauthorized", "NotFound", "TooManyRequests"),
          },
        },
      },
      "/api/v1/merchants": {
        get: listOperation(
          schemas,
          "listMerchants",
          "merchants",
          "Merchants",
          "List merchants",
          "The business's merchants, newest first (by when they were added). A payment names its merchant by `id` or `code`.",
          "MerchantsPage",
          LISTED.merchant,
        ),
      },
      "/api/v1/points-of-sale": {
        get: listOperation(
          schemas,
          "listPointsOfSale",
          "pointsOfSale",
          "Merchants",
          "List points of sale",
          "The business's points of sale, newest first (by when they were added), of every merchant or of one.",
          "PointsOfSalePage",
          LISTED.pointOfSale,
        ),
      },
      "/api/v1/terminals": {
        get: listOperation(
          schemas,
          "listTerminals",
          "terminals",
          "Terminals",
          "List terminals",
          "The business's POS terminals by serial, with their last heartbeat; filter by merchant, point of sale or status.",
          "TerminalsPage",
          LISTED.terminal,
        ),
      },
      "/api/v1/settlements": {
        get: listOperation(
          schemas,
          "listSettlements",
          "settlements",
          "Money out",
          "List settlements",
          "The business's settlements, newest first (by when the daily run made them), with their amounts in pesewas, status, payout attempts and the rail " +
            "that carried them; filter by status and by when they were made (`created_from` inclusive, `created_to` exclusive).",
          "SettlementsPage",
          LISTED.settlement,
        ),
      },
      "/api/v1/refunds": {
        get: listOperation(
          schemas,
          "listRefunds",
          "refunds",
          "Money out",
          "List refunds",
          "The business's refunds, newest first (by when they were asked for), each as its payment's answer shows it with the payment's reference; " +
            "filter by status or by the payment's reference.",
          "RefundsPage",
          LISTED.refund,
        ),
        post: {
          operationId: "askRefund",
          security: securedFor("askRefund"),
          tags: ["Money out"],
          summary: "Ask for a refund",
          description:
            "The same request the portal's refund screen makes, with its rules and words: a refund of a successful payment, full or partial, waiting for an " +
            "administrator of the business to approve it in the portal (Approvals). No money moves before. It is asked in the name of the person who made " +
            "the key, so another administrator decides it. The amount is at most the payment's amount less what is refunded, waits for approval or is " +
            "disputed, and at most the merchant's available money. Written before the answer (not queued): read its status with GET /api/v1/refunds/{id}, " +
            "or hear refund.succeeded and refund.failed. A business's own key only.",
          parameters: POST_PARAMETERS,
          requestBody: { required: true, content: json("RefundRequestInput", examples.refundRequest) },
          responses: {
            "201": {
              description: "The refund, waiting for approval, with its id.",
              content: json("RefundListItem", {
                ...LISTED.refund,
                id: "rfd_5c1f0b7e-8d2a-4c6b-9e3f-1a2b3c4d5e6f",
                amount: examples.refundRequest.amount,
                reason: examples.refundRequest.reason,
                status: "pending_approval",
                requested_at: "2026-11-23T10:20:00.000Z",
                decided_at: null,
                completed_at: null,
              }),
            },
            ...errors("BadRequest", "Unauthorized", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
      "/api/v1/refunds/{id}": {
        get: {
          operationId: "getRefund",
          security: securedFor("refund"),
          tags: ["Money out"],
          summary: "Get a refund",
          description:
            "A refund's status now: pending_approval until an administrator decides it, then rejected, or sending and then succeeded or failed. " +
            "Another business's id is 404.",
          parameters: [
            { name: "id", in: "path", required: true, description: "The refund's id (rfd_...).", schema: { type: "string" }, example: EXAMPLE_IDS.refund },
            BUSINESS,
          ],
          responses: {
            "200": { description: "The refund.", content: json("RefundListItem", LISTED.refund) },
            ...errors("Unauthorized", "NotFound", "TooManyRequests"),
          },
        },
      },
      "/api/v1/disputes/{id}/close": {
        post: {
          operationId: "closeDispute",
          security: securedFor("disputeClose"),
          tags: ["Disputes"],
          summary: "Close a dispute",
          description:
            "won: the held amount returns to the merchant's available money; lost: it leaves (the scheme or network takes it back). " +
            "Closing again with the same outcome answers the dispute as it is; with the other outcome, 409.",
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              description: "The dispute's id (dsp_...).",
              schema: { type: "string" },
              example: EXAMPLE_IDS.disputeToClose,
            },
            BUSINESS,
          ],
          requestBody: { required: true, content: json("DisputeCloseInput", examples.disputeClose) },
          responses: {
            "200": { description: "The dispute, closed.", content: json("DisputeView") },
            ...errors("BadRequest", "Unauthorized", "NotFound", "Conflict", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
      "/api/v1/disputes/{id}/evidence": {
        post: {
          operationId: "addDisputeEvidence",
          security: securedFor("disputeEvidence"),
          tags: ["Disputes"],
          summary: "Attach evidence to a dispute",
          description:
            "One file, sent as multipart/form-data with one part named `file` (`curl -F file=@receipt.pdf`), as the dispute's page attaches it and with " +
            "the same rules and words: a PDF, JPEG, PNG or WebP image told from its content (not its name or declared type), at most 10 MB, a name that " +
            "does not claim another of the four kinds, at most 10 files a dispute, only while the dispute is open and before its evidence due date " +
            "(409 otherwise). The file's content is not scanned for card numbers (it is kept, never logged or shown back); its name is. " +
            "Each request attaches a file: it takes no Idempotency-Key.",
          parameters: [
            { name: "id", in: "path", required: true, description: "The dispute's id (dsp_...).", schema: { type: "string" }, example: EXAMPLE_IDS.dispute },
            BUSINESS,
          ],
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["file"],
                  properties: { file: { type: "string", contentMediaType: "application/octet-stream", description: "The file, with its name." } },
                },
                encoding: { file: { contentType: "application/pdf, image/jpeg, image/png, image/webp" } },
              },
            },
          },
          responses: {
            "201": {
              description: "The file, attached.",
              content: json("EvidenceView", EVIDENCE_EXAMPLE),
            },
            ...errors("BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
      "/api/v1/events": {
        get: listOperation(
          schemas,
          "listEvents",
          "events",
          "Events",
          "List events",
          "Every event the business's changes made in the last 30 days, subscribed to by an endpoint or not, newest recorded first, with the same id, type, " +
            "created and data its webhook deliveries carry: a receiver that was down reads what was recorded while it was away (`recorded_from`), and skips " +
            "ids it already has. Filter by type. A business's own key only.",
          "EventsPage",
          LISTED.event,
        ),
      },
      "/api/v1/events/{id}": {
        get: {
          operationId: "getEvent",
          security: securedFor("event"),
          tags: ["Events"],
          summary: "Get an event",
          description:
            "One event of the last 30 days, as the feed and its webhook deliveries carry it. Another business's event is answered as an unknown one.",
          parameters: [
            { name: "id", in: "path", required: true, description: "The event's id (evt_...).", schema: { type: "string" }, example: EXAMPLE_IDS.event },
            BUSINESS,
          ],
          responses: {
            "200": { description: "The event.", content: json("EventView", LISTED.event) },
            ...errors("Unauthorized", "NotFound", "TooManyRequests"),
          },
        },
      },
      "/api/v1/webhook-endpoints/{id}/resend-failed": {
        post: {
          operationId: "resendFailedDeliveries",
          security: securedFor("resendFailed"),
          tags: ["Events"],
          summary: "Send failed deliveries again",
          description:
            "Every delivery to this endpoint that failed for good and was made at `since` or later becomes pending again with a new 24-hour retry window, " +
            "oldest first, at most 1,000 a request (`has_more` says when more are left). The endpoint must be enabled (409 otherwise). The endpoint's id is in " +
            "its delivery log's address (Settings → Developers). As the delivery log's button does, audited. A business's own key only.",
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              description: "The webhook endpoint's id (we_...).",
              schema: { type: "string" },
              example: EXAMPLE_IDS.webhookEndpoint,
            },
            BUSINESS,
          ],
          requestBody: { required: true, content: json("ResendFailedInput", examples.resendFailed) },
          responses: {
            "200": { description: "Queued.", content: json("ResendFailedAnswer", { queued: 42, has_more: false }) },
            ...errors("BadRequest", "Unauthorized", "NotFound", "Conflict", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
      "/api/v1/terminals/{serial}/heartbeats": {
        post: {
          operationId: "sendHeartbeat",
          security: securedFor("heartbeat"),
          tags: ["Terminals"],
          summary: "Send a terminal heartbeat",
          description: "The terminal is alive: its last-seen time, battery, signal and software version are updated, so it is no longer silent.",
          parameters: [ref("serial", "parameters"), ...POST_PARAMETERS],
          requestBody: { required: true, content: json("HeartbeatInput", examples.heartbeat) },
          responses: {
            "200": {
              description: "Not applied: sent_at is older than the terminal's last heartbeat. Nothing was queued.",
              content: json("HeartbeatNotApplied", {
                accepted: 0,
                applied: false,
                reason: "stale",
                message: "sent_at is older than this terminal's last heartbeat (2026-11-23T10:25:00.000Z): it was not applied.",
                last_seen_at: "2026-11-23T10:25:00.000Z",
              }),
            },
            ...accepted("The heartbeat"),
            ...errors("BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"),
          },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pp_live_ or pp_test_ and 32 letters and digits",
          description: "A business's API key, made in Settings → Developers. It acts for its own business only.",
        },
        platformKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "pp_platform_live_ or pp_platform_test_ and 32 letters and digits",
          description:
            `The switch's platform key, made by the platform's staff: it acts for the business named in the ${BUSINESS_HEADER} header, ` +
            `within its scopes (${PLATFORM_SCOPES.join(", ")}); each operation lists the scope it needs.`,
        },
      },
      parameters: {
        business: {
          name: BUSINESS_HEADER,
          in: "header",
          required: false,
          description:
            "The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); " +
            "a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods.",
          schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,100}$" },
        },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: schemas.IdempotencyKey.description,
          schema: ref("IdempotencyKey"),
        },
        reference: {
          name: "reference",
          in: "path",
          required: true,
          description: schemas.Reference.description,
          schema: ref("Reference"),
          example: EXAMPLE_IDS.payment,
        },
        serial: {
          name: "serial",
          in: "path",
          required: true,
          description: "The terminal's serial.",
          schema: ref("TerminalSerial"),
          example: EXAMPLE_IDS.terminalSerial,
        },
        version: {
          name: VERSION_HEADER,
          in: "header",
          required: false,
          description:
            `The dated API version to answer as: one of ${API_VERSIONS.join(", ")}. Without it, the version the key was made with ` +
            "(a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version.",
          schema: { type: "string", enum: [...API_VERSIONS] },
        },
      },
      headers: {
        RetryAfter: { description: schemas.RetryAfter.description, schema: ref("RetryAfter") },
      },
      responses: responsesFor(perMinute),
    },
  });
}

/** PP-Version on every operation but the public document itself, without repeating it in each. */
function withVersionParameter<T extends { paths: Record<string, Record<string, { parameters?: unknown[] }>> }>(doc: T): T {
  for (const [path, item] of Object.entries(doc.paths)) {
    if (path.endsWith("/openapi.json")) continue;
    for (const operation of Object.values(item)) operation.parameters = [...(operation.parameters ?? []), ref("version", "parameters")];
  }
  return doc;
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

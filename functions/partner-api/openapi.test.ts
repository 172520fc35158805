// The Partner API's OpenAPI document (functions/partner-api/openapi.ts) against the
// valibot schemas the Worker checks with: the document is OpenAPI 3.1 in shape,
// and a processor that follows it is never refused by the Worker for a reason the
// document does not give. The JSON Schema checker (tests/support/json-schema.ts) knows exactly the
// keywords the document uses and fails on any other, so a new keyword cannot
// slip through unchecked.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { jsonSchemaChecker, type JsonObject } from "../../tests/support/json-schema";
import { cardNumberPaths } from "../card-numbers/card-numbers";
import { EXAMPLES, openApiDocument, PROBLEM_EXAMPLE, RULES_IN_WORDS, type SchemaName } from "./openapi";
import { IdempotencyKey } from "./schemas";
import * as rejections from "./rejections";
import * as api from "./schemas";
import * as lists from "./list-schemas";
import { EVENT_EXAMPLES, eventEnvelope, eventSchemaName } from "./event-schemas";
import { WEBHOOK_EVENT_TYPES } from "../webhooks/types";
import { BUSINESS_KEY_OPERATIONS, isBusinessKeyOperation, LIST_QUERIES, OPERATION_SCOPES, OPERATIONS, type OperationName } from "./operations";
import { PLATFORM_SCOPES } from "../operators/platform-scopes";

/** Each documented operation and the router's route that answers it: the table's rows, which build both. */
const ROUTE_OF: Record<string, OperationName> = Object.fromEntries(OPERATIONS.map(({ operationId, name }) => [operationId, name]));

const doc = openApiDocument("https://portal.example.com") as unknown as JsonObject;
const components = doc.components as JsonObject;
const schemas = components.schemas as Record<SchemaName, JsonObject>;
const { resolve, accepts } = jsonSchemaChecker(doc);

// --- samples: valid payloads, and each of them with one value changed, removed or added

const POOL: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  100,
  101,
  1250,
  api.MAX_AMOUNT_PESEWAS,
  api.MAX_AMOUNT_PESEWAS + 1,
  "",
  " ",
  "  Padded reason  ",
  "a",
  "x".repeat(6),
  "x".repeat(32),
  "x".repeat(33),
  "x".repeat(64),
  "x".repeat(65),
  "é".repeat(200),
  "x".repeat(201),
  "Ɔdɔ Ɛ Ŋ 🎉 مرحبا",
  "233244123456",
  "233544123456",
  "233144123456",
  "23324412345",
  "492181",
  "49218",
  "4242",
  "424",
  ...api.MOBILE_MONEY_NETWORKS,
  ...api.CARD_SCHEMES,
  "mtn",
  ...api.CHANNELS,
  "cash",
  "successful",
  "failed",
  "reversed",
  "GHS",
  "USD",
  "2026-11-23T10:15:00Z",
  "2026-11-23T10:15:00.123+00:00",
  "2026-11-23 10:15:00+0100",
  "2026-11-25T11:15:13+01",
  "2026-11-25T11:15:13 +00:00",
  "2026-09-31T10:00:00Z",
  "2028-02-29T23:59:59.999999999-12:00",
  "2027-02-29T00:00:00+14:00",
  "2026-12-31T23:59:60Z",
  "2026-11-25T24:00:00Z",
  "2026-11-25t11:15:13z",
  "2027-02-30",
  "2028-02-29",
  "2026-11-23T10:15:00",
  "2026-13-01T00:00:00Z",
  "PAX-A920-004512",
  "PSP/1:a.b_c-d",
  "-starts-with-hyphen",
  "mer_kff_osu",
  "4.2.1",
  "4.2.1 beta",
  [],
  {},
  { msisdn: "233244123456" },
  { card_bin: "492181", card_last4: "4242" },
  { card_bin: "492181", card_last4: "4242", msisdn: "233244123456" },
  { id: "mer_1", code: "KFF" },
  { path: "payments[0]", message: "must be a number" },
  [{ path: "payments[0]", message: "must be a number" }],
];

const clone = <T>(value: T): T => structuredClone(value);

/** Every path to a value inside `value`, the root ([]) first. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [at, ...value.flatMap((item, i) => paths(item, [...at, i]))];
  if (value && typeof value === "object") return [at, ...Object.entries(value).flatMap(([key, item]) => paths(item, [...at, key]))];
  return [at];
}

function replaced(base: unknown, path: (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = clone(base) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (next === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = next;
  return copy;
}

interface Sample {
  value: unknown;
  /** An array stands where the schema wants an object. */
  arrayForObject: boolean;
}

function samples(bases: unknown[]): Sample[] {
  const out: Sample[] = [];
  for (const base of bases) {
    out.push({ value: base, arrayForObject: false });
    for (const path of paths(base)) {
      const here = path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], base);
      const isObject = Boolean(here) && typeof here === "object" && !Array.isArray(here);
      for (const value of POOL) out.push({ value: replaced(base, path, clone(value)), arrayForObject: isObject && Array.isArray(value) });
      if (Array.isArray(here)) {
        for (const length of [0, 1, api.MAX_PAYMENTS_PER_REQUEST, api.MAX_PAYMENTS_PER_REQUEST + 1]) {
          out.push({
            value: replaced(
              base,
              path,
              Array.from({ length }, (_, i) => clone(here[i % here.length])),
            ),
            arrayForObject: false,
          });
        }
      } else if (isObject) {
        out.push({ value: replaced(base, path, { ...clone(here as object), unexpected: "field" }), arrayForObject: false });
      }
    }
  }
  return out;
}

const cardFailed = { ...EXAMPLES.cardPayment, reference: "PSP-20261123-K000189", status: "failed", failure_reason: "Do not honour" };
const momo = { ...EXAMPLES.failedMobileMoney, status: "successful", failure_reason: undefined, network: "Telecel", payer: { msisdn: "233204123456" } };
const payments = [EXAMPLES.cardPayment, EXAMPLES.failedMobileMoney, cardFailed, JSON.parse(JSON.stringify(momo)) as unknown];
const paymentView = {
  reference: "PSP-20261123-K000187",
  merchant: { id: "mer_kff_osu", code: "KFF-OSU" },
  point_of_sale: "pos_kff_osu_1",
  terminal_serial: null,
  channel: "mobile_money",
  network: "MTN",
  payer: { msisdn: "233244123456" },
  amount: 12_550,
  currency: "GHS",
  fee: 188,
  net: 12_362,
  status: "reversed",
  failure_reason: null,
  occurred_at: "2026-11-23T10:15:00Z",
  cleared: true,
  cleared_at: "2026-11-24T10:15:00Z",
  reversal: { reason: "Refund", reversed_at: "2026-11-25T09:00:00Z" },
  settlement: { id: "stl_1", reference: "STL-1", status: "paid", paid_at: "2026-11-24T18:00:00Z" },
};

/** Items of the lists, as the Worker's views make them. */
const LISTED = {
  event: {
    id: "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
    type: "dispute.opened",
    created: "2026-11-26T09:12:40.000Z",
    recorded_at: "2026-11-26T09:12:40.412Z",
    data: { dispute: { id: "dsp_1", status: "open" } },
  },
  merchant: {
    id: "mer_kff_osu",
    code: "KFF-OSU",
    name: "Ɔdɔ Ɛnyo Ŋkatie 🍲",
    trading_name: "Ɔdɔ",
    tin: "C0012345678",
    sector: "Food",
    town: "Osu",
    region: "Greater Accra",
    address: "Oxford Street",
    contact_name: "Ama",
    contact_phone: "233244123456",
    contact_email: "a@example.com",
    status: "active",
    created_at: "2026-03-02T09:00:00.000Z",
    updated_at: "2026-03-02T09:00:00.000Z",
  },
  pointOfSale: {
    id: "pos_kff_osu_1",
    merchant: "mer_kff_osu",
    name: "Osu",
    town: "Osu",
    region: "Greater Accra",
    address: "Oxford Street",
    contact_phone: "233244123456",
    status: "inactive",
    created_at: "2026-03-02T09:00:00.000Z",
    updated_at: "2026-03-02T09:00:00.000Z",
  },
  terminal: {
    id: "trm_1",
    serial: "PAX-A920-004512",
    model: "PAX A920",
    software_version: "4.2.1",
    status: "active",
    merchant: "mer_kff_osu",
    point_of_sale: "pos_kff_osu_1",
    last_seen_at: "2026-11-23T10:20:00.000Z",
    battery_percent: 76,
    signal_percent: 58,
    created_at: "2026-03-02T09:00:00.000Z",
    updated_at: "2026-03-02T09:00:00.000Z",
  },
  dispute: {
    id: "dsp_0123456789abcdef0123456789abcdef",
    payment_reference: "PSP-20261123-K000187",
    merchant_id: "mer_kff_osu",
    reason_code: "13.1",
    amount: 12_550,
    currency: "GHS",
    evidence_due_by: "2026-12-07",
    status: "lost",
    opened_at: "2026-11-23T10:15:00.000Z",
    response_submitted_at: "2026-11-24T10:15:00.000Z",
    closed_at: "2026-11-25T10:15:00.000Z",
  },
  settlement: {
    id: "stl_1",
    reference: "STL-1",
    merchant: "mer_kff_osu",
    settlement_account: "sa_1",
    transfer: null,
    period_start: "2026-11-23T00:00:00.000Z",
    period_end: "2026-11-24T00:00:00.000Z",
    gross: 1000,
    fees: 18,
    net: 982,
    currency: "GHS",
    status: "paid",
    attempts: 2,
    created_at: "2026-11-24T06:00:00.000Z",
    paid_at: "2026-11-24T06:01:00.000Z",
    rail: "switch",
    rail_reference: "SW-1",
    rail_status: "completed",
  },
  refund: {
    id: "rfd_1",
    amount: 500,
    currency: "GHS",
    status: "failed",
    reason: "Returned",
    requested_at: "2026-11-23T10:15:00.000Z",
    decided_at: "2026-11-23T10:20:00.000Z",
    completed_at: "2026-11-23T10:25:00.000Z",
    failure_reason: "Wallet closed",
    payment_reference: "PSP-20261123-K000187",
  },
};

const CASES: [SchemaName, v.GenericSchema, unknown[]][] = [
  ["PaymentInput", api.PaymentInput, payments],
  ["PaymentBatchInput", api.PaymentBatchInput, [{ payments: payments.slice(0, 2) }]],
  ["PaymentsRequest", api.PaymentsRequest, [EXAMPLES.cardPayment, { payments: [EXAMPLES.failedMobileMoney] }]],
  ["ReversalInput", api.ReversalInput, [EXAMPLES.reversal]],
  ["HeartbeatInput", api.HeartbeatInput, [EXAMPLES.heartbeat]],
  ["DisputeInput", api.DisputeInput, [EXAMPLES.dispute]],
  ["DisputeCloseInput", api.DisputeCloseInput, [EXAMPLES.disputeClose, { outcome: "lost" }]],
  ["RefundRequestInput", api.RefundRequestInput, [EXAMPLES.refundRequest, { ...EXAMPLES.refundRequest, reason: "Ɔdɔ Ɛnyo: wrong item 🍲" }]],
  ["Reference", api.Reference, ["PSP-20261123-K000187"]],
  ["TerminalSerial", api.TerminalSerial, ["PAX-A920-004512"]],
  ["Payer", api.Payer, [{ msisdn: "233244123456" }, { card_bin: "492181", card_last4: "4242" }]],
  ["IdempotencyKey", IdempotencyKey, ["0b9f6a5e-6d0e-4c3b-9d43-0f3f1c0c2a11"]],
  ["PaymentView", api.PaymentView, [paymentView]],
  [
    "DisputeView",
    api.DisputeView,
    [
      {
        id: "dsp_0123456789abcdef0123456789abcdef",
        payment_reference: "PSP-20261123-K000187",
        merchant_id: "mer_kff_osu",
        reason_code: "13.1",
        amount: 12_550,
        currency: "GHS",
        evidence_due_by: "2026-12-07",
        status: "open",
        opened_at: "2026-11-23T10:15:00.000Z",
        response_submitted_at: null,
        closed_at: null,
      },
    ],
  ],
  ["Accepted", api.Accepted, [EXAMPLES.accepted]],
  [
    "DisputeDetailView",
    api.DisputeDetailView,
    [
      {
        id: "dsp_0123456789abcdef0123456789abcdef",
        payment_reference: "PSP-20261123-K000187",
        merchant_id: "mer_kff_osu",
        reason_code: "13.1",
        amount: 12_550,
        currency: "GHS",
        evidence_due_by: "2026-12-07",
        status: "open",
        opened_at: "2026-11-23T10:15:00.000Z",
        response_submitted_at: null,
        closed_at: null,
        evidence: [],
      },
    ],
  ],
  [
    "EvidenceView",
    api.EvidenceView,
    [
      {
        id: "dev_4b0c6e2a9f1d4c7e8a3b5d0f2e1c9a7b",
        dispute_id: "dsp_0123456789abcdef0123456789abcdef",
        file_name: "Receipt Ɔdɔ Ɛnyo 🍲.pdf",
        content_type: "application/pdf",
        size: 48_213,
        uploaded_at: "2026-11-24T09:30:00.000Z",
      },
    ],
  ],
  [
    "HeartbeatNotApplied",
    api.HeartbeatNotApplied,
    [{ accepted: 0, applied: false, reason: "stale", message: "sent_at is older", last_seen_at: "2026-11-23T10:25:00.000Z" }],
  ],
  ["ReversalAccepted", rejections.ReversalAccepted, [rejections.reversalAnswer(false), rejections.reversalAnswer(true)]],
  [
    "RejectionView",
    rejections.RejectionView,
    [
      {
        id: "prk_0123456789abcdef01234567",
        references: ["PSP-1"],
        code: "not_applied",
        problem: "p",
        error: "e",
        attempts: 1,
        received_at: null,
        parked_at: "2026-11-25T09:00:00.000Z",
      },
      {
        id: "cfl_12",
        references: ["PSP-2"],
        code: "reference_conflict",
        problem: "p",
        error: "p",
        attempts: 1,
        received_at: "2026-11-25T09:00:00.000Z",
        parked_at: "2026-11-25T09:00:00.000Z",
      },
    ],
  ],
  ["RejectionsPage", rejections.RejectionsPage, [{ data: [], next: null }]],
  [
    "WaitingReversalView",
    rejections.WaitingReversalView,
    [
      {
        reference: "PSP-1",
        reason: "Customer complaint",
        reversed_at: "2026-11-25T09:00:00.000Z",
        received_at: "2026-11-25T09:00:00.000Z",
        expires_at: "2026-12-02T09:00:00.000Z",
        status: "waiting",
      },
    ],
  ],
  ["WaitingReversalsPage", rejections.WaitingReversalsPage, [{ data: [], next: "abc" }]],
  ["Problem", api.Problem, [PROBLEM_EXAMPLE]],
  ["Limit", lists.Limit, ["1", "25", "100"]],
  ["Cursor", lists.Cursor, ["WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"]],
  [
    "PaymentsQuery",
    lists.PaymentsQuery,
    [
      {},
      {
        created_from: "2026-11-01T00:00:00Z",
        created_to: "2026-11-23T11:15:00.250+01:00",
        status: "reversed",
        merchant: "mer_kff_osu",
        channel: "card",
        limit: "100",
        cursor: "abc",
      },
    ],
  ],
  ["MerchantsQuery", lists.MerchantsQuery, [{ limit: "1", cursor: "abc" }]],
  ["PointsOfSaleQuery", lists.PointsOfSaleQuery, [{ merchant: "mer_kff_osu", limit: "5" }]],
  ["TerminalsQuery", lists.TerminalsQuery, [{ merchant: "mer_kff_osu", point_of_sale: "pos_kff_osu_1", status: "in_stock" }]],
  ["DisputesQuery", lists.DisputesQuery, [{ status: "won", payment_reference: "PSP-20261123-K000187" }]],
  ["SettlementsQuery", lists.SettlementsQuery, [{ created_from: "2026-11-01T00:00:00Z", created_to: "2026-12-01T00:00:00Z", status: "failed" }]],
  ["RefundsQuery", lists.RefundsQuery, [{ status: "pending_approval", payment_reference: "PSP-1" }]],
  ["PaymentsPage", lists.PaymentsPage, [{ data: [paymentView], has_more: true, next_cursor: "abc" }]],
  ["MerchantView", lists.MerchantView, [LISTED.merchant]],
  ["MerchantsPage", lists.MerchantsPage, [{ data: [LISTED.merchant], has_more: false, next_cursor: null }]],
  ["PointOfSaleView", lists.PointOfSaleView, [LISTED.pointOfSale]],
  ["PointsOfSalePage", lists.PointsOfSalePage, [{ data: [LISTED.pointOfSale], has_more: false, next_cursor: null }]],
  ["TerminalView", lists.TerminalView, [LISTED.terminal, { ...LISTED.terminal, merchant: null, point_of_sale: null, last_seen_at: null, status: "in_stock" }]],
  ["TerminalsPage", lists.TerminalsPage, [{ data: [LISTED.terminal], has_more: false, next_cursor: null }]],
  ["DisputesPage", lists.DisputesPage, [{ data: [LISTED.dispute], has_more: true, next_cursor: "abc" }]],
  [
    "SettlementView",
    lists.SettlementView,
    [
      LISTED.settlement,
      { ...LISTED.settlement, status: "pending", paid_at: null, rail: null, rail_reference: null, rail_status: null },
      // A transfer's payout: its period the instant of the approval, no fees.
      { ...LISTED.settlement, transfer: "trf_1", reference: "TRF-MRC-0001-3F2A9C1B7D4E5F60", period_end: "2026-11-23T00:00:00.000Z", fees: 0, net: 1000 },
    ],
  ],
  ["SettlementsPage", lists.SettlementsPage, [{ data: [LISTED.settlement], has_more: false, next_cursor: null }]],
  ["RefundListItem", lists.RefundListItem, [LISTED.refund]],
  ["RefundsPage", lists.RefundsPage, [{ data: [LISTED.refund], has_more: false, next_cursor: null }]],
  ["EventsQuery", lists.EventsQuery, [{ type: "payment.succeeded", recorded_from: "2026-11-26T00:00:00Z", limit: "10" }]],
  ["EventView", lists.EventView, [LISTED.event]],
  ["EventsPage", lists.EventsPage, [{ data: [LISTED.event], has_more: false, next_cursor: null }]],
  ["ResendFailedInput", lists.ResendFailedInput, [{ since: "2026-11-26T06:00:00Z" }]],
  ["ResendFailedAnswer", lists.ResendFailedAnswer, [{ queued: 42, has_more: false }]],
  // Each webhook delivery's body, with the example the document shows for it.
  ...WEBHOOK_EVENT_TYPES.map((type): [SchemaName, v.GenericSchema, unknown[]] => [
    eventSchemaName(type) as SchemaName,
    eventEnvelope(type),
    [EVENT_EXAMPLES[type]],
  ]),
];

function leafIssues(issues: readonly v.BaseIssue<unknown>[]): v.BaseIssue<unknown>[] {
  return issues.flatMap((issue) => (issue.issues?.length ? leafIssues(issue.issues) : [issue]));
}

describe("the OpenAPI document is OpenAPI 3.1 in shape", () => {
  it("says 3.1.0, has info and a server, and a bearer security scheme that every operation uses", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.servers).toEqual([expect.objectContaining({ url: "https://portal.example.com" })]);
    expect(components.securitySchemes).toMatchObject({ apiKey: { type: "http", scheme: "bearer" } });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  it("resolves every $ref", () => {
    const refs: string[] = [];
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === "$ref") refs.push(value as string);
      return value;
    });
    expect(refs.length).toBeGreaterThan(30);
    for (const pointer of refs) expect(() => resolve(pointer), pointer).not.toThrow();
  });

  // 400 (a platform key without PP-Business), 403 (scopes, a suspended or closed business, another business's id) and
  // 404 (no such business) are the door's answers: every operation may give them.
  const EXPECTED: Record<string, string[]> = {
    "post /api/v1/payments": ["202", "400", "401", "403", "404", "409", "413", "415", "429"],
    "get /api/v1/payments/{reference}": ["200", "400", "401", "403", "404", "429"],
    "post /api/v1/payments/{reference}/reversal": ["202", "400", "401", "403", "404", "409", "413", "415", "429"],
    "post /api/v1/terminals/{serial}/heartbeats": ["200", "202", "400", "401", "403", "404", "409", "413", "415", "429"],
    "post /api/v1/disputes": ["201", "400", "401", "403", "404", "409", "413", "415", "429"],
    "post /api/v1/disputes/{id}/close": ["200", "400", "401", "403", "404", "409", "415", "429"],
    "post /api/v1/disputes/{id}/evidence": ["201", "400", "401", "403", "404", "409", "413", "415", "429"],
    "get /api/v1/rejections": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/reversals/waiting": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/payments": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/merchants": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/points-of-sale": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/terminals": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/disputes": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/disputes/{id}": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/settlements": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/refunds": ["200", "400", "401", "403", "404", "429"],
    "post /api/v1/refunds": ["201", "400", "401", "403", "404", "409", "413", "415", "429"],
    "get /api/v1/refunds/{id}": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/events": ["200", "400", "401", "403", "404", "429"],
    "get /api/v1/events/{id}": ["200", "400", "401", "403", "404", "429"],
    "post /api/v1/webhook-endpoints/{id}/resend-failed": ["200", "400", "401", "403", "404", "409", "415", "429"],
  };
  /** Sending failed deliveries again is idempotent by itself: a delivery already pending is not failed, so a second call queues nothing. */
  /** Closing a dispute is idempotent by its outcome (the same outcome again is the same answer): it takes no key. */
  /** Attaching evidence takes a file, not JSON, and no key: each request attaches a file (at most 10 a dispute). */
  const IDEMPOTENT_BY_ITSELF = new Set(["/api/v1/disputes/{id}/close", "/api/v1/webhook-endpoints/{id}/resend-failed"]);
  const FILE_UPLOADS = new Set(["/api/v1/disputes/{id}/evidence"]);

  it("has every endpoint, each with its answers, its path parameters, and Idempotency-Key on every POST", () => {
    const operations = Object.entries(doc.paths as JsonObject).flatMap(([path, item]) =>
      Object.entries(item as JsonObject).map(([method, operation]) => ({ path, method, operation: operation as JsonObject })),
    );
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const { path, method, operation } of operations) {
      const responses = operation.responses as JsonObject;
      expect(Object.keys(responses).sort(), `${method} ${path}`).toEqual(EXPECTED[`${method} ${path}`]);
      for (const [status, response] of Object.entries(responses)) {
        const resolved = (response as JsonObject).$ref ? (resolve((response as JsonObject).$ref as string) as JsonObject) : (response as JsonObject);
        expect(resolved.description).toEqual(expect.any(String));
        // Success is JSON; every refusal is an RFC 9457 problem.
        const contentType = Object.keys(resolved.content as JsonObject)[0];
        expect(contentType).toBe(/^[45]/.test(status) ? "application/problem+json" : "application/json");
        expect((resolved.content as JsonObject)[contentType!]).toMatchObject({ schema: expect.anything() });
      }
      const parameters = ((operation.parameters as JsonObject[] | undefined) ?? []).map((p) => (p.$ref ? (resolve(p.$ref as string) as JsonObject) : p));
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(parameters.filter((p) => p.in === "path").map((p) => p.name)).toEqual(inPath);
      for (const p of parameters) if (p.in === "path") expect(p.required).toBe(true);
      if (method === "post") {
        const upload = FILE_UPLOADS.has(path);
        expect(parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key")).toBe(!IDEMPOTENT_BY_ITSELF.has(path) && !upload);
        expect(operation.requestBody).toMatchObject({
          required: true,
          content: { [upload ? "multipart/form-data" : "application/json"]: { schema: expect.anything() } },
        });
      }
    }
    expect(new Set(operations.map(({ operation }) => operation.operationId)).size).toBe(operations.length);
    const tooMany = resolve("#/components/responses/TooManyRequests") as JsonObject;
    expect(Object.keys(tooMany.headers as JsonObject)).toEqual(["Retry-After"]);
  });

  it("documents the platform key: its scheme, the scope each operation needs, the PP-Business header on every operation", () => {
    expect(components.securitySchemes).toMatchObject({
      platformKey: { type: "http", scheme: "bearer", bearerFormat: expect.stringContaining("pp_platform_") },
    });
    const byOperation = Object.fromEntries(
      Object.values(doc.paths as JsonObject).flatMap((item) =>
        Object.values(item as JsonObject).map((op) => [(op as JsonObject).operationId, op as JsonObject]),
      ),
    );
    for (const [operationId, route] of Object.entries(ROUTE_OF)) {
      const operation = byOperation[operationId]!;
      // The events feed and a business's endpoints are its own key's only.
      expect(operation.security, operationId).toEqual(
        isBusinessKeyOperation(route) ? [{ apiKey: [] }] : [{ apiKey: [] }, { platformKey: [OPERATION_SCOPES[route]] }],
      );
      const parameters = (operation.parameters as JsonObject[]).map((p) => (p.$ref ? (resolve(p.$ref as string) as JsonObject) : p));
      expect(
        parameters.find((p) => p.name === "PP-Business"),
        operationId,
      ).toMatchObject({ in: "header", required: false });
    }
    expect(Object.keys(ROUTE_OF).sort()).toEqual(Object.keys(byOperation).sort());
    expect(new Set(Object.values(ROUTE_OF))).toEqual(new Set([...Object.keys(OPERATION_SCOPES), ...BUSINESS_KEY_OPERATIONS]));
    const forbidden = resolve("#/components/responses/Forbidden") as JsonObject;
    expect(JSON.stringify(forbidden)).toContain("This key's scopes do not include disputes.");
    expect(JSON.stringify(forbidden)).toContain("business is suspended");
    expect(JSON.stringify(forbidden)).toContain("business is closed");
    expect((resolve("#/components/responses/BadRequest") as JsonObject).description).toContain("PP-Business");
    const info = doc.info as JsonObject;
    for (const scope of PLATFORM_SCOPES) expect(info.description).toContain(`\`${scope}\``);
  });

  it("lists each list's query parameters exactly as its query schema takes them, in the query, none required", () => {
    const byOperation = Object.fromEntries(
      Object.values(doc.paths as JsonObject).flatMap((item) =>
        Object.values(item as JsonObject).map((op) => [(op as JsonObject).operationId, op as JsonObject]),
      ),
    );
    for (const [operationId, query] of Object.entries(LIST_QUERIES)) {
      const operation = byOperation[operationId]!;
      const parameters = (operation.parameters as JsonObject[]).map((p) => (p.$ref ? (resolve(p.$ref as string) as JsonObject) : p));
      const inQuery = parameters.filter((p) => p.in === "query");
      const schema = lists[query] as unknown as { entries: Record<string, unknown> };
      expect(inQuery.map((p) => p.name).sort(), operationId).toEqual(Object.keys(schema.entries).sort());
      for (const p of inQuery) {
        expect(p.required, `${operationId} ${p.name as string}`).toBe(false);
        expect(p.description, `${operationId} ${p.name as string}`).toEqual(expect.stringMatching(/\w/));
        if (p.name !== "limit") expect(p.schema).toEqual((schemas[query].properties as JsonObject)[p.name as string]);
      }
      // The limit is shown as the integer it is; the Worker takes exactly the same ones, written in digits.
      const limit = inQuery.find((p) => p.name === "limit")!.schema as JsonObject;
      expect(limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 });
      for (const n of [-1, 0, 1, 2, 25, 99, 100, 101, 1000, 1.5])
        expect(v.is(lists.Limit, String(n)), String(n)).toBe(Number.isInteger(n) && n >= 1 && n <= 100);
      expect(operation.description).toContain("cursor");
    }
  });

  it("explains the webhook signature and points to docs/webhooks.md", () => {
    const info = doc.info as JsonObject;
    expect(info.description).toContain('HMAC-SHA256(secret, timestamp + "." + body)');
    expect(info.description).toContain("docs/webhooks.md");
  });
});

describe("the document and the valibot schemas agree", () => {
  it("says in words every rule JSON Schema cannot hold (the schemas' v.check)", () => {
    const checks = (api.PaymentInput.pipe as readonly { type: string; message?: unknown }[]).filter((action) => action.type === "partial_check");
    expect(checks.map((check) => check.message).sort()).toEqual(Object.keys(RULES_IN_WORDS).sort());
    for (const words of Object.values(RULES_IN_WORDS)) expect(schemas.PaymentInput.description).toContain(words);
    expect((schemas.ReversalInput.properties as JsonObject).reason).toMatchObject({ description: expect.stringContaining("Spaces around it are removed") });
  });

  it.each(CASES)("%s: valibot and the document's JSON Schema accept and refuse the same samples", (name, schema, bases) => {
    const jsonSchema = schemas[name];
    const tally = { accepted: 0, refused: 0, onlyInWords: 0 };
    for (const { value: sample, arrayForObject } of samples(bases)) {
      const parsed = v.safeParse(schema, sample);
      const byDocument = accepts(jsonSchema, sample);
      const shown = JSON.stringify(sample);
      // Valid for the Worker: the document must not refuse it. Except one valibot leniency: its object
      // schemas take an array whose (absent) keys fit, e.g. [] for an object of optional keys. The
      // document is stricter there, and no payment gets through with it (the payer checks refuse it).
      if (parsed.success && !arrayForObject) expect(byDocument, `the document refuses ${shown}`).toBe(true);
      // Refused by the Worker: the document too, unless only a rule it states in words was broken.
      if (!parsed.success && byDocument) {
        const issues = leafIssues(parsed.issues);
        expect(
          issues.every((issue) => issue.type === "partial_check" && issue.message in RULES_IN_WORDS),
          `the document accepts ${shown}: ${issues[0]?.message}`,
        ).toBe(true);
        tally.onlyInWords += 1;
      }
      tally[parsed.success ? "accepted" : "refused"] += 1;
    }
    expect(tally.accepted).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    // The payment inputs have rules across fields, said in words only.
    if (["PaymentInput", "PaymentBatchInput", "PaymentsRequest"].includes(name)) expect(tally.onlyInWords).toBeGreaterThan(0);
  });

  // The document the portal serves dates its request examples from its clock (examplesAt): any day, a leap day too.
  it.each([undefined, Date.UTC(2028, 1, 29, 23, 59, 59, 999)])(
    "has examples that the Worker accepts, that match their schemas, and that hold no card number (dated %s)",
    (now) => {
      const dated = now === undefined ? doc : (openApiDocument("https://portal.example.com", { now }) as unknown as JsonObject);
      const examples: [string, unknown][] = [];
      JSON.stringify(dated, function (this: JsonObject, key, value: unknown) {
        if (key === "example") examples.push([JSON.stringify((this.schema as JsonObject).$ref ?? null), value]);
        if (key === "examples" && !Array.isArray(value)) {
          for (const item of Object.values(value as JsonObject)) examples.push([JSON.stringify((this.schema as JsonObject).$ref), (item as JsonObject).value]);
        }
        return value;
      });
      expect(examples.length).toBeGreaterThan(8);
      for (const [at, example] of examples) {
        // A path parameter's example whose schema is a plain string (an id).
        if (at === "null") {
          expect(example).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
          continue;
        }
        const name = JSON.parse(at).split("/").at(-1) as SchemaName;
        const schema = CASES.find(([caseName]) => caseName === name)![1];
        expect(v.safeParse(schema, example).success, `${name}: ${JSON.stringify(example)}`).toBe(true);
        expect(accepts(schemas[name], example)).toBe(true);
        expect(cardNumberPaths(example)).toEqual([]);
      }
    },
  );
});

describe("the webhooks section", () => {
  it("describes every event type the portal sends: its headers, its body's schema and an example", () => {
    const webhooks = doc.webhooks as JsonObject;
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = (webhooks[type] as JsonObject).post as JsonObject;
      const headers = (post.parameters as JsonObject[]).map((p) => p.name);
      expect(headers, type).toEqual(expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature", "PP-Signature"]));
      const media = ((post.requestBody as JsonObject).content as JsonObject)["application/json"] as JsonObject;
      expect(media.schema, type).toEqual({ $ref: `#/components/schemas/${eventSchemaName(type)}` });
      expect((media.example as JsonObject).type, type).toBe(type);
    }
  });
});

// The Partner API's operations, one row each: its method and path, its operation id, what may call it (the scope a
// platform key needs, or a business's own key only), what it takes and answers as the OpenAPI document says it, and the
// handler that answers it. The router (./router.ts), the platform key's scopes (OPERATION_SCOPES below) and the
// document's paths (./openapi.ts) are all built from this one table (decision 048), so an operation cannot be routed
// and not described, or described without a scope. Rows are in the document's order.
import type { ApiDeps } from "./request";
import type { Access, Credential } from "./credential";
import type { ApiVersion } from "./versions";
import type { PlatformScope } from "../operators/platform-scopes";
import {
  accepted,
  BUSINESS,
  EVIDENCE_EXAMPLE,
  EXAMPLE_IDS,
  json,
  LISTED,
  PAGE_PARAMETERS,
  POST_PARAMETERS,
  ref,
  type examplesAt,
  type ResponseName,
  type Schema,
  type SchemaName,
} from "./openapi-parts";
import { MAX_PAYMENTS_PER_REQUEST } from "./schemas";
import { PAYMENT_NOT_KNOWN_MESSAGE, REVERSAL_WAIT_DAYS, rejectionsRequest, waitingReversalsRequest } from "./rejections";
import {
  disputeRequest,
  disputesListRequest,
  eventRequest,
  eventsRequest,
  merchantsRequest,
  paymentsListRequest,
  pointsOfSaleRequest,
  refundRequest,
  refundsRequest,
  settlementsRequest,
  terminalsRequest,
} from "./lists";
import { getPaymentRequest, heartbeatRequest, reversePaymentRequest, sendPaymentsRequest } from "../payments/partner-api";
import { addEvidenceRequest, closeDisputeRequest, openDisputeRequest } from "../disputes/partner-api";
import { askRefundRequest } from "../refunds/partner-api";
import { resendFailedRequest } from "../webhooks/partner-api";

/** What a handler is given once the door let the request in: who called, for which business, as which version. */
export interface ApiCall {
  deps: ApiDeps;
  credential: Credential;
  version: ApiVersion;
  /** The path's parameters by their name in the path ({reference}, {serial}, {id}), decoded. */
  params: Record<string, string>;
}

/** What the document's description of an operation may draw on: its request examples (dated) and the schemas. */
export interface DocumentParts {
  examples: ReturnType<typeof examplesAt>;
  schemas: Record<SchemaName, Schema>;
}

export interface Operation {
  /** The operation's short name: what the platform key's scopes are listed by. */
  name: string;
  method: "GET" | "POST";
  /** As the document writes it: each {parameter} is one path segment. */
  path: `/api/v1/${string}`;
  operationId: string;
  access: Access;
  tag: string;
  summary: string;
  description: string;
  /** A list with cursors: the document lists its query schema's parameters and answers a page of them. */
  list?: { query: SchemaName; page: SchemaName; example: unknown };
  parameters?: (parts: DocumentParts) => unknown[];
  /** The request body's media types and schemas (always required). */
  request?: (parts: DocumentParts) => Record<string, unknown>;
  /** The answers when it goes well, by status. */
  answers?: (parts: DocumentParts) => Record<string, unknown>;
  /** The refusals it may give besides the door's (every operation may be 400, 401, 403 and 404 at the door). */
  errors?: readonly ResponseName[];
  handler: (request: Request, call: ApiCall) => Promise<Response>;
}

const idParameter = (description: string, example: string) => ({ name: "id", in: "path", required: true, description, schema: { type: "string" }, example });
const WRITE_ERRORS = ["BadRequest", "Unauthorized", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"] as const;
const READ_ERRORS = ["Unauthorized", "NotFound", "TooManyRequests"] as const;
const PAGE_ERRORS = ["BadRequest", "Unauthorized", "TooManyRequests"] as const;

export const OPERATIONS = [
  {
    name: "listPayments",
    method: "GET",
    path: "/api/v1/payments",
    operationId: "listPayments",
    access: "payments",
    tag: "Payments",
    summary: "List payments",
    description:
      "The business's payments, newest first (by occurred_at, then as they were written), each as GET /api/v1/payments/{reference} answers it, " +
      "with its settlement and refunds. Filter by when they happened (`created_from` inclusive, `created_to` exclusive), status, merchant (its id: " +
      "another business's merchant filters to nothing, as an unknown one) and channel.",
    list: { query: "PaymentsQuery", page: "PaymentsPage", example: LISTED.payment },
    handler: (request, { credential }) => paymentsListRequest(request, credential.business),
  },
  {
    name: "payments",
    method: "POST",
    path: "/api/v1/payments",
    operationId: "sendPayments",
    access: "payments",
    tag: "Payments",
    summary: "Send payments",
    description:
      `One payment, or up to ${MAX_PAYMENTS_PER_REQUEST} as {"payments": [...]}. The whole request is refused if any payment in it is not valid; ` +
      "a payment whose reference the business already holds is not applied twice.",
    parameters: () => POST_PARAMETERS,
    request: ({ examples }) => ({
      "application/json": {
        schema: ref("PaymentsRequest"),
        examples: {
          one: { summary: "One card payment", value: examples.cardPayment },
          batch: { summary: "A batch", value: { payments: [examples.cardPayment, examples.failedMobileMoney] } },
        },
      },
    }),
    answers: () => accepted("Payments"),
    errors: WRITE_ERRORS,
    handler: (request, { deps, credential }) => sendPaymentsRequest(request, deps, credential),
  },
  {
    name: "payment",
    method: "GET",
    path: "/api/v1/payments/{reference}",
    operationId: "getPayment",
    access: "payments",
    tag: "Payments",
    summary: "Get a payment",
    description: "The payment as the portal holds it: status, fee, net, whether it cleared, and its settlement once there is one.",
    parameters: () => [ref("reference", "parameters"), BUSINESS],
    answers: () => ({ "200": { description: "The payment.", content: json("PaymentView") } }),
    errors: READ_ERRORS,
    handler: (_request, { credential, params }) => getPaymentRequest(credential, params.reference!),
  },
  {
    name: "reversal",
    method: "POST",
    path: "/api/v1/payments/{reference}/reversal",
    operationId: "reversePayment",
    access: "reversals",
    tag: "Payments",
    summary: "Reverse a payment",
    description:
      "A full reversal. A reversal that arrives before its payment waits for it; reversing twice is one reversal. " +
      "A cleared payment can be reversed: the amount comes back out of the merchant's available money.",
    // The card payment the payments example sends (the reference parameter's own example is a payment the seed holds).
    parameters: ({ schemas }) => [
      { name: "reference", in: "path", required: true, description: schemas.Reference.description, schema: ref("Reference"), example: "PSP-K000201" },
      ...POST_PARAMETERS,
    ],
    request: ({ examples }) => json("ReversalInput", examples.reversal),
    answers: () => ({
      "202": {
        description:
          "The reversal queued. payment_known says whether the portal held the payment; when it did not, the reversal waits " +
          `${REVERSAL_WAIT_DAYS} days for it (GET /api/v1/reversals/waiting) and then expires.`,
        content: json("ReversalAccepted", { accepted: 1, payment_known: false, message: PAYMENT_NOT_KNOWN_MESSAGE }),
      },
    }),
    errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"],
    handler: (request, { deps, credential, params }) => reversePaymentRequest(request, deps, credential, params.reference!),
  },
  {
    name: "rejections",
    method: "GET",
    path: "/api/v1/rejections",
    operationId: "listRejections",
    access: "payments",
    tag: "Payments",
    summary: "List requests accepted but not applied",
    description:
      "Requests the API answered 202 and the portal then could not apply (kept aside so that they hold back nothing else), newest first. " +
      "Nothing of such a request was applied; the portal's operators are alerted and apply it again once the cause is fixed. Empty when all is well.",
    parameters: () => PAGE_PARAMETERS,
    answers: () => ({ "200": { description: "A page of them.", content: json("RejectionsPage") } }),
    errors: PAGE_ERRORS,
    handler: (request, { credential }) => rejectionsRequest(request, credential.business),
  },
  {
    name: "waitingReversals",
    method: "GET",
    path: "/api/v1/reversals/waiting",
    operationId: "listWaitingReversals",
    access: "reversals",
    tag: "Payments",
    summary: "List reversals waiting for their payment",
    description:
      `Reversals sent for a reference the portal did not hold, newest first: each waits ${REVERSAL_WAIT_DAYS} days for its payment and is applied when it arrives; ` +
      "after that it is listed as expired and never applied (a later payment with the reference is another payment).",
    parameters: () => PAGE_PARAMETERS,
    answers: () => ({ "200": { description: "A page of them.", content: json("WaitingReversalsPage") } }),
    errors: PAGE_ERRORS,
    handler: (request, { deps, credential }) => waitingReversalsRequest(request, credential.business, deps.now()),
  },
  {
    name: "listDisputes",
    method: "GET",
    path: "/api/v1/disputes",
    operationId: "listDisputes",
    access: "disputes",
    tag: "Disputes",
    summary: "List disputes",
    description: "The business's disputes, newest first (by opened_at), each as opening it answered; filter by status or by the disputed payment's reference.",
    list: { query: "DisputesQuery", page: "DisputesPage", example: LISTED.dispute },
    handler: (request, { credential }) => disputesListRequest(request, credential.business),
  },
  {
    name: "disputes",
    method: "POST",
    path: "/api/v1/disputes",
    operationId: "openDispute",
    access: "disputes",
    tag: "Disputes",
    summary: "Open a dispute",
    description:
      "Written before the answer (not queued): the disputed amount is held from the merchant's available money at once, so it is neither " +
      "transferred nor settled until the dispute is closed. Only a successful payment can be disputed, for at most its amount less its earlier " +
      "disputes that were not won. The business answers in the portal before the evidence due date.",
    parameters: () => POST_PARAMETERS,
    request: ({ examples }) => json("DisputeInput", examples.dispute),
    answers: () => ({ "201": { description: "The dispute, with the id to close it with.", content: json("DisputeView") } }),
    errors: WRITE_ERRORS,
    handler: (request, { deps, credential }) => openDisputeRequest(request, deps, credential),
  },
  {
    name: "dispute",
    method: "GET",
    path: "/api/v1/disputes/{id}",
    operationId: "getDispute",
    access: "disputes",
    tag: "Disputes",
    summary: "Get a dispute",
    description:
      "The dispute as the portal holds it: its status, whether the business submitted its response, when it closed, and the evidence files " +
      "attached to it (on its page or through the API). Another business's id is 404.",
    parameters: () => [idParameter("The dispute's id (dsp_...).", EXAMPLE_IDS.dispute), BUSINESS],
    answers: () => ({
      "200": {
        description: "The dispute, with its evidence files.",
        content: json("DisputeDetailView", { ...LISTED.dispute, evidence: [EVIDENCE_EXAMPLE] }),
      },
    }),
    errors: READ_ERRORS,
    handler: (request, { credential, params }) => disputeRequest(request, credential.business, params.id!),
  },
  {
    name: "merchants",
    method: "GET",
    path: "/api/v1/merchants",
    operationId: "listMerchants",
    access: "payments",
    tag: "Merchants",
    summary: "List merchants",
    description: "The business's merchants, newest first (by when they were added). A payment names its merchant by `id` or `code`.",
    list: { query: "MerchantsQuery", page: "MerchantsPage", example: LISTED.merchant },
    handler: (request, { credential }) => merchantsRequest(request, credential.business),
  },
  {
    name: "pointsOfSale",
    method: "GET",
    path: "/api/v1/points-of-sale",
    operationId: "listPointsOfSale",
    access: "payments",
    tag: "Merchants",
    summary: "List points of sale",
    description: "The business's points of sale, newest first (by when they were added), of every merchant or of one.",
    list: { query: "PointsOfSaleQuery", page: "PointsOfSalePage", example: LISTED.pointOfSale },
    handler: (request, { credential }) => pointsOfSaleRequest(request, credential.business),
  },
  {
    name: "terminals",
    method: "GET",
    path: "/api/v1/terminals",
    operationId: "listTerminals",
    access: "payments",
    tag: "Terminals",
    summary: "List terminals",
    description: "The business's POS terminals by serial, with their last heartbeat; filter by merchant, point of sale or status.",
    list: { query: "TerminalsQuery", page: "TerminalsPage", example: LISTED.terminal },
    handler: (request, { credential }) => terminalsRequest(request, credential.business),
  },
  {
    name: "settlements",
    method: "GET",
    path: "/api/v1/settlements",
    operationId: "listSettlements",
    access: "payments",
    tag: "Money out",
    summary: "List settlements",
    description:
      "The business's settlements, newest first (by when the daily run made them), with their amounts in pesewas, status, payout attempts and the rail " +
      "that carried them; filter by status and by when they were made (`created_from` inclusive, `created_to` exclusive).",
    list: { query: "SettlementsQuery", page: "SettlementsPage", example: LISTED.settlement },
    handler: (request, { credential }) => settlementsRequest(request, credential.business),
  },
  {
    name: "refunds",
    method: "GET",
    path: "/api/v1/refunds",
    operationId: "listRefunds",
    access: "payments",
    tag: "Money out",
    summary: "List refunds",
    description:
      "The business's refunds, newest first (by when they were asked for), each as its payment's answer shows it with the payment's reference; " +
      "filter by status or by the payment's reference.",
    list: { query: "RefundsQuery", page: "RefundsPage", example: LISTED.refund },
    handler: (request, { credential }) => refundsRequest(request, credential.business),
  },
  {
    name: "askRefund",
    method: "POST",
    path: "/api/v1/refunds",
    operationId: "askRefund",
    // Asked in the name of the person of the business who made the key (a second person approves it in the portal).
    access: "business-key",
    tag: "Money out",
    summary: "Ask for a refund",
    description:
      "The same request the portal's refund screen makes, with its rules and words: a refund of a successful payment, full or partial, waiting for an " +
      "administrator of the business to approve it in the portal (Approvals). No money moves before. It is asked in the name of the person who made " +
      "the key, so another administrator decides it. The amount is at most the payment's amount less what is refunded, waits for approval or is " +
      "disputed, and at most the merchant's available money. Written before the answer (not queued): read its status with GET /api/v1/refunds/{id}, " +
      "or hear refund.succeeded and refund.failed. A business's own key only.",
    parameters: () => POST_PARAMETERS,
    request: ({ examples }) => json("RefundRequestInput", examples.refundRequest),
    answers: ({ examples }) => ({
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
    }),
    errors: WRITE_ERRORS,
    handler: (request, { deps, credential }) => askRefundRequest(request, deps, credential),
  },
  {
    name: "refund",
    method: "GET",
    path: "/api/v1/refunds/{id}",
    operationId: "getRefund",
    access: "payments",
    tag: "Money out",
    summary: "Get a refund",
    description:
      "A refund's status now: pending_approval until an administrator decides it, then rejected, or sending and then succeeded or failed. " +
      "Another business's id is 404.",
    parameters: () => [idParameter("The refund's id (rfd_...).", EXAMPLE_IDS.refund), BUSINESS],
    answers: () => ({ "200": { description: "The refund.", content: json("RefundListItem", LISTED.refund) } }),
    errors: READ_ERRORS,
    handler: (request, { credential, params }) => refundRequest(request, credential.business, params.id!),
  },
  {
    name: "disputeClose",
    method: "POST",
    path: "/api/v1/disputes/{id}/close",
    operationId: "closeDispute",
    access: "disputes",
    tag: "Disputes",
    summary: "Close a dispute",
    description:
      "won: the held amount returns to the merchant's available money; lost: it leaves (the scheme or network takes it back). " +
      "Closing again with the same outcome answers the dispute as it is; with the other outcome, 409.",
    parameters: () => [idParameter("The dispute's id (dsp_...).", EXAMPLE_IDS.disputeToClose), BUSINESS],
    request: ({ examples }) => json("DisputeCloseInput", examples.disputeClose),
    answers: () => ({ "200": { description: "The dispute, closed.", content: json("DisputeView") } }),
    errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "UnsupportedMediaType", "TooManyRequests"],
    handler: (request, { deps, credential, params }) => closeDisputeRequest(request, deps, credential.business, params.id!),
  },
  {
    name: "disputeEvidence",
    method: "POST",
    path: "/api/v1/disputes/{id}/evidence",
    operationId: "addDisputeEvidence",
    access: "disputes",
    tag: "Disputes",
    summary: "Attach evidence to a dispute",
    description:
      "One file, sent as multipart/form-data with one part named `file` (`curl -F file=@receipt.pdf`), as the dispute's page attaches it and with " +
      "the same rules and words: a PDF, JPEG, PNG or WebP image told from its content (not its name or declared type), at most 10 MB, a name that " +
      "does not claim another of the four kinds, at most 10 files a dispute, only while the dispute is open and before its evidence due date " +
      "(409 otherwise). The file's content is not scanned for card numbers (it is kept, never logged or shown back); its name is. " +
      "Each request attaches a file: it takes no Idempotency-Key.",
    parameters: () => [idParameter("The dispute's id (dsp_...).", EXAMPLE_IDS.dispute), BUSINESS],
    request: () => ({
      "multipart/form-data": {
        schema: {
          type: "object",
          required: ["file"],
          properties: { file: { type: "string", contentMediaType: "application/octet-stream", description: "The file, with its name." } },
        },
        encoding: { file: { contentType: "application/pdf, image/jpeg, image/png, image/webp" } },
      },
    }),
    answers: () => ({ "201": { description: "The file, attached.", content: json("EvidenceView", EVIDENCE_EXAMPLE) } }),
    errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"],
    handler: (request, { deps, credential, params }) => addEvidenceRequest(request, deps, credential.business, params.id!),
  },
  {
    name: "events",
    method: "GET",
    path: "/api/v1/events",
    operationId: "listEvents",
    // The business's events feed is its own integration's, not the switch's.
    access: "business-key",
    tag: "Events",
    summary: "List events",
    description:
      "Every event the business's changes made in the last 30 days, subscribed to by an endpoint or not, newest recorded first, with the same id, type, " +
      "created and data its webhook deliveries carry: a receiver that was down reads what was recorded while it was away (`recorded_from`), and skips " +
      "ids it already has. Filter by type. A business's own key only.",
    list: { query: "EventsQuery", page: "EventsPage", example: LISTED.event },
    handler: (request, { credential, version }) => eventsRequest(request, credential.business, version),
  },
  {
    name: "event",
    method: "GET",
    path: "/api/v1/events/{id}",
    operationId: "getEvent",
    access: "business-key",
    tag: "Events",
    summary: "Get an event",
    description: "One event of the last 30 days, as the feed and its webhook deliveries carry it. Another business's event is answered as an unknown one.",
    parameters: () => [idParameter("The event's id (evt_...).", EXAMPLE_IDS.event), BUSINESS],
    answers: () => ({ "200": { description: "The event.", content: json("EventView", LISTED.event) } }),
    errors: READ_ERRORS,
    handler: (request, { credential, params, version }) => eventRequest(request, credential.business, params.id!, version),
  },
  {
    name: "resendFailed",
    method: "POST",
    path: "/api/v1/webhook-endpoints/{id}/resend-failed",
    operationId: "resendFailedDeliveries",
    // The business's webhook endpoints are its own integration's, not the switch's.
    access: "business-key",
    tag: "Events",
    summary: "Send failed deliveries again",
    description:
      "Every delivery to this endpoint that failed for good and was made at `since` or later becomes pending again with a new 24-hour retry window, " +
      "oldest first, at most 1,000 a request (`has_more` says when more are left). The endpoint must be enabled (409 otherwise). The endpoint's id is in " +
      "its delivery log's address (Settings → Developers). As the delivery log's button does, audited. A business's own key only.",
    parameters: () => [idParameter("The webhook endpoint's id (we_...).", EXAMPLE_IDS.webhookEndpoint), BUSINESS],
    request: ({ examples }) => json("ResendFailedInput", examples.resendFailed),
    answers: () => ({ "200": { description: "Queued.", content: json("ResendFailedAnswer", { queued: 42, has_more: false }) } }),
    errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "UnsupportedMediaType", "TooManyRequests"],
    handler: (request, { deps, credential, params }) => resendFailedRequest(request, deps, credential.business, params.id!),
  },
  {
    name: "heartbeat",
    method: "POST",
    path: "/api/v1/terminals/{serial}/heartbeats",
    operationId: "sendHeartbeat",
    access: "heartbeats",
    tag: "Terminals",
    summary: "Send a terminal heartbeat",
    description: "The terminal is alive: its last-seen time, battery, signal and software version are updated, so it is no longer silent.",
    parameters: () => [ref("serial", "parameters"), ...POST_PARAMETERS],
    request: ({ examples }) => json("HeartbeatInput", examples.heartbeat),
    answers: () => ({
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
    }),
    errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"],
    handler: (request, { deps, credential, params }) => heartbeatRequest(request, deps, credential, params.serial!),
  },
] as const satisfies readonly Operation[];

export type OperationName = (typeof OPERATIONS)[number]["name"];
type Row = (typeof OPERATIONS)[number];
export type BusinessKeyOperation = Extract<Row, { access: "business-key" }>["name"];
export type ScopedOperation = Exclude<OperationName, BusinessKeyOperation>;

/**
 * The scope each operation needs, by its name: what a platform key (the switch's credential) may run. Rejections
 * (requests accepted and then not applied) are read with payments: they are what the switch sent, whatever it was. So
 * are the lists of what a payment names or becomes (merchants, points of sale, terminals, settlements, refunds): a
 * payment's own answer already carries its settlement and refunds, and the switch needs the parties to address
 * payments. Disputes are read with disputes.
 */
export const OPERATION_SCOPES = Object.fromEntries(
  OPERATIONS.flatMap((operation) => (operation.access === "business-key" ? [] : [[operation.name, operation.access]])),
) as Record<ScopedOperation, PlatformScope>;

/**
 * Operations only a business's own key may run, whatever a platform key's scopes: the business's events feed and its
 * webhook endpoints are its own integration's, not the switch's. So is asking for a refund: it is asked in the name of
 * the person of the business who made the key, and a platform key has no such person.
 */
export const BUSINESS_KEY_OPERATIONS = OPERATIONS.flatMap<BusinessKeyOperation>((operation) => (operation.access === "business-key" ? [operation.name] : []));

export function isBusinessKeyOperation(operation: OperationName): operation is BusinessKeyOperation {
  return (BUSINESS_KEY_OPERATIONS as readonly string[]).includes(operation);
}

export function scopeOf(operation: ScopedOperation): PlatformScope {
  return OPERATION_SCOPES[operation];
}

/** The query schemas of the lists (./list-schemas.ts) by operation id, each parameter of which the document lists. */
export const LIST_QUERIES = Object.fromEntries(
  OPERATIONS.flatMap((operation) => ("list" in operation ? [[operation.operationId, operation.list.query]] : [])),
) as Record<string, Extract<Row, { list: unknown }>["list"]["query"]>;

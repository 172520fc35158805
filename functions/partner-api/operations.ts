// The Partner API's operations, one row each: its method and path, its operation id, what may call it (the scope a
// platform key needs, or a business's own key only), what it takes and answers as the OpenAPI document says it, and the
// handler that answers it. The router (./router.ts), the platform key's scopes (OPERATION_SCOPES below) and the
// document's paths (./openapi.ts) are all built from this one table (decision 048), so an operation cannot be routed
// and not described, or described without a scope. Rows are in the document's order. A row whose handler is a domain's
// own is kept beside it (`<domain>/partner-api.ts`) and listed here by name; the shape of a row is ./operation.ts.
import type { PlatformScope } from "../operators/platform-scopes";
import { BUSINESS, EVIDENCE_EXAMPLE, EXAMPLE_IDS, json, LISTED, PAGE_PARAMETERS } from "./openapi-parts";
import { idParameter, PAGE_ERRORS, READ_ERRORS, type Operation } from "./operation";
import { rejectionsRequest, waitingReversalsRequest, REVERSAL_WAIT_DAYS } from "./rejections";
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
import { getPaymentOperation, reversePaymentOperation, sendHeartbeatOperation, sendPaymentsOperation } from "../payments/partner-api";
import { addDisputeEvidenceOperation, closeDisputeOperation, openDisputeOperation } from "../disputes/partner-api";
import { askRefundOperation } from "../refunds/partner-api";
import { resendFailedDeliveriesOperation } from "../webhooks/partner-api";

export type { ApiCall, DocumentParts, Operation } from "./operation";

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
  sendPaymentsOperation,
  getPaymentOperation,
  reversePaymentOperation,
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
  openDisputeOperation,
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
  askRefundOperation,
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
  closeDisputeOperation,
  addDisputeEvidenceOperation,
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
  resendFailedDeliveriesOperation,
  sendHeartbeatOperation,
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

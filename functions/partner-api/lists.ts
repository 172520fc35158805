// The Partner API's lists, so that an integration can read what the portal holds and catch up after an outage
// without a person exporting it (docs/partner-api.md "Lists"):
//   GET /api/v1/payments        newest first; created_from, created_to, status, merchant, channel
//   GET /api/v1/merchants       newest first
//   GET /api/v1/points-of-sale  newest first; merchant
//   GET /api/v1/terminals       by serial; merchant, point_of_sale, status
//   GET /api/v1/disputes        newest first; status, payment_reference      (and GET /api/v1/disputes/{id})
//   GET /api/v1/settlements     newest first; created_from, created_to, status
//   GET /api/v1/refunds         newest first; status, payment_reference
// Each answers { data, has_more, next_cursor }: a keyset page (functions/lists/page.ts) read by an index that serves
// its filter (migration 0033), never an OFFSET, so a deep page costs what the first costs. The cursor is the last
// row's key with the list's name, so a cursor of one list is refused by another. Everything is the key's business's
// only (every statement binds it first): another business's merchant or payment reference filters to nothing, exactly
// as an unknown one does.
import * as v from "valibot";
import { jsonResponse } from "../plumbing/http";
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor } from "../lists/page";
import type { BusinessDb } from "../tenancy/tenant";
import { listPaymentsPage } from "../payments/api-payments.db";
import { getListedRefund, listRefundsOfPayments, listRefundsPage, type Refund } from "../refunds/refunds.db";
import { listMerchantsPage } from "../merchants/merchants.db";
import { listPointsOfSalePage } from "../merchants/points-of-sale.db";
import { listTerminalsPage } from "../merchants/terminals.db";
import { listDisputeEvidence } from "../disputes/disputes.db";
import { disputeData, getDisputeFacts, listDisputeFactsPage } from "../disputes/processor-disputes.db";
import { evidenceData } from "../disputes/evidence-upload";
import { listSettlementsPage } from "../settlement/settlements.db";
import { getEvent, listEventsPage, type FeedEvent } from "../webhooks/events.db";
import { badRequest, issuesOf, problem } from "./request";
import { DisputeId, RefundId, type Problem } from "./schemas";
import {
  CURSOR_MESSAGE,
  DisputesQuery,
  EventsQuery,
  MerchantsQuery,
  NoQuery,
  PaymentsQuery,
  PointsOfSaleQuery,
  RefundsQuery,
  SettlementsQuery,
  TerminalsQuery,
} from "./list-schemas";
import { merchantView, paymentView, pointOfSaleView, refundListItem, refundsView, settlementView, terminalView } from "../webhooks/views";
import { renderEventData } from "../webhooks/event-versions";
import type { ApiVersion } from "./versions";

type Key = string | number;
type KeyKinds = readonly ("string" | "number")[];

/** A list of the API: its query, the kinds of its key, how a page is read, and how its rows are shown. */
interface List<Q extends v.GenericSchema, Row> {
  /** Written into the list's cursors: a cursor works only on the list that gave it. */
  name: string;
  query: Q;
  key: KeyKinds;
  load: (business: BusinessDb, query: v.InferOutput<Q>, after: Key[] | null, limit: number) => Promise<Row[]>;
  keyOf: (row: Row) => Key[];
  view: (business: BusinessDb, rows: Row[]) => Promise<unknown[]> | unknown[];
}

/** The key in an API cursor of this list, or null for anything else (another list's cursor, a made-up one). */
function keyOfCursor(list: string, kinds: KeyKinds, cursor: string): Key[] | null {
  const decoded = decodeCursor(cursor, kinds.length + 1);
  if (!decoded || decoded[0] !== list) return null;
  const key = decoded.slice(1);
  return key.every((part, i) => typeof part === kinds[i] && (typeof part !== "number" || Number.isSafeInteger(part))) ? key : null;
}

/**
 * A list's query, read strictly: each parameter at most once, each valid (an unknown one is refused as a body's
 * unknown field is), the cursor one this list gave. Every problem at once, each named `query.<parameter>`.
 */
export function readQuery<Q extends v.GenericSchema>(
  request: Request,
  schema: Q,
  cursor?: { list: string; key: KeyKinds },
): { query: v.InferOutput<Q>; limit: number; after: Key[] | null } | Response {
  const errors: NonNullable<Problem["errors"]> = [];
  const given = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URL(request.url).searchParams) {
    if (Object.hasOwn(given, name)) errors.push({ path: `query.${name}`, message: "must be given once" });
    else given[name] = value;
  }
  const parsed = v.safeParse(schema, given);
  if (!parsed.success) return badRequest([...errors, ...issuesOf(parsed.issues, "query")]);
  const query = parsed.output as v.InferOutput<Q> & {
    limit?: string;
    cursor?: string;
    created_from?: number;
    created_to?: number;
    recorded_from?: number;
    recorded_to?: number;
  };
  let after: Key[] | null = null;
  if (cursor && query.cursor !== undefined) {
    after = keyOfCursor(cursor.list, cursor.key, query.cursor);
    if (!after) errors.push({ path: "query.cursor", message: CURSOR_MESSAGE });
  }
  if (query.created_from !== undefined && query.created_to !== undefined && query.created_to <= query.created_from)
    errors.push({ path: "query.created_to", message: "must be later than created_from" });
  if (query.recorded_from !== undefined && query.recorded_to !== undefined && query.recorded_to <= query.recorded_from)
    errors.push({ path: "query.recorded_to", message: "must be later than recorded_from" });
  if (errors.length > 0) return badRequest(errors);
  return { query, limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit), after };
}

async function answerList<Q extends v.GenericSchema, Row>(request: Request, business: BusinessDb, list: List<Q, Row>): Promise<Response> {
  const read = readQuery(request, list.query, { list: list.name, key: list.key });
  if (read instanceof Response) return read;
  // One row more than the page, to know whether another follows.
  const rows = await list.load(business, read.query, read.after, read.limit);
  const hasMore = rows.length > read.limit;
  const shown = hasMore ? rows.slice(0, read.limit) : rows;
  const last = shown.at(-1);
  return jsonResponse({
    data: await list.view(business, shown),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor([list.name, ...list.keyOf(last)]) : null,
  });
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const pair = <A, B>(after: Key[] | null) => (after ? ([after[0], after[1]] as unknown as readonly [A, B]) : null);

const PAYMENTS: List<typeof PaymentsQuery, Awaited<ReturnType<typeof listPaymentsPage>>[number]> = {
  name: "payments",
  query: PaymentsQuery,
  key: ["number", "number"],
  load: (business, q, after, limit) =>
    listPaymentsPage(
      business,
      { from: q.created_from, to: q.created_to, status: q.status, merchantId: q.merchant, channel: q.channel },
      pair<number, number>(after),
      limit,
    ),
  keyOf: (p) => [p.createdAt, p.id],
  // The page's refunds in one read, not one a payment.
  view: async (business, rows) => {
    const refunds = new Map<number, Refund[]>();
    for (const refund of await listRefundsOfPayments(
      business,
      rows.map((p) => p.id),
    ))
      refunds.set(refund.transactionId, [...(refunds.get(refund.transactionId) ?? []), refund]);
    return rows.map(({ id, ...p }) => ({ ...paymentView(p), ...refundsView(refunds.get(id) ?? []) }));
  },
};

const MERCHANTS: List<typeof MerchantsQuery, Awaited<ReturnType<typeof listMerchantsPage>>[number]> = {
  name: "merchants",
  query: MerchantsQuery,
  key: ["string", "string"],
  load: (business, _q, after, limit) => listMerchantsPage(business, pair<string, string>(after), limit),
  keyOf: (m) => [m.createdAt, m.id],
  view: (_business, rows) => rows.map(merchantView),
};

const POINTS_OF_SALE: List<typeof PointsOfSaleQuery, Awaited<ReturnType<typeof listPointsOfSalePage>>[number]> = {
  name: "points_of_sale",
  query: PointsOfSaleQuery,
  key: ["string", "string"],
  load: (business, q, after, limit) => listPointsOfSalePage(business, { merchantId: q.merchant }, pair<string, string>(after), limit),
  keyOf: (p) => [p.createdAt, p.id],
  view: (_business, rows) => rows.map(pointOfSaleView),
};

const TERMINALS: List<typeof TerminalsQuery, Awaited<ReturnType<typeof listTerminalsPage>>[number]> = {
  name: "terminals",
  query: TerminalsQuery,
  key: ["string"],
  load: (business, q, after, limit) =>
    listTerminalsPage(business, { status: q.status, merchantId: q.merchant, pointOfSaleId: q.point_of_sale }, after ? [after[0] as string] : null, limit),
  keyOf: (t) => [t.serial],
  view: (_business, rows) => rows.map(terminalView),
};

const DISPUTES: List<typeof DisputesQuery, Awaited<ReturnType<typeof listDisputeFactsPage>>[number]> = {
  name: "disputes",
  query: DisputesQuery,
  key: ["number", "string"],
  load: (business, q, after, limit) =>
    listDisputeFactsPage(business, { status: q.status, paymentReference: q.payment_reference }, pair<number, string>(after), limit),
  keyOf: (d) => [d.openedAt, d.id],
  view: (_business, rows) => rows.map(disputeData),
};

const SETTLEMENTS: List<typeof SettlementsQuery, Awaited<ReturnType<typeof listSettlementsPage>>[number]> = {
  name: "settlements",
  query: SettlementsQuery,
  key: ["string", "string"],
  // Settlements keep their times as ISO text (toISOString), which sorts as the instants do.
  load: (business, q, after, limit) =>
    listSettlementsPage(business, { status: q.status, from: iso(q.created_from), to: iso(q.created_to) }, pair<string, string>(after), limit),
  keyOf: (s) => [s.createdAt, s.id],
  view: (_business, rows) => rows.map(settlementView),
};

const REFUNDS: List<typeof RefundsQuery, Awaited<ReturnType<typeof listRefundsPage>>[number]> = {
  name: "refunds",
  query: RefundsQuery,
  key: ["string", "string"],
  load: (business, q, after, limit) =>
    listRefundsPage(business, { status: q.status, paymentReference: q.payment_reference }, pair<string, string>(after), limit),
  keyOf: (r) => [r.createdAt, r.id],
  view: (_business, rows) => rows.map(refundListItem),
};

/**
 * An event as the feed answers it: its webhook body (id, type, created, data) and when the portal recorded it, its
 * data in `version` (the request's: PP-Version or the key's), as an endpoint pinned to that version receives it.
 */
function eventView(event: FeedEvent, version: ApiVersion) {
  return {
    id: event.id,
    type: event.type,
    created: new Date(event.happenedAt).toISOString(),
    recorded_at: new Date(event.recordedAt).toISOString(),
    data: JSON.parse(renderEventData(event, version)) as Record<string, unknown>,
  };
}

const events = (version: ApiVersion): List<typeof EventsQuery, FeedEvent> => ({
  name: "events",
  query: EventsQuery,
  key: ["number", "string"],
  load: (business, q, after, limit) =>
    listEventsPage(business, Date.now(), { type: q.type, from: q.recorded_from, to: q.recorded_to }, pair<number, string>(after), limit),
  keyOf: (e) => [e.recordedAt, e.id],
  view: (_business, rows) => rows.map((row) => eventView(row, version)),
});

export const paymentsListRequest = (request: Request, business: BusinessDb) => answerList(request, business, PAYMENTS);
export const merchantsRequest = (request: Request, business: BusinessDb) => answerList(request, business, MERCHANTS);
export const pointsOfSaleRequest = (request: Request, business: BusinessDb) => answerList(request, business, POINTS_OF_SALE);
export const terminalsRequest = (request: Request, business: BusinessDb) => answerList(request, business, TERMINALS);
export const disputesListRequest = (request: Request, business: BusinessDb) => answerList(request, business, DISPUTES);
export const settlementsRequest = (request: Request, business: BusinessDb) => answerList(request, business, SETTLEMENTS);
export const refundsRequest = (request: Request, business: BusinessDb) => answerList(request, business, REFUNDS);

export const eventsRequest = (request: Request, business: BusinessDb, version: ApiVersion) => answerList(request, business, events(version));

/** GET /api/v1/events/{id}: one event of the feed's 30 days, in `version`; another business's id is 404, as an unknown one. */
export async function eventRequest(request: Request, business: BusinessDb, id: string, version: ApiVersion): Promise<Response> {
  const read = readQuery(request, NoQuery);
  if (read instanceof Response) return read;
  const event = /^evt_[A-Za-z0-9_]{1,100}$/.test(id) ? await getEvent(business, id, Date.now()) : null;
  return event ? jsonResponse(eventView(event, version)) : problem("event_not_found", "No event with that id in the last 30 days.");
}

/** GET /api/v1/disputes/{id}: the dispute as opening and closing it answer it, with its evidence files; another business's id is 404, as an unknown one. */
export async function disputeRequest(request: Request, business: BusinessDb, id: string): Promise<Response> {
  const read = readQuery(request, NoQuery);
  if (read instanceof Response) return read;
  if (!v.is(DisputeId, id)) return problem("dispute_not_found", "No dispute with that id.");
  const [dispute, evidence] = await Promise.all([getDisputeFacts(business, id), listDisputeEvidence(business, id)]);
  return dispute
    ? jsonResponse({ ...disputeData(dispute), evidence: evidence.map((file) => evidenceData(id, file)) })
    : problem("dispute_not_found", "No dispute with that id.");
}

/** GET /api/v1/refunds/{id}: the refund's status now, as the list shows it; another business's id is 404, as an unknown one. */
export async function refundRequest(request: Request, business: BusinessDb, id: string): Promise<Response> {
  const read = readQuery(request, NoQuery);
  if (read instanceof Response) return read;
  const refund = v.is(RefundId, id) ? await getListedRefund(business, id) : null;
  return refund ? jsonResponse(refundListItem(refund)) : problem("refund_not_found", "No refund with that id.");
}

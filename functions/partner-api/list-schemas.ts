// What the Partner API's lists take and answer (GET /api/v1/payments, /merchants, /points-of-sale, /terminals,
// /disputes, /settlements, /refunds; docs/partner-api.md "Lists"): the query of each, checked with these schemas (an
// unknown parameter is refused like an unknown field of a body), and the page and items each answers. The OpenAPI
// document is generated from them (./openapi.ts), so it cannot say one thing while the Worker does another.
import * as v from "valibot";
import { DISPUTE_STATUSES } from "../disputes/dispute-rules";
import { TERMINAL_STATUSES } from "../merchants/terminals.db";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../lists/page";
import { Instant } from "./instant";
import { CHANNELS, DisputeView, PaymentView, Reference, RefundView } from "./schemas";
import { WEBHOOK_EVENT_TYPES } from "../webhooks/types";

export const PAYMENT_STATUSES = ["successful", "failed", "reversed"] as const;
export const SETTLEMENT_STATUSES = ["pending", "paid", "failed"] as const;
export const REFUND_STATUSES = ["pending_approval", "rejected", "sending", "succeeded", "failed"] as const;

/** The message of a query's issues: an unknown parameter says so (a strict object's issue for an unknown key). */
const queryMessage = (issue: v.BaseIssue<unknown>): string => (issue.expected === "never" ? "is not a documented parameter" : "must be a query string");

// Every value of a query is a string; a limit is one written in digits.
export const Limit = v.pipe(
  v.string("must be a string"),
  v.regex(new RegExp(`^(?:[1-9]\\d?|${MAX_PAGE_SIZE})$`), `must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
  v.description(`How many items to a page: 1 to ${MAX_PAGE_SIZE} (${DEFAULT_PAGE_SIZE} when left out).`),
  v.examples(["100"]),
);

export const CURSOR_MESSAGE = "is not a cursor this list gave";
export const Cursor = v.pipe(
  v.string("must be a string"),
  v.regex(/^[A-Za-z0-9_-]{1,1000}$/, CURSOR_MESSAGE),
  v.description("The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it."),
);

const Id = (what: string) =>
  v.pipe(v.string("must be a string"), v.regex(/^[A-Za-z0-9_-]{1,64}$/, `must be ${what}`), v.description(`Only those of this ${what}.`));
const MerchantId = Id("merchant's id (mer_...)");
const PointOfSaleId = Id("point of sale's id (pos_...)");

const CreatedFrom = Instant("Only those created at this time or later.");
const CreatedTo = Instant("Only those created before this time.");
const Status = <T extends readonly [string, ...string[]]>(statuses: T, of: string) =>
  v.pipe(v.picklist(statuses, `must be ${statuses.slice(0, -1).join(", ")} or ${statuses.at(-1)}`), v.description(`Only ${of} in this status.`));

const query = <T extends v.ObjectEntries>(entries: T, what: string) =>
  v.pipe(v.strictObject({ ...entries, limit: v.optional(Limit), cursor: v.optional(Cursor) }, queryMessage), v.description(what));

export const PaymentsQuery = query(
  {
    created_from: v.optional(CreatedFrom),
    created_to: v.optional(CreatedTo),
    status: v.optional(Status(PAYMENT_STATUSES, "payments")),
    merchant: v.optional(MerchantId),
    channel: v.optional(v.pipe(v.picklist(CHANNELS, "must be card or mobile_money"), v.description("Only payments by this channel."))),
  },
  "The query of GET /api/v1/payments: every parameter is optional.",
);
export const MerchantsQuery = query({}, "The query of GET /api/v1/merchants.");
export const PointsOfSaleQuery = query({ merchant: v.optional(MerchantId) }, "The query of GET /api/v1/points-of-sale.");
export const TerminalsQuery = query(
  {
    merchant: v.optional(MerchantId),
    point_of_sale: v.optional(PointOfSaleId),
    status: v.optional(Status(TERMINAL_STATUSES, "terminals")),
  },
  "The query of GET /api/v1/terminals.",
);
export const DisputesQuery = query(
  {
    status: v.optional(Status(DISPUTE_STATUSES, "disputes")),
    payment_reference: v.optional(v.pipe(Reference, v.description("Only the disputes of the payment with this reference."))),
  },
  "The query of GET /api/v1/disputes.",
);
export const SettlementsQuery = query(
  {
    created_from: v.optional(CreatedFrom),
    created_to: v.optional(CreatedTo),
    status: v.optional(Status(SETTLEMENT_STATUSES, "settlements")),
  },
  "The query of GET /api/v1/settlements.",
);
export const RefundsQuery = query(
  {
    status: v.optional(Status(REFUND_STATUSES, "refunds")),
    payment_reference: v.optional(v.pipe(Reference, v.description("Only the refunds of the payment with this reference."))),
  },
  "The query of GET /api/v1/refunds.",
);
/** GET /api/v1/disputes/{id} takes no query. */
export const NoQuery = v.strictObject({}, queryMessage);

// What the lists answer.

const Nullable = <T extends v.GenericSchema>(schema: T, what: string) => v.pipe(v.nullable(schema), v.description(what));
const Time = (what: string) => v.pipe(v.string(), v.description(`${what} RFC 3339 in UTC.`));
const Pesewas = (what: string) => v.pipe(v.number(), v.integer(), v.description(`${what} Pesewas.`));

/** Every list answers a page of this shape. */
const page = <T extends v.GenericSchema>(item: T, what: string) =>
  v.pipe(
    v.object({
      data: v.pipe(v.array(item), v.description("This page's items, in the list's order.")),
      has_more: v.pipe(v.boolean(), v.description("Whether another page follows this one.")),
      next_cursor: v.pipe(v.nullable(v.string()), v.description("Send it as ?cursor= (with the same filters) for the next page; null on the last page.")),
    }),
    v.description(what),
  );

export const PaymentsPage = page(
  PaymentView,
  "A page of the business's payments, newest first: each as GET /api/v1/payments/{reference} answers it, refunds included.",
);

export const MerchantView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The portal's id (mer_...): a payment names its merchant by it or by its code.")),
    code: v.string(),
    name: v.pipe(v.string(), v.description("The registered name, in any script.")),
    trading_name: v.string(),
    tin: v.pipe(v.string(), v.description("The Ghana Revenue Authority's TIN.")),
    sector: v.string(),
    town: v.string(),
    region: v.string(),
    address: v.string(),
    contact_name: v.string(),
    contact_phone: v.pipe(v.string(), v.description("233XXXXXXXXX.")),
    contact_email: v.string(),
    status: v.picklist(["active", "inactive"]),
    created_at: Time("When it was added."),
    updated_at: Time("When it last changed."),
  }),
  v.description("A merchant of the business."),
);
export const MerchantsPage = page(MerchantView, "A page of the business's merchants, newest first.");

export const PointOfSaleView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The portal's id (pos_...): a payment names its point of sale by it.")),
    merchant: v.pipe(v.string(), v.description("The merchant's id.")),
    name: v.string(),
    town: v.string(),
    region: v.string(),
    address: v.string(),
    contact_phone: v.pipe(v.string(), v.description("233XXXXXXXXX.")),
    status: v.picklist(["active", "inactive"]),
    created_at: Time("When it was added."),
    updated_at: Time("When it last changed."),
  }),
  v.description("A point of sale (branch) of a merchant."),
);
export const PointsOfSalePage = page(PointOfSaleView, "A page of the business's points of sale, newest first.");

export const TerminalView = v.pipe(
  v.object({
    id: v.string(),
    serial: v.pipe(v.string(), v.description("The serial a card payment and a heartbeat name the terminal by.")),
    model: v.string(),
    software_version: v.string(),
    status: v.picklist(TERMINAL_STATUSES),
    merchant: Nullable(v.string(), "The merchant's id, while it is assigned to one."),
    point_of_sale: Nullable(v.string(), "The point of sale it stands at, while it is assigned to one."),
    last_seen_at: Nullable(v.string(), "Its last heartbeat, RFC 3339 in UTC; null until it sends one."),
    battery_percent: Nullable(v.pipe(v.number(), v.integer()), "From its last heartbeat."),
    signal_percent: Nullable(v.pipe(v.number(), v.integer()), "From its last heartbeat."),
    created_at: Time("When it was added."),
    updated_at: Time("When it last changed."),
  }),
  v.description("A POS terminal of the business's fleet."),
);
export const TerminalsPage = page(TerminalView, "A page of the business's terminals, by serial.");

export const DisputesPage = page(DisputeView, "A page of the business's disputes, newest first (by when they were opened).");

export const SettlementView = v.pipe(
  v.object({
    id: v.string(),
    reference: v.pipe(v.string(), v.description("The reference the merchant's bank or wallet statement shows.")),
    merchant: v.pipe(v.string(), v.description("The merchant's id.")),
    settlement_account: v.pipe(v.string(), v.description("The settlement account it is paid to.")),
    transfer: Nullable(
      v.string(),
      "The transfer it pays out (trf_..., asked for in the portal and approved by a second person); null for the daily run's settlements.",
    ),
    period_start: Time("The start of the period of payments it covers (a transfer's payout: the instant its transfer was approved)."),
    period_end: Time("The end of the period (exclusive; a transfer's payout: the same instant, covering no payments)."),
    gross: Pesewas("The successful payments it covers."),
    fees: Pesewas("The fees of those payments."),
    net: Pesewas("gross - fees: what is paid out."),
    currency: v.literal("GHS"),
    status: v.pipe(v.picklist(SETTLEMENT_STATUSES), v.description("pending (not paid out yet), paid, or failed (its last attempt failed).")),
    attempts: v.pipe(v.number(), v.integer(), v.description("How many times the portal tried to pay it out.")),
    created_at: Time("When the daily run made it."),
    paid_at: Nullable(v.string(), "When it was paid out, RFC 3339 in UTC."),
    rail: Nullable(v.string(), "The payout rail that carries it (e.g. switch), once one has."),
    rail_reference: Nullable(v.string(), "The rail's reference for the payout."),
    rail_status: Nullable(v.string(), "What the rail last said of it."),
  }),
  v.description("A settlement: one merchant's net for one period, paid out to its settlement account."),
);
export const SettlementsPage = page(SettlementView, "A page of the business's settlements, newest first.");

export const RefundListItem = v.pipe(
  v.object({
    ...RefundView.entries,
    payment_reference: v.pipe(Reference, v.description("The reference of the payment it refunds.")),
  }),
  v.description("A refund of a payment, with the payment's reference."),
);
export const RefundsPage = page(RefundListItem, "A page of the business's refunds, newest first (by when they were asked for).");

// ------------------------------------------------------------------------------------------------- the events feed
export const EventsQuery = query(
  {
    type: v.optional(v.pipe(v.picklist(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}`), v.description("Only events of this type."))),
    recorded_from: v.optional(Instant("Only events the portal recorded at this time or later (the feed keeps 30 days).")),
    recorded_to: v.optional(Instant("Only events the portal recorded before this time.")),
  },
  "The query of GET /api/v1/events: every parameter is optional.",
);

export const EventView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The event's id (evt_...): the same as its webhook deliveries' webhook-id and PP-Event-Id. De-duplicate on it.")),
    type: v.pipe(v.picklist(WEBHOOK_EVENT_TYPES), v.description("What happened.")),
    created: Time("When what it describes happened (a payment's occurred_at), as the webhook body's created:"),
    recorded_at: Time("When the portal recorded it: the feed's order. A receiver catching up reads what was recorded while it was away."),
    data: v.pipe(
      v.looseObject({}),
      v.description(
        "The data its webhook deliveries carry, in the version this request is answered as (PP-Version, or the key's): exactly what an endpoint pinned to that version receives.",
      ),
    ),
  }),
  v.description("An event, with the id, type, created and data its webhook deliveries carry, and when the portal recorded it."),
);
export const EventsPage = page(EventView, "A page of the business's events of the last 30 days, newest recorded first.");

export const ResendFailedInput = v.pipe(
  v.strictObject(
    {
      since: Instant("Send again every delivery to this endpoint that failed for good and was made at this time or later."),
    },
    (issue) => (issue.expected === "never" ? "is not a documented field" : "is required"),
  ),
  v.description("Which failed deliveries to send again."),
);

export const ResendFailedAnswer = v.pipe(
  v.object({
    queued: v.pipe(v.number(), v.integer(), v.description("How many failed deliveries were made pending again, each with a new 24-hour retry window.")),
    has_more: v.pipe(v.boolean(), v.description("More failed deliveries since that time are left (at most 1,000 are queued a request): send it again.")),
  }),
  v.description("Queued: each is sent within a minute and logged on the endpoint's delivery log."),
);

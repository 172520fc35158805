// What the Partner API takes: the valibot schemas the Worker checks
// every request with, and from which /api/v1/openapi.json is generated, so the
// document cannot say one thing while the Worker does another. JSON field names
// are snake_case, as processors' APIs are. Money is integer pesewas in GHS.
import * as v from "valibot";
import { PROBLEM_CODES } from "./problems";
import { CalendarDate, Instant } from "./instant";
import { DAY_MS } from "../plumbing/time";

export const MOBILE_MONEY_NETWORKS = ["MTN", "Telecel", "AirtelTigo"] as const;
export const CARD_SCHEMES = ["VISA", "MASTERCARD", "GHLINK"] as const;
export const CHANNELS = ["card", "mobile_money"] as const;

/** A request body larger than this is refused (413): 100 payments take about 60 kB. */
export const MAX_BODY_BYTES = 256 * 1024;

/** The Idempotency-Key request header. */
export const IdempotencyKey = v.pipe(
  v.string(),
  v.regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 visible ASCII characters"),
  v.description("Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours."),
);

/** At most this many payments in one request. */
export const MAX_PAYMENTS_PER_REQUEST = 100;
/** GHS 1,000,000.00: more is no card or wallet payment. */
export const MAX_AMOUNT_PESEWAS = 100_000_000;
/** A payment may say it happened at most this long before it reaches the portal. */
export const MAX_PAYMENT_AGE_MS = 90 * DAY_MS;
/** Processors' clocks drift: "when it happened" may be this far ahead of ours. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

const REFERENCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/;

export const Reference = v.pipe(
  v.string("must be a string"),
  v.regex(REFERENCE_PATTERN, "must be 1 to 64 letters, digits or . _ : / -, starting with a letter or digit"),
  v.description("The processor's reference for the payment: unique within the business."),
  v.examples(["PSP-20261123-000187"]),
);

/**
 * The message of an object schema's issues: a missing field says it is required, an unknown one that it is not
 * documented (valibot gives both the object's one message), anything else what the object must be.
 */
export const objectMessage =
  (what: string) =>
  (issue: v.BaseIssue<unknown>): string =>
    issue.expected === "never" ? "is not a documented field" : issue.path?.length ? "is required" : `must be ${what}`;

const Reason = (what: string) =>
  v.pipe(v.string("must be a string"), v.trim(), v.minLength(1, "must not be empty"), v.maxLength(200, "must be at most 200 characters"), v.description(what));

export const Payer = v.pipe(
  v.strictObject(
    {
      card_bin: v.optional(
        v.pipe(v.string("must be a string"), v.regex(/^\d{6}$/, "must be the card's first 6 digits"), v.description("Cards: the first six digits.")),
      ),
      card_last4: v.optional(
        v.pipe(v.string("must be a string"), v.regex(/^\d{4}$/, "must be the card's last 4 digits"), v.description("Cards: the last four digits.")),
      ),
      msisdn: v.optional(
        v.pipe(
          v.string("must be a string"),
          v.regex(/^233[235]\d{8}$/, "must be a Ghana number written 233XXXXXXXXX"),
          v.description("Mobile money: the payer's wallet number, 233XXXXXXXXX."),
          v.examples(["233244123456"]),
        ),
      ),
    },
    objectMessage("an object with card_bin and card_last4, or msisdn"),
  ),
  v.description("Who paid: a card's BIN and last four digits (never the full number), or a mobile-money number."),
);

export const PaymentInput = v.pipe(
  v.strictObject(
    {
      reference: Reference,
      merchant: v.pipe(
        v.string("must be a string"),
        v.minLength(1, "must not be empty"),
        v.maxLength(64, "must be at most 64 characters"),
        v.description("The merchant: the portal's merchant id (mer_...) or the merchant's code."),
      ),
      point_of_sale: v.pipe(
        v.string("must be a string"),
        v.minLength(1, "must not be empty"),
        v.maxLength(64, "must be at most 64 characters"),
        v.description("The point of sale's id in the portal (pos_...); it must belong to the merchant."),
      ),
      terminal_serial: v.optional(
        v.pipe(
          v.string("must be a string"),
          v.regex(/^[A-Za-z0-9-]{6,32}$/, "must be a terminal serial of 6 to 32 letters, digits or hyphens"),
          v.description("The POS terminal's serial: required for card payments (card-present), optional for mobile money."),
        ),
      ),
      channel: v.pipe(v.picklist(CHANNELS, "must be card or mobile_money"), v.description("How the payer paid.")),
      network: v.pipe(
        v.picklist([...MOBILE_MONEY_NETWORKS, ...CARD_SCHEMES], "must be MTN, Telecel or AirtelTigo (mobile money), or VISA, MASTERCARD or GHLINK (card)"),
        v.description("The mobile-money network, or the card scheme."),
      ),
      payer: Payer,
      amount: v.pipe(
        v.number("must be a number"),
        v.integer("must be whole pesewas"),
        v.minValue(1, "must be at least 1 pesewa"),
        v.maxValue(MAX_AMOUNT_PESEWAS, `must be at most ${MAX_AMOUNT_PESEWAS} pesewas`),
        v.description("The amount in pesewas (GHS 12.50 is 1250)."),
        v.examples([1250]),
      ),
      currency: v.pipe(v.literal("GHS", "must be GHS"), v.description("Always GHS.")),
      status: v.pipe(v.picklist(["successful", "failed"], "must be successful or failed"), v.description("What the processor decided.")),
      failure_reason: v.optional(Reason("Why it failed: required when status is failed, not allowed otherwise.")),
      occurred_at: Instant("When the payment happened. At most 90 days ago and not in the future."),
    },
    objectMessage("an object (one payment)"),
  ),
  // partialCheck, not check: a rule runs whenever the fields it reads are valid, so a type error elsewhere in the
  // payment does not hide it (every problem of a request is listed at once).
  v.forward(
    v.partialCheck(
      [["channel"], ["network"]],
      (p) => (p.channel === "card" ? (CARD_SCHEMES as readonly string[]) : (MOBILE_MONEY_NETWORKS as readonly string[])).includes(p.network),
      "does not go with the channel",
    ),
    ["network"],
  ),
  v.forward(
    v.partialCheck(
      [["channel"], ["payer"]],
      (p) =>
        p.channel === "card"
          ? Boolean(p.payer.card_bin && p.payer.card_last4 && !p.payer.msisdn)
          : Boolean(p.payer.msisdn && !p.payer.card_bin && !p.payer.card_last4),
      "card payments need card_bin and card_last4 only; mobile money needs msisdn only",
    ),
    ["payer"],
  ),
  v.forward(
    v.partialCheck([["channel"], ["terminal_serial"]], (p) => p.channel !== "card" || p.terminal_serial !== undefined, "is required for a card payment"),
    ["terminal_serial"],
  ),
  v.forward(
    v.partialCheck(
      [["status"], ["failure_reason"]],
      (p) => (p.status === "failed") === (p.failure_reason !== undefined),
      "is required when status is failed, and only then",
    ),
    ["failure_reason"],
  ),
  v.description("One payment as the processor saw it."),
);
/** What a processor sends. */
export type PaymentInput = v.InferInput<typeof PaymentInput>;
/** What the door makes of it (times as epoch ms). */
export type ParsedPayment = v.InferOutput<typeof PaymentInput>;

export const PaymentBatchInput = v.pipe(
  v.strictObject(
    {
      payments: v.pipe(
        v.array(PaymentInput, "must be a list of payments"),
        v.minLength(1, "must hold at least one payment"),
        v.maxLength(MAX_PAYMENTS_PER_REQUEST, `must hold at most ${MAX_PAYMENTS_PER_REQUEST} payments`),
      ),
    },
    objectMessage("an object with payments"),
  ),
  v.description(`Up to ${MAX_PAYMENTS_PER_REQUEST} payments in one request.`),
);

/** POST /api/v1/payments takes one payment or a batch. */
export const PaymentsRequest = v.union([PaymentBatchInput, PaymentInput]);

export const ReversalInput = v.pipe(
  v.strictObject(
    {
      reason: Reason("Why the payment was reversed."),
      reversed_at: Instant("When the processor reversed it. At most 90 days ago and not in the future."),
    },
    objectMessage("an object with reason and reversed_at"),
  ),
  v.description("A full reversal of a payment."),
);
/** What a processor sends. */
export type ReversalInput = v.InferInput<typeof ReversalInput>;
/** What the door makes of it (times as epoch ms). */
export type ParsedReversal = v.InferOutput<typeof ReversalInput>;

export const HeartbeatInput = v.pipe(
  v.strictObject(
    {
      battery_percent: v.pipe(
        v.number("must be a number"),
        v.integer("must be a whole number"),
        v.minValue(0, "must be 0 to 100"),
        v.maxValue(100, "must be 0 to 100"),
      ),
      signal_percent: v.pipe(
        v.number("must be a number"),
        v.integer("must be a whole number"),
        v.minValue(0, "must be 0 to 100"),
        v.maxValue(100, "must be 0 to 100"),
      ),
      software_version: v.pipe(v.string("must be a string"), v.regex(/^[A-Za-z0-9._+-]{1,32}$/, "must be 1 to 32 letters, digits or . _ + -")),
      sent_at: Instant("When the terminal sent it. Older than the terminal's last heartbeat, it is answered 200 with applied: false."),
    },
    objectMessage("an object with battery_percent, signal_percent, software_version and sent_at"),
  ),
  v.description("A terminal's heartbeat: it is alive, with its battery, signal and software."),
);
/** What a processor sends. */
export type HeartbeatInput = v.InferInput<typeof HeartbeatInput>;
/** What the door makes of it (times as epoch ms). */
export type ParsedHeartbeat = v.InferOutput<typeof HeartbeatInput>;

/** A dispute's evidence may be due at most this far ahead. */
export const MAX_EVIDENCE_DAYS = 120;

export const DisputeInput = v.pipe(
  v.strictObject(
    {
      payment_reference: Reference,
      reason_code: v.pipe(
        v.string("must be a string"),
        v.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,31}$/, "must be 1 to 32 letters, digits or . _ : -, starting with a letter or digit"),
        v.description("The scheme's or network's reason code, as the processor received it (e.g. 13.1, 4853, FRAUD)."),
        v.examples(["13.1"]),
      ),
      amount: v.pipe(
        v.number("must be a number"),
        v.integer("must be whole pesewas"),
        v.minValue(1, "must be at least 1 pesewa"),
        v.maxValue(MAX_AMOUNT_PESEWAS, `must be at most ${MAX_AMOUNT_PESEWAS} pesewas`),
        v.description("The disputed amount in pesewas: at most the payment's amount less what earlier disputes of it hold or took."),
        v.examples([12_550]),
      ),
      currency: v.pipe(v.literal("GHS", "must be GHS"), v.description("Always GHS.")),
      evidence_due_by: CalendarDate(
        `The last day (Africa/Accra) on which the business may submit its response: today at the earliest, at most ${MAX_EVIDENCE_DAYS} days ahead. A real calendar day (no 30 February).`,
        ["2026-12-07"],
      ),
    },
    objectMessage("an object (one dispute)"),
  ),
  v.description("A dispute the scheme or network raised on a payment: its amount is held from the merchant's available money until it is closed."),
);
/** What a processor sends. */
export type DisputeInput = v.InferInput<typeof DisputeInput>;
/** What the door makes of it (times as epoch ms). */
export type ParsedDispute = v.InferOutput<typeof DisputeInput>;

export const DisputeCloseInput = v.pipe(
  v.strictObject(
    {
      outcome: v.pipe(
        v.picklist(["won", "lost"], "must be won or lost"),
        v.description("won: the hold returns to the merchant; lost: the held amount leaves."),
      ),
    },
    objectMessage("an object with outcome"),
  ),
  v.description("How the scheme or network decided the dispute."),
);
export type DisputeCloseInput = v.InferOutput<typeof DisputeCloseInput>;

export const DisputeId = v.pipe(v.string(), v.regex(/^dsp_[0-9a-f]{32}$/, "must be a dispute id"));

/**
 * A refund asked for through the API (POST /api/v1/refunds): the same request the portal's refund screen makes, decided
 * by an administrator in the portal. The reason's rules and words are the screen's (app/routes/transactions/refund.route.tsx).
 */
export const RefundRequestInput = v.pipe(
  v.strictObject(
    {
      payment_reference: Reference,
      amount: v.pipe(
        v.number("must be a number"),
        v.integer("must be whole pesewas"),
        v.minValue(1, "Enter an amount above zero."),
        v.maxValue(MAX_AMOUNT_PESEWAS, `must be at most ${MAX_AMOUNT_PESEWAS} pesewas`),
        v.description(
          "The amount to give back, in pesewas: at most the payment's amount less what is refunded, waits for approval or is disputed, and at most the merchant's available money.",
        ),
        v.examples([2_000]),
      ),
      currency: v.pipe(v.literal("GHS", "must be GHS"), v.description("Always GHS.")),
      reason: v.pipe(
        v.string("must be a string"),
        v.trim(),
        v.minLength(3, "Say why the payment is refunded."),
        v.maxLength(500, "Keep the reason under 500 characters."),
        v.description("Why the payment is refunded, for the administrator who approves it: 3 to 500 characters."),
        v.examples(["One item returned"]),
      ),
    },
    objectMessage("an object (one refund)"),
  ),
  v.description("A refund of a successful payment, full or partial. No money moves until an administrator of the business approves it in the portal."),
);
export type RefundRequestInput = v.InferInput<typeof RefundRequestInput>;

/** A refund's id as the path carries it; anything else is no refund (404). */
export const RefundId = v.pipe(v.string(), v.regex(/^rfd_[A-Za-z0-9_-]{1,64}$/, "must be a refund id"));

/** Path parameters. */
export const TerminalSerial = v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{6,32}$/, "must be a terminal serial"));

// What the API answers.

const Nullable = <T extends v.GenericSchema>(schema: T, what: string) => v.pipe(v.nullable(schema), v.description(what));

export const RefundView = v.pipe(
  v.object({
    id: v.string(),
    amount: v.pipe(v.number(), v.integer(), v.description("Pesewas.")),
    currency: v.literal("GHS"),
    status: v.picklist(["pending_approval", "rejected", "sending", "succeeded", "failed"]),
    reason: v.string(),
    requested_at: v.string(),
    decided_at: Nullable(v.string(), "When an administrator approved or rejected it."),
    completed_at: Nullable(v.string(), "When the processor confirmed it, or its last attempt failed."),
    failure_reason: Nullable(v.string(), "Why the processor refused it, for a failed refund (the money went back to the merchant)."),
  }),
  v.description("A refund of a payment, asked for in the portal and approved by a second person."),
);

export const PaymentView = v.pipe(
  v.object({
    reference: Reference,
    merchant: v.object({ id: v.string(), code: v.string() }),
    point_of_sale: v.string(),
    terminal_serial: Nullable(v.string(), "The terminal's serial, or null."),
    channel: v.picklist(CHANNELS),
    network: v.picklist([...MOBILE_MONEY_NETWORKS, ...CARD_SCHEMES]),
    payer: v.object({ card_bin: v.optional(v.string()), card_last4: v.optional(v.string()), msisdn: v.optional(v.string()) }),
    amount: v.pipe(v.number(), v.integer(), v.description("Pesewas.")),
    currency: v.literal("GHS"),
    fee: v.pipe(v.number(), v.integer(), v.description("The merchant service charge, pesewas; 0 for a failed payment (nothing was charged).")),
    net: v.pipe(v.number(), v.integer(), v.description("amount - fee: what the merchant is owed, pesewas; 0 for a failed payment.")),
    status: v.picklist(["successful", "failed", "reversed"]),
    failure_reason: Nullable(v.string(), "Why it failed, for a failed payment."),
    occurred_at: v.string(),
    cleared: v.pipe(v.boolean(), v.description("Whether the net has become available to the merchant.")),
    cleared_at: Nullable(v.string(), "When it cleared."),
    reversal: Nullable(v.object({ reason: v.string(), reversed_at: v.string() }), "The reversal, for a reversed payment."),
    settlement: Nullable(
      v.object({ id: v.string(), reference: v.string(), status: v.picklist(["pending", "paid", "failed"]), paid_at: v.nullable(v.string()) }),
      "The settlement that paid the merchant for it, once there is one.",
    ),
    // Refunds: in the answer to GET /api/v1/payments/{reference}, not in payment.* webhooks.
    refunded: v.optional(v.pipe(v.number(), v.integer(), v.description("Refunds approved and not failed (sending or succeeded), pesewas."))),
    refunds: v.optional(v.pipe(v.array(RefundView), v.description("The payment's refunds, oldest first."))),
  }),
  v.description("A payment as the portal holds it."),
);
export type PaymentView = v.InferOutput<typeof PaymentView>;

export const DisputeView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The portal's id of the dispute (dsp_...): close it with this.")),
    payment_reference: Reference,
    merchant_id: v.string(),
    reason_code: v.string(),
    amount: v.pipe(v.number(), v.integer(), v.description("Pesewas held.")),
    currency: v.literal("GHS"),
    evidence_due_by: v.pipe(v.string(), v.description("YYYY-MM-DD, Africa/Accra.")),
    status: v.pipe(v.picklist(["open", "submitted", "won", "lost"]), v.description("open; submitted (the business answered); won or lost (closed).")),
    opened_at: v.string(),
    response_submitted_at: Nullable(v.string(), "When the business submitted its response."),
    closed_at: Nullable(v.string(), "When the processor closed it."),
  }),
  v.description("A dispute as the portal holds it."),
);
export type DisputeView = v.InferOutput<typeof DisputeView>;

export const EvidenceView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The file's id (dev_...).")),
    dispute_id: v.string(),
    file_name: v.pipe(v.string(), v.description("The name it was sent with, without any path, at most 120 characters.")),
    content_type: v.pipe(
      v.picklist(["application/pdf", "image/jpeg", "image/png", "image/webp"]),
      v.description("What its content is, told from its first bytes (never from its name or the declared type)."),
    ),
    size: v.pipe(v.number(), v.integer(), v.description("Bytes.")),
    uploaded_at: v.string(),
  }),
  v.description("A file of evidence attached to a dispute, as the dispute's page lists it."),
);

export const DisputeDetailView = v.pipe(
  v.object({
    ...DisputeView.entries,
    evidence: v.pipe(v.array(EvidenceView), v.description("The files attached to it, on its page or through the API, oldest first.")),
  }),
  v.description("A dispute as the portal holds it, with its evidence files."),
);

export const Accepted = v.pipe(v.object({ accepted: v.pipe(v.number(), v.integer()) }), v.description("Queued: the portal will apply it within seconds."));

export const HeartbeatNotApplied = v.pipe(
  v.object({
    accepted: v.literal(0),
    applied: v.literal(false),
    reason: v.pipe(v.literal("stale"), v.description("stale: sent_at is older than the terminal's last heartbeat.")),
    message: v.string(),
    last_seen_at: v.pipe(v.string(), v.description("The terminal's last heartbeat the portal holds, RFC 3339 in UTC.")),
  }),
  v.description("The heartbeat was not applied: the portal already holds a newer one for this terminal. Nothing was queued; do not resend it."),
);

export const Problem = v.pipe(
  v.object({
    type: v.pipe(v.string(), v.description("Where this problem is explained: the API reference page's entry for its code (an absolute URL).")),
    title: v.pipe(v.string(), v.description("The code's short title; the same for every answer with this code.")),
    status: v.pipe(v.number(), v.integer(), v.description("The HTTP status, again.")),
    code: v.pipe(v.picklist(PROBLEM_CODES), v.description("Stable: branch on it. The API reference page lists every code.")),
    detail: v.pipe(v.string(), v.description("What went wrong with this request, in words for a developer.")),
    message: v.pipe(v.string(), v.description("The same as detail, kept for clients written before the problem format.")),
    request_id: v.optional(v.pipe(v.string(), v.description("This request's id: quote it to support."))),
    errors: v.optional(
      v.pipe(v.array(v.object({ path: v.string(), message: v.string() })), v.description("For a 400: every problem of the request with its JSON path.")),
    ),
  }),
  v.description("An RFC 9457 problem (application/problem+json): what went wrong, with a stable code."),
);
export type Problem = v.InferOutput<typeof Problem>;

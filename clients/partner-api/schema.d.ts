// Generated from the Partner API's OpenAPI document by `npm run api:client` (openapi-typescript). Do not edit:
// change functions/partner-api (the schemas and openapi.ts) and generate again. clients/partner-api/index.ts is the client.

export interface paths {
  "/api/v1/payments": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List payments
     * @description The business's payments, newest first (by occurred_at, then as they were written), each as GET /api/v1/payments/{reference} answers it, with its settlement and refunds. Filter by when they happened (`created_from` inclusive, `created_to` exclusive), status, merchant (its id: another business's merchant filters to nothing, as an unknown one) and channel. A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listPayments"];
    put?: never;
    /**
     * Send payments
     * @description One payment, or up to 100 as {"payments": [...]}. The whole request is refused if any payment in it is not valid; a payment whose reference the business already holds is not applied twice.
     */
    post: operations["sendPayments"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/payments/{reference}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a payment
     * @description The payment as the portal holds it: status, fee, net, whether it cleared, and its settlement once there is one.
     */
    get: operations["getPayment"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/payments/{reference}/reversal": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reverse a payment
     * @description A full reversal. A reversal that arrives before its payment waits for it; reversing twice is one reversal. A cleared payment can be reversed: the amount comes back out of the merchant's available money.
     */
    post: operations["reversePayment"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/rejections": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List requests accepted but not applied
     * @description Requests the API answered 202 and the portal then could not apply (kept aside so that they hold back nothing else), newest first. Nothing of such a request was applied; the portal's operators are alerted and apply it again once the cause is fixed. Empty when all is well.
     */
    get: operations["listRejections"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/reversals/waiting": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List reversals waiting for their payment
     * @description Reversals sent for a reference the portal did not hold, newest first: each waits 7 days for its payment and is applied when it arrives; after that it is listed as expired and never applied (a later payment with the reference is another payment).
     */
    get: operations["listWaitingReversals"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/disputes": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List disputes
     * @description The business's disputes, newest first (by opened_at), each as opening it answered; filter by status or by the disputed payment's reference. A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listDisputes"];
    put?: never;
    /**
     * Open a dispute
     * @description Written before the answer (not queued): the disputed amount is held from the merchant's available money at once, so it is neither transferred nor settled until the dispute is closed. Only a successful payment can be disputed, for at most its amount less its earlier disputes that were not won. The business answers in the portal before the evidence due date.
     */
    post: operations["openDispute"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/disputes/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a dispute
     * @description The dispute as the portal holds it: its status, whether the business submitted its response, when it closed, and the evidence files attached to it (on its page or through the API). Another business's id is 404.
     */
    get: operations["getDispute"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/merchants": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List merchants
     * @description The business's merchants, newest first (by when they were added). A payment names its merchant by `id` or `code`. A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listMerchants"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/points-of-sale": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List points of sale
     * @description The business's points of sale, newest first (by when they were added), of every merchant or of one. A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listPointsOfSale"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/terminals": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List terminals
     * @description The business's POS terminals by serial, with their last heartbeat; filter by merchant, point of sale or status. A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listTerminals"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/settlements": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List settlements
     * @description The business's settlements, newest first (by when the daily run made them), with their amounts in pesewas, status, payout attempts and the rail that carried them; filter by status and by when they were made (`created_from` inclusive, `created_to` exclusive). A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listSettlements"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/refunds": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List refunds
     * @description The business's refunds, newest first (by when they were asked for), each as its payment's answer shows it with the payment's reference; filter by status or by the payment's reference. A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listRefunds"];
    put?: never;
    /**
     * Ask for a refund
     * @description The same request the portal's refund screen makes, with its rules and words: a refund of a successful payment, full or partial, waiting for an administrator of the business to approve it in the portal (Approvals). No money moves before. It is asked in the name of the person who made the key, so another administrator decides it. The amount is at most the payment's amount less what is refunded, waits for approval or is disputed, and at most the merchant's available money. Written before the answer (not queued): read its status with GET /api/v1/refunds/{id}, or hear refund.succeeded and refund.failed. A business's own key only.
     */
    post: operations["askRefund"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/refunds/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get a refund
     * @description A refund's status now: pending_approval until an administrator decides it, then rejected, or sending and then succeeded or failed. Another business's id is 404.
     */
    get: operations["getRefund"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/disputes/{id}/close": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Close a dispute
     * @description won: the held amount returns to the merchant's available money; lost: it leaves (the scheme or network takes it back). Closing again with the same outcome answers the dispute as it is; with the other outcome, 409.
     */
    post: operations["closeDispute"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/disputes/{id}/evidence": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Attach evidence to a dispute
     * @description One file, sent as multipart/form-data with one part named `file` (`curl -F file=@receipt.pdf`), as the dispute's page attaches it and with the same rules and words: a PDF, JPEG, PNG or WebP image told from its content (not its name or declared type), at most 10 MB, a name that does not claim another of the four kinds, at most 10 files a dispute, only while the dispute is open and before its evidence due date (409 otherwise). The file's content is not scanned for card numbers (it is kept, never logged or shown back); its name is. Each request attaches a file: it takes no Idempotency-Key.
     */
    post: operations["addDisputeEvidence"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List events
     * @description Every event the business's changes made in the last 30 days, subscribed to by an endpoint or not, newest recorded first, with the same id, type, created and data its webhook deliveries carry: a receiver that was down reads what was recorded while it was away (`recorded_from`), and skips ids it already has. Filter by type. A business's own key only. A page of at most `limit` items (1 to 100, 25 when left out) with `has_more` and `next_cursor`: send `?cursor=<next_cursor>` with the same filters for the next page; the last page has `has_more: false` and `next_cursor: null`. A cursor is opaque and works only on the list that gave it. Paging reads each item once while nothing changes; an item added meanwhile comes on the first page of a new walk. An unknown parameter, a bad value or a cursor this list did not give is a 400 naming each as `query.<name>`.
     */
    get: operations["listEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/events/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an event
     * @description One event of the last 30 days, as the feed and its webhook deliveries carry it. Another business's event is answered as an unknown one.
     */
    get: operations["getEvent"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/webhook-endpoints/{id}/resend-failed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send failed deliveries again
     * @description Every delivery to this endpoint that failed for good and was made at `since` or later becomes pending again with a new 24-hour retry window, oldest first, at most 1,000 a request (`has_more` says when more are left). The endpoint must be enabled (409 otherwise). The endpoint's id is in its delivery log's address (Settings → Developers). As the delivery log's button does, audited. A business's own key only.
     */
    post: operations["resendFailedDeliveries"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/terminals/{serial}/heartbeats": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a terminal heartbeat
     * @description The terminal is alive: its last-seen time, battery, signal and software version are updated, so it is no longer silent.
     */
    post: operations["sendHeartbeat"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  "payment.succeeded": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * payment.succeeded
     * @description A payment succeeded: the payment as GET /api/v1/payments/{reference} answers it (without its refunds). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_payment_succeeded"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "payment.failed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * payment.failed
     * @description A payment failed: the payment, with fee and net 0 (nothing was charged or is owed). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_payment_failed"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "payment.reversed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * payment.reversed
     * @description A payment was reversed: the payment, with its reversal. The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_payment_reversed"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "settlement.paid": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * settlement.paid
     * @description A settlement was paid out to the merchant's settlement account: the settlement as GET /api/v1/settlements lists it. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_settlement_paid"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "settlement.failed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * settlement.failed
     * @description A payout attempt of a settlement failed: the settlement as GET /api/v1/settlements lists it (status failed; the portal tries again while attempts is under 5). Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_settlement_failed"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "transfer.approved": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * transfer.approved
     * @description A transfer of a merchant's money was approved and made. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_transfer_approved"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "transfer.rejected": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * transfer.rejected
     * @description A transfer request was rejected: no money moved. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_transfer_rejected"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "refund.succeeded": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * refund.succeeded
     * @description A refund reached the payer: the refund as GET /api/v1/refunds/{id} answers it. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_refund_succeeded"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "refund.failed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * refund.failed
     * @description A refund failed for good; its money is back in the merchant's available balance: the refund as GET /api/v1/refunds/{id} answers it. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_refund_failed"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "approval.requested": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * approval.requested
     * @description Someone asked for a change that another person must approve in the portal. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_approval_requested"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "terminal.silent": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * terminal.silent
     * @description A terminal in service has not been seen for 24 hours (once per silence): the terminal as GET /api/v1/terminals lists it. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_terminal_silent"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "dispute.opened": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * dispute.opened
     * @description A dispute was opened on a payment (its amount is held from the merchant): the dispute as GET /api/v1/disputes/{id} answers it (without its evidence). Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_dispute_opened"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "dispute.closed": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * dispute.closed
     * @description A dispute was closed, won (the hold returns) or lost (the amount leaves): the dispute, as GET answers it. Endpoints pinned to 2026-11-27 get this event in its older shape (docs/api-changelog.md). The same body is in the events feed (GET /api/v1/events). Verify the signature before parsing (docs/webhooks.md).
     */
    post: operations["webhook_dispute_closed"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    /**
     * @description The processor's reference for the payment: unique within the business.
     * @example PSP-20261123-000187
     */
    Reference: string;
    TerminalSerial: string;
    /** @description Who paid: a card's BIN and last four digits (never the full number), or a mobile-money number. */
    Payer: {
      /** @description Cards: the first six digits. */
      card_bin?: string;
      /** @description Cards: the last four digits. */
      card_last4?: string;
      /**
       * @description Mobile money: the payer's wallet number, 233XXXXXXXXX.
       * @example 233244123456
       */
      msisdn?: string;
    };
    /** @description One payment as the processor saw it. Also: network goes with channel: MTN, Telecel or AirtelTigo for mobile_money; VISA, MASTERCARD or GHLINK for card. payer holds card_bin and card_last4 (and no msisdn) for a card payment, and msisdn alone for mobile money. terminal_serial is required for a card payment (card-present). failure_reason is required when status is failed, and not allowed otherwise. */
    PaymentInput: {
      reference: components["schemas"]["Reference"];
      /** @description The merchant: the portal's merchant id (mer_...) or the merchant's code. */
      merchant: string;
      /** @description The point of sale's id in the portal (pos_...); it must belong to the merchant. */
      point_of_sale: string;
      /** @description The POS terminal's serial: required for card payments (card-present), optional for mobile money. */
      terminal_serial?: string;
      /**
       * @description How the payer paid.
       * @enum {string}
       */
      channel: "card" | "mobile_money";
      /**
       * @description The mobile-money network, or the card scheme.
       * @enum {string}
       */
      network: "MTN" | "Telecel" | "AirtelTigo" | "VISA" | "MASTERCARD" | "GHLINK";
      payer: components["schemas"]["Payer"];
      /**
       * @description The amount in pesewas (GHS 12.50 is 1250).
       * @example 1250
       */
      amount: number;
      /**
       * @description Always GHS.
       * @constant
       */
      currency: "GHS";
      /**
       * @description What the processor decided.
       * @enum {string}
       */
      status: "successful" | "failed";
      /** @description Why it failed: required when status is failed, not allowed otherwise. Spaces around it are removed first; it must hold more than spaces. */
      failure_reason?: string;
      /**
       * Format: date-time
       * @description When the payment happened. At most 90 days ago and not in the future. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      occurred_at: string;
    };
    /** @description Up to 100 payments in one request. */
    PaymentBatchInput: {
      payments: components["schemas"]["PaymentInput"][];
    };
    PaymentsRequest: components["schemas"]["PaymentBatchInput"] | components["schemas"]["PaymentInput"];
    /** @description A full reversal of a payment. */
    ReversalInput: {
      /** @description Why the payment was reversed. Spaces around it are removed first; it must hold more than spaces. */
      reason: string;
      /**
       * Format: date-time
       * @description When the processor reversed it. At most 90 days ago and not in the future. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      reversed_at: string;
    };
    /** @description A terminal's heartbeat: it is alive, with its battery, signal and software. */
    HeartbeatInput: {
      battery_percent: number;
      signal_percent: number;
      software_version: string;
      /**
       * Format: date-time
       * @description When the terminal sent it. Older than the terminal's last heartbeat, it is answered 200 with applied: false. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      sent_at: string;
    };
    /** @description The heartbeat was not applied: the portal already holds a newer one for this terminal. Nothing was queued; do not resend it. */
    HeartbeatNotApplied: {
      /** @constant */
      accepted: 0;
      /** @constant */
      applied: false;
      /**
       * @description stale: sent_at is older than the terminal's last heartbeat.
       * @constant
       */
      reason: "stale";
      message: string;
      /** @description The terminal's last heartbeat the portal holds, RFC 3339 in UTC. */
      last_seen_at: string;
    };
    /** @description A payment as the portal holds it. */
    PaymentView: {
      reference: components["schemas"]["Reference"];
      merchant: {
        id: string;
        code: string;
      };
      point_of_sale: string;
      /** @description The terminal's serial, or null. */
      terminal_serial: string | null;
      /** @enum {string} */
      channel: "card" | "mobile_money";
      /** @enum {string} */
      network: "MTN" | "Telecel" | "AirtelTigo" | "VISA" | "MASTERCARD" | "GHLINK";
      payer: {
        card_bin?: string;
        card_last4?: string;
        msisdn?: string;
      };
      /** @description Pesewas. */
      amount: number;
      /** @constant */
      currency: "GHS";
      /** @description The merchant service charge, pesewas; 0 for a failed payment (nothing was charged). */
      fee: number;
      /** @description amount - fee: what the merchant is owed, pesewas; 0 for a failed payment. */
      net: number;
      /** @enum {string} */
      status: "successful" | "failed" | "reversed";
      /** @description Why it failed, for a failed payment. */
      failure_reason: string | null;
      occurred_at: string;
      /** @description Whether the net has become available to the merchant. */
      cleared: boolean;
      /** @description When it cleared. */
      cleared_at: string | null;
      /** @description The reversal, for a reversed payment. */
      reversal: {
        reason: string;
        reversed_at: string;
      } | null;
      /** @description The settlement that paid the merchant for it, once there is one. */
      settlement: {
        id: string;
        reference: string;
        /** @enum {string} */
        status: "pending" | "paid" | "failed";
        paid_at: string | null;
      } | null;
      /** @description Refunds approved and not failed (sending or succeeded), pesewas. */
      refunded?: number;
      /** @description The payment's refunds, oldest first. */
      refunds?: {
        id: string;
        /** @description Pesewas. */
        amount: number;
        /** @constant */
        currency: "GHS";
        /** @enum {string} */
        status: "pending_approval" | "rejected" | "sending" | "succeeded" | "failed";
        reason: string;
        requested_at: string;
        /** @description When an administrator approved or rejected it. */
        decided_at: string | null;
        /** @description When the processor confirmed it, or its last attempt failed. */
        completed_at: string | null;
        /** @description Why the processor refused it, for a failed refund (the money went back to the merchant). */
        failure_reason: string | null;
      }[];
    };
    /** @description A dispute the scheme or network raised on a payment: its amount is held from the merchant's available money until it is closed. */
    DisputeInput: {
      payment_reference: components["schemas"]["Reference"];
      /**
       * @description The scheme's or network's reason code, as the processor received it (e.g. 13.1, 4853, FRAUD).
       * @example 13.1
       */
      reason_code: string;
      /**
       * @description The disputed amount in pesewas: at most the payment's amount less what earlier disputes of it hold or took.
       * @example 12550
       */
      amount: number;
      /**
       * @description Always GHS.
       * @constant
       */
      currency: "GHS";
      /**
       * Format: date
       * @description The last day (Africa/Accra) on which the business may submit its response: today at the earliest, at most 120 days ahead. A real calendar day (no 30 February).
       * @example 2026-12-07
       */
      evidence_due_by: string;
    };
    /** @description How the scheme or network decided the dispute. */
    DisputeCloseInput: {
      /**
       * @description won: the hold returns to the merchant; lost: the held amount leaves.
       * @enum {string}
       */
      outcome: "won" | "lost";
    };
    /** @description A dispute as the portal holds it. */
    DisputeView: {
      /** @description The portal's id of the dispute (dsp_...): close it with this. */
      id: string;
      payment_reference: components["schemas"]["Reference"];
      merchant_id: string;
      reason_code: string;
      /** @description Pesewas held. */
      amount: number;
      /** @constant */
      currency: "GHS";
      /** @description YYYY-MM-DD, Africa/Accra. */
      evidence_due_by: string;
      /**
       * @description open; submitted (the business answered); won or lost (closed).
       * @enum {string}
       */
      status: "open" | "submitted" | "won" | "lost";
      opened_at: string;
      /** @description When the business submitted its response. */
      response_submitted_at: string | null;
      /** @description When the processor closed it. */
      closed_at: string | null;
    };
    /** @description A dispute as the portal holds it, with its evidence files. */
    DisputeDetailView: {
      /** @description The portal's id of the dispute (dsp_...): close it with this. */
      id: string;
      payment_reference: components["schemas"]["Reference"];
      merchant_id: string;
      reason_code: string;
      /** @description Pesewas held. */
      amount: number;
      /** @constant */
      currency: "GHS";
      /** @description YYYY-MM-DD, Africa/Accra. */
      evidence_due_by: string;
      /**
       * @description open; submitted (the business answered); won or lost (closed).
       * @enum {string}
       */
      status: "open" | "submitted" | "won" | "lost";
      opened_at: string;
      /** @description When the business submitted its response. */
      response_submitted_at: string | null;
      /** @description When the processor closed it. */
      closed_at: string | null;
      /** @description The files attached to it, on its page or through the API, oldest first. */
      evidence: components["schemas"]["EvidenceView"][];
    };
    /** @description A file of evidence attached to a dispute, as the dispute's page lists it. */
    EvidenceView: {
      /** @description The file's id (dev_...). */
      id: string;
      dispute_id: string;
      /** @description The name it was sent with, without any path, at most 120 characters. */
      file_name: string;
      /**
       * @description What its content is, told from its first bytes (never from its name or the declared type).
       * @enum {string}
       */
      content_type: "application/pdf" | "image/jpeg" | "image/png" | "image/webp";
      /** @description Bytes. */
      size: number;
      uploaded_at: string;
    };
    /** @description A refund of a successful payment, full or partial. No money moves until an administrator of the business approves it in the portal. */
    RefundRequestInput: {
      payment_reference: components["schemas"]["Reference"];
      /**
       * @description The amount to give back, in pesewas: at most the payment's amount less what is refunded, waits for approval or is disputed, and at most the merchant's available money.
       * @example 2000
       */
      amount: number;
      /**
       * @description Always GHS.
       * @constant
       */
      currency: "GHS";
      /**
       * @description Why the payment is refunded, for the administrator who approves it: 3 to 500 characters. Spaces around it are removed first; it must hold more than spaces.
       * @example One item returned
       */
      reason: string;
    };
    /** @description Queued: the portal will apply it within seconds. */
    Accepted: {
      accepted: number;
    };
    /** @description An RFC 9457 problem (application/problem+json): what went wrong, with a stable code. */
    Problem: {
      /** @description Where this problem is explained: the API reference page's entry for its code (an absolute URL). */
      type: string;
      /** @description The code's short title; the same for every answer with this code. */
      title: string;
      /** @description The HTTP status, again. */
      status: number;
      /**
       * @description Stable: branch on it. The API reference page lists every code.
       * @enum {string}
       */
      code:
        | "validation_failed"
        | "card_number"
        | "body_not_utf8"
        | "body_not_json"
        | "repeated_key"
        | "text_not_well_formed"
        | "body_too_deep"
        | "business_required"
        | "unknown_version"
        | "unauthorized"
        | "out_of_scope"
        | "business_key_required"
        | "key_maker_not_allowed"
        | "test_key_for_live_data"
        | "not_your_business"
        | "business_suspended"
        | "business_closed"
        | "endpoint_not_found"
        | "business_not_found"
        | "payment_not_found"
        | "terminal_not_found"
        | "event_not_found"
        | "webhook_endpoint_not_found"
        | "webhook_endpoint_disabled"
        | "dispute_not_found"
        | "refund_not_found"
        | "method_not_allowed"
        | "idempotency_key_reused"
        | "dispute_already_closed"
        | "dispute_not_answerable"
        | "reference_conflict"
        | "reversal_conflict"
        | "body_too_large"
        | "unsupported_media_type"
        | "rate_limited"
        | "internal_error"
        | "not_applied"
        | "business_moving"
        | "misconfigured";
      /** @description What went wrong with this request, in words for a developer. */
      detail: string;
      /** @description The same as detail, kept for clients written before the problem format. */
      message: string;
      /** @description This request's id: quote it to support. */
      request_id?: string;
      /** @description For a 400: every problem of the request with its JSON path. */
      errors?: {
        path: string;
        message: string;
      }[];
    };
    /** @description Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours. */
    IdempotencyKey: string;
    /** @description Seconds to wait before sending again. */
    RetryAfter: number;
    /** @description Queued: the portal will apply the reversal within seconds, or keep it waiting for its payment. */
    ReversalAccepted: {
      accepted: number;
      /** @description Whether the portal held the payment when the reversal arrived. */
      payment_known: boolean;
      /** @description When the payment is not known yet: how long the reversal waits for it. */
      message?: string;
    };
    /** @description Something the API accepted (202) and then did not apply. not_applied: nothing of the request was applied; the portal's operators are alerted and can apply it again once the cause is fixed, and the other payments were applied as usual. reference_conflict and reversal_conflict: that payment or reversal was refused, the payment held is unchanged. */
    RejectionView: {
      /** @description prk_... for a request the portal could not apply (quote it to the portal's operators); cfl_... for a payment or reversal refused for its reference. */
      id: string;
      /** @description The payment and reversal references the request carried. */
      references: string[];
      /**
       * @description Why it was not applied, a problem code of the API reference: not_applied (a fault on the portal's side), reference_conflict (the reference holds another payment), reversal_conflict (the reversal does not fit its payment).
       * @enum {string}
       */
      code: "not_applied" | "reference_conflict" | "reversal_conflict";
      /** @description What happened, in plain words. */
      problem: string;
      /** @description The error the portal met, as it was. */
      error: string;
      attempts: number;
      received_at: string | null;
      /** @description UTC, as 2026-11-25T11:15:13.000Z. */
      parked_at: string;
    };
    RejectionsPage: {
      data: components["schemas"]["RejectionView"][];
      /** @description Send as ?after= for the next page; null on the last page. */
      next: string | null;
    };
    /** @description A reversal for a reference the portal did not hold: it waits 7 days for its payment, then expires. */
    WaitingReversalView: {
      reference: string;
      reason: string;
      /** @description UTC, as 2026-11-25T11:15:13.000Z. */
      reversed_at: string;
      /** @description UTC, as 2026-11-25T11:15:13.000Z. */
      received_at: string;
      /** @description received_at plus 7 days. */
      expires_at: string;
      /**
       * @description waiting: applied as soon as the payment arrives; expired: never applied (a later payment with this reference is another payment).
       * @enum {string}
       */
      status: "waiting" | "expired";
    };
    WaitingReversalsPage: {
      data: components["schemas"]["WaitingReversalView"][];
      /** @description Send as ?after= for the next page; null on the last page. */
      next: string | null;
    };
    /**
     * @description How many items to a page: 1 to 100 (25 when left out).
     * @example 100
     */
    Limit: string;
    /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
    Cursor: string;
    /** @description The query of GET /api/v1/payments: every parameter is optional. */
    PaymentsQuery: {
      /**
       * Format: date-time
       * @description Only those created at this time or later. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      created_from?: string;
      /**
       * Format: date-time
       * @description Only those created before this time. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      created_to?: string;
      /**
       * @description Only payments in this status.
       * @enum {string}
       */
      status?: "successful" | "failed" | "reversed";
      /** @description Only those of this merchant's id (mer_...). */
      merchant?: string;
      /**
       * @description Only payments by this channel.
       * @enum {string}
       */
      channel?: "card" | "mobile_money";
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description A page of the business's payments, newest first: each as GET /api/v1/payments/{reference} answers it, refunds included. */
    PaymentsPage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["PaymentView"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description The query of GET /api/v1/merchants. */
    MerchantsQuery: {
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description A merchant of the business. */
    MerchantView: {
      /** @description The portal's id (mer_...): a payment names its merchant by it or by its code. */
      id: string;
      code: string;
      /** @description The registered name, in any script. */
      name: string;
      trading_name: string;
      /** @description The Ghana Revenue Authority's TIN. */
      tin: string;
      sector: string;
      town: string;
      region: string;
      address: string;
      contact_name: string;
      /** @description 233XXXXXXXXX. */
      contact_phone: string;
      contact_email: string;
      /** @enum {string} */
      status: "active" | "inactive";
      /** @description When it was added. RFC 3339 in UTC. */
      created_at: string;
      /** @description When it last changed. RFC 3339 in UTC. */
      updated_at: string;
    };
    /** @description A page of the business's merchants, newest first. */
    MerchantsPage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["MerchantView"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description The query of GET /api/v1/points-of-sale. */
    PointsOfSaleQuery: {
      /** @description Only those of this merchant's id (mer_...). */
      merchant?: string;
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description A point of sale (branch) of a merchant. */
    PointOfSaleView: {
      /** @description The portal's id (pos_...): a payment names its point of sale by it. */
      id: string;
      /** @description The merchant's id. */
      merchant: string;
      name: string;
      town: string;
      region: string;
      address: string;
      /** @description 233XXXXXXXXX. */
      contact_phone: string;
      /** @enum {string} */
      status: "active" | "inactive";
      /** @description When it was added. RFC 3339 in UTC. */
      created_at: string;
      /** @description When it last changed. RFC 3339 in UTC. */
      updated_at: string;
    };
    /** @description A page of the business's points of sale, newest first. */
    PointsOfSalePage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["PointOfSaleView"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description The query of GET /api/v1/terminals. */
    TerminalsQuery: {
      /** @description Only those of this merchant's id (mer_...). */
      merchant?: string;
      /** @description Only those of this point of sale's id (pos_...). */
      point_of_sale?: string;
      /**
       * @description Only terminals in this status.
       * @enum {string}
       */
      status?: "in_stock" | "assigned" | "active" | "blocked" | "faulty" | "retired";
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description A POS terminal of the business's fleet. */
    TerminalView: {
      id: string;
      /** @description The serial a card payment and a heartbeat name the terminal by. */
      serial: string;
      model: string;
      software_version: string;
      /** @enum {string} */
      status: "in_stock" | "assigned" | "active" | "blocked" | "faulty" | "retired";
      /** @description The merchant's id, while it is assigned to one. */
      merchant: string | null;
      /** @description The point of sale it stands at, while it is assigned to one. */
      point_of_sale: string | null;
      /** @description Its last heartbeat, RFC 3339 in UTC; null until it sends one. */
      last_seen_at: string | null;
      /** @description From its last heartbeat. */
      battery_percent: number | null;
      /** @description From its last heartbeat. */
      signal_percent: number | null;
      /** @description When it was added. RFC 3339 in UTC. */
      created_at: string;
      /** @description When it last changed. RFC 3339 in UTC. */
      updated_at: string;
    };
    /** @description A page of the business's terminals, by serial. */
    TerminalsPage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["TerminalView"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description The query of GET /api/v1/disputes. */
    DisputesQuery: {
      /**
       * @description Only disputes in this status.
       * @enum {string}
       */
      status?: "open" | "submitted" | "won" | "lost";
      /**
       * @description Only the disputes of the payment with this reference.
       * @example PSP-20261123-000187
       */
      payment_reference?: string;
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description A page of the business's disputes, newest first (by when they were opened). */
    DisputesPage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["DisputeView"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description The query of GET /api/v1/settlements. */
    SettlementsQuery: {
      /**
       * Format: date-time
       * @description Only those created at this time or later. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      created_from?: string;
      /**
       * Format: date-time
       * @description Only those created before this time. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      created_to?: string;
      /**
       * @description Only settlements in this status.
       * @enum {string}
       */
      status?: "pending" | "paid" | "failed";
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description A settlement: one merchant's net for one period, paid out to its settlement account. */
    SettlementView: {
      id: string;
      /** @description The reference the merchant's bank or wallet statement shows. */
      reference: string;
      /** @description The merchant's id. */
      merchant: string;
      /** @description The settlement account it is paid to. */
      settlement_account: string;
      /** @description The transfer it pays out (trf_..., asked for in the portal and approved by a second person); null for the daily run's settlements. */
      transfer: string | null;
      /** @description The start of the period of payments it covers (a transfer's payout: the instant its transfer was approved). RFC 3339 in UTC. */
      period_start: string;
      /** @description The end of the period (exclusive; a transfer's payout: the same instant, covering no payments). RFC 3339 in UTC. */
      period_end: string;
      /** @description The successful payments it covers. Pesewas. */
      gross: number;
      /** @description The fees of those payments. Pesewas. */
      fees: number;
      /** @description gross - fees: what is paid out. Pesewas. */
      net: number;
      /** @constant */
      currency: "GHS";
      /**
       * @description pending (not paid out yet), paid, or failed (its last attempt failed).
       * @enum {string}
       */
      status: "pending" | "paid" | "failed";
      /** @description How many times the portal tried to pay it out. */
      attempts: number;
      /** @description When the daily run made it. RFC 3339 in UTC. */
      created_at: string;
      /** @description When it was paid out, RFC 3339 in UTC. */
      paid_at: string | null;
      /** @description The payout rail that carries it (e.g. switch), once one has. */
      rail: string | null;
      /** @description The rail's reference for the payout. */
      rail_reference: string | null;
      /** @description What the rail last said of it. */
      rail_status: string | null;
    };
    /** @description A page of the business's settlements, newest first. */
    SettlementsPage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["SettlementView"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description The query of GET /api/v1/refunds. */
    RefundsQuery: {
      /**
       * @description Only refunds in this status.
       * @enum {string}
       */
      status?: "pending_approval" | "rejected" | "sending" | "succeeded" | "failed";
      /**
       * @description Only the refunds of the payment with this reference.
       * @example PSP-20261123-000187
       */
      payment_reference?: string;
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description A refund of a payment, with the payment's reference. */
    RefundListItem: {
      id: string;
      /** @description Pesewas. */
      amount: number;
      /** @constant */
      currency: "GHS";
      /** @enum {string} */
      status: "pending_approval" | "rejected" | "sending" | "succeeded" | "failed";
      reason: string;
      requested_at: string;
      /** @description When an administrator approved or rejected it. */
      decided_at: string | null;
      /** @description When the processor confirmed it, or its last attempt failed. */
      completed_at: string | null;
      /** @description Why the processor refused it, for a failed refund (the money went back to the merchant). */
      failure_reason: string | null;
      /**
       * @description The reference of the payment it refunds.
       * @example PSP-20261123-000187
       */
      payment_reference: string;
    };
    /** @description A page of the business's refunds, newest first (by when they were asked for). */
    RefundsPage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["RefundListItem"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description The query of GET /api/v1/events: every parameter is optional. */
    EventsQuery: {
      /**
       * @description Only events of this type.
       * @enum {string}
       */
      type?:
        | "payment.succeeded"
        | "payment.failed"
        | "payment.reversed"
        | "settlement.paid"
        | "settlement.failed"
        | "transfer.approved"
        | "transfer.rejected"
        | "refund.succeeded"
        | "refund.failed"
        | "approval.requested"
        | "terminal.silent"
        | "dispute.opened"
        | "dispute.closed";
      /**
       * Format: date-time
       * @description Only events the portal recorded at this time or later (the feed keeps 30 days). RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      recorded_from?: string;
      /**
       * Format: date-time
       * @description Only events the portal recorded before this time. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      recorded_to?: string;
      limit?: components["schemas"]["Limit"];
      cursor?: components["schemas"]["Cursor"];
    };
    /** @description An event, with the id, type, created and data its webhook deliveries carry, and when the portal recorded it. */
    EventView: {
      /** @description The event's id (evt_...): the same as its webhook deliveries' webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /**
       * @description What happened.
       * @enum {string}
       */
      type:
        | "payment.succeeded"
        | "payment.failed"
        | "payment.reversed"
        | "settlement.paid"
        | "settlement.failed"
        | "transfer.approved"
        | "transfer.rejected"
        | "refund.succeeded"
        | "refund.failed"
        | "approval.requested"
        | "terminal.silent"
        | "dispute.opened"
        | "dispute.closed";
      /** @description When what it describes happened (a payment's occurred_at), as the webhook body's created: RFC 3339 in UTC. */
      created: string;
      /** @description When the portal recorded it: the feed's order. A receiver catching up reads what was recorded while it was away. RFC 3339 in UTC. */
      recorded_at: string;
      /** @description The data its webhook deliveries carry, in the version this request is answered as (PP-Version, or the key's): exactly what an endpoint pinned to that version receives. */
      data: Record<string, never>;
    };
    /** @description A page of the business's events of the last 30 days, newest recorded first. */
    EventsPage: {
      /** @description This page's items, in the list's order. */
      data: components["schemas"]["EventView"][];
      /** @description Whether another page follows this one. */
      has_more: boolean;
      /** @description Send it as ?cursor= (with the same filters) for the next page; null on the last page. */
      next_cursor: string | null;
    };
    /** @description Which failed deliveries to send again. */
    ResendFailedInput: {
      /**
       * Format: date-time
       * @description Send again every delivery to this endpoint that failed for good and was made at this time or later. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut).
       * @example 2026-11-23T10:15:00Z
       * @example 2026-11-23T11:15:00.250+01:00
       */
      since: string;
    };
    /** @description Queued: each is sent within a minute and logged on the endpoint's delivery log. */
    ResendFailedAnswer: {
      /** @description How many failed deliveries were made pending again, each with a new 24-hour retry window. */
      queued: number;
      /** @description More failed deliveries since that time are left (at most 1,000 are queued a request): send it again. */
      has_more: boolean;
    };
    PaymentSucceededEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "payment.succeeded";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["PaymentView"];
    };
    PaymentFailedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "payment.failed";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["PaymentView"];
    };
    PaymentReversedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "payment.reversed";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["PaymentView"];
    };
    SettlementPaidEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "settlement.paid";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["SettlementView"];
    };
    SettlementFailedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "settlement.failed";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["SettlementView"];
    };
    TransferApprovedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "transfer.approved";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      /** @description A transfer of a merchant's money, decided by a second person. */
      data: {
        /** @description The transfer's id (trf_...). */
        id: string;
        /** @description The merchant whose available balance the money left. */
        from_merchant: string;
        /** @description The merchant the money went to, for a transfer between merchants; else null. */
        to_merchant: string | null;
        /** @description The merchant's settlement account the money was paid out to, for a payout; else null. */
        to_settlement_account: string | null;
        /** @description For an approved payout, the settlement that pays it out (GET /api/v1/settlements; settlement.paid and settlement.failed follow); else null. */
        settlement: string | null;
        /** @description The amount moved (or that was to be). Pesewas. */
        amount: number;
        /** @constant */
        currency: "GHS";
        /** @description The line its asker wrote for the checker and the statement (at most 100 characters); null when none. */
        narration: string | null;
        /**
         * @description completed: approved and the money moved; rejected: nothing moved.
         * @enum {string}
         */
        status: "completed" | "rejected";
        /** @description Why it was rejected, in the words of the person who rejected it; null unless rejected. */
        reason: string | null;
        /** @description Who asked for it (a person's id). */
        requested_by: string | null;
        /** @description When it was asked for. ISO 8601 in UTC. */
        requested_at: string;
        /** @description Who approved or rejected it (a person's id). */
        decided_by: string | null;
        /** @description When it was decided. ISO 8601 in UTC. */
        decided_at: string;
      };
    };
    TransferRejectedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "transfer.rejected";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      /** @description A transfer of a merchant's money, decided by a second person. */
      data: {
        /** @description The transfer's id (trf_...). */
        id: string;
        /** @description The merchant whose available balance the money left. */
        from_merchant: string;
        /** @description The merchant the money went to, for a transfer between merchants; else null. */
        to_merchant: string | null;
        /** @description The merchant's settlement account the money was paid out to, for a payout; else null. */
        to_settlement_account: string | null;
        /** @description For an approved payout, the settlement that pays it out (GET /api/v1/settlements; settlement.paid and settlement.failed follow); else null. */
        settlement: string | null;
        /** @description The amount moved (or that was to be). Pesewas. */
        amount: number;
        /** @constant */
        currency: "GHS";
        /** @description The line its asker wrote for the checker and the statement (at most 100 characters); null when none. */
        narration: string | null;
        /**
         * @description completed: approved and the money moved; rejected: nothing moved.
         * @enum {string}
         */
        status: "completed" | "rejected";
        /** @description Why it was rejected, in the words of the person who rejected it; null unless rejected. */
        reason: string | null;
        /** @description Who asked for it (a person's id). */
        requested_by: string | null;
        /** @description When it was asked for. ISO 8601 in UTC. */
        requested_at: string;
        /** @description Who approved or rejected it (a person's id). */
        decided_by: string | null;
        /** @description When it was decided. ISO 8601 in UTC. */
        decided_at: string;
      };
    };
    RefundSucceededEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "refund.succeeded";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["RefundListItem"];
    };
    RefundFailedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "refund.failed";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["RefundListItem"];
    };
    ApprovalRequestedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "approval.requested";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      /** @description A change someone asked for that another person must approve in the portal. */
      data: {
        /** @description The approval request's id (apr_... or req_...). */
        id: string;
        /** @description What it changes: merchant, point_of_sale, terminal, settlement_account, employee, transfer or refund. */
        kind: string;
        /** @description create, update, deactivate… */
        action: string;
        /** @description The id of what it changes (a transfer's or refund's id for those kinds); null when it makes something new. */
        target: string | null;
        /** @description Who asked (a person's id): a refund asked through the Partner API is asked in the name of the key's maker. */
        maker: string;
        /** @description When it was asked. ISO 8601 in UTC. */
        made_at: string;
      };
    };
    TerminalSilentEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "terminal.silent";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["TerminalView"];
    };
    DisputeOpenedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "dispute.opened";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["DisputeView"];
    };
    DisputeClosedEvent: {
      /** @description The event's id (evt_...): the same on every retry, in webhook-id and PP-Event-Id. De-duplicate on it. */
      id: string;
      /** @constant */
      type: "dispute.closed";
      /** @description When what it describes happened (for payment.*, the payment's occurred_at). ISO 8601 in UTC. */
      created: string;
      data: components["schemas"]["DisputeView"];
    };
  };
  responses: {
    /** @description The request is not valid: every problem is listed with its JSON path. A field that looks like a full card number is one of them. A platform key without the PP-Business header is 400 too. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "https://portal.example.com/developers/api#problem-validation_failed",
         *       "title": "The request is not valid",
         *       "status": 400,
         *       "code": "validation_failed",
         *       "detail": "The request has 2 problems.",
         *       "message": "The request has 2 problems.",
         *       "request_id": "7F3K-Q2M9-XD4T",
         *       "errors": [
         *         {
         *           "path": "payments[0].amount",
         *           "message": "must be whole pesewas"
         *         },
         *         {
         *           "path": "payments[1].failure_reason",
         *           "message": "is required when status is failed, and only then"
         *         }
         *       ]
         *     }
         */
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
    /** @description No API key, or not a live key of any business (revoked, expired after a roll, or never made). The answer says nothing more. */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "https://portal.example.com/developers/api#problem-unauthorized",
         *       "title": "No valid API key",
         *       "status": 401,
         *       "code": "unauthorized",
         *       "detail": "Missing or invalid API key. Send Authorization: Bearer <key>.",
         *       "message": "Missing or invalid API key. Send Authorization: Bearer <key>.",
         *       "request_id": "7F3K-Q2M9-XD4T"
         *     }
         */
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
    /** @description No such payment, terminal, dispute, refund or event in this business (another business's reads the same); with a platform key, also a PP-Business that names no business. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "https://portal.example.com/developers/api#problem-payment_not_found",
         *       "title": "No such payment",
         *       "status": 404,
         *       "code": "payment_not_found",
         *       "detail": "No payment with that reference.",
         *       "message": "No payment with that reference.",
         *       "request_id": "7F3K-Q2M9-XD4T"
         *     }
         */
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
    /** @description The key may not do this for this business: the operation is outside a platform key's scopes, the business is closed, the business is suspended (its own keys; a platform key still acts for it), or a business's own key named another business in PP-Business. */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
    /** @description The Idempotency-Key was already used with another request. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "https://portal.example.com/developers/api#problem-idempotency_key_reused",
         *       "title": "Idempotency-Key used for another request",
         *       "status": 409,
         *       "code": "idempotency_key_reused",
         *       "detail": "This Idempotency-Key was already used with another request. Use a new key for a new request.",
         *       "message": "This Idempotency-Key was already used with another request. Use a new key for a new request.",
         *       "request_id": "7F3K-Q2M9-XD4T"
         *     }
         */
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
    /** @description The body is larger than 256 KiB (100 payments take about 60 kB). */
    TooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "https://portal.example.com/developers/api#problem-body_too_large",
         *       "title": "The body is too large",
         *       "status": 413,
         *       "code": "body_too_large",
         *       "detail": "The body is larger than 262144 bytes. Send at most 100 payments a request.",
         *       "message": "The body is larger than 262144 bytes. Send at most 100 payments a request.",
         *       "request_id": "7F3K-Q2M9-XD4T"
         *     }
         */
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
    /** @description The body is not sent as Content-Type: application/json. */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "https://portal.example.com/developers/api#problem-unsupported_media_type",
         *       "title": "Send JSON",
         *       "status": 415,
         *       "code": "unsupported_media_type",
         *       "detail": "Send the body as JSON with Content-Type: application/json.",
         *       "message": "Send the body as JSON with Content-Type: application/json.",
         *       "request_id": "7F3K-Q2M9-XD4T"
         *     }
         */
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
    /** @description Each API key may send at most 1200 requests a minute (a platform key as many for each business it acts for). Over the limit the API answers 429 with Retry-After (seconds): wait that long, then send the same request again (with the same Idempotency-Key). Send up to 100 payments in one request rather than many small ones. Every answer carries the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10): `RateLimit-Policy: "per-key";q=1200;w=60` and, once the request was counted against a key, `RateLimit: "per-key";r=<requests left>;t=<seconds until the window ends>`. */
    TooManyRequests: {
      headers: {
        "Retry-After": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "type": "https://portal.example.com/developers/api#problem-rate_limited",
         *       "title": "Too many requests",
         *       "status": 429,
         *       "code": "rate_limited",
         *       "detail": "Too many requests for this key: at most 1200 a minute.",
         *       "message": "Too many requests for this key: at most 1200 a minute.",
         *       "request_id": "7F3K-Q2M9-XD4T"
         *     }
         */
        "application/problem+json": components["schemas"]["Problem"];
      };
    };
  };
  parameters: {
    /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
    business: string;
    /** @description Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours. */
    IdempotencyKey: components["schemas"]["IdempotencyKey"];
    /**
     * @description The processor's reference for the payment: unique within the business.
     * @example PSP-K000187
     */
    reference: components["schemas"]["Reference"];
    /**
     * @description The terminal's serial.
     * @example 655-001-992
     */
    serial: components["schemas"]["TerminalSerial"];
    /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
    version: "2026-11-27" | "2026-12-01";
  };
  requestBodies: never;
  headers: {
    /** @description Seconds to wait before sending again. */
    RetryAfter: components["schemas"]["RetryAfter"];
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listPayments: {
    parameters: {
      query?: {
        /** @description Only those created at this time or later. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut). */
        created_from?: string;
        /** @description Only those created before this time. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut). */
        created_to?: string;
        /** @description Only payments in this status. */
        status?: "successful" | "failed" | "reversed";
        /** @description Only those of this merchant's id (mer_...). */
        merchant?: string;
        /** @description Only payments by this channel. */
        channel?: "card" | "mobile_money";
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "reference": "PSP-K000187",
           *           "merchant": {
           *             "id": "mer_kff_0001",
           *             "code": "MRC-0001"
           *           },
           *           "point_of_sale": "pos_kff_00001",
           *           "terminal_serial": "655-001-992",
           *           "channel": "card",
           *           "network": "VISA",
           *           "payer": {
           *             "card_bin": "455657",
           *             "card_last4": "4242"
           *           },
           *           "amount": 12550,
           *           "currency": "GHS",
           *           "fee": 220,
           *           "net": 12330,
           *           "status": "successful",
           *           "failure_reason": null,
           *           "occurred_at": "2026-11-20T09:20:00.000Z",
           *           "cleared": true,
           *           "cleared_at": "2026-11-23T09:20:00.000Z",
           *           "reversal": null,
           *           "settlement": {
           *             "id": "stl_kff_001114",
           *             "reference": "STL-KFF-MRC-0001-20261123",
           *             "status": "paid",
           *             "paid_at": "2026-11-24T08:02:11.000Z"
           *           },
           *           "refunded": 1500,
           *           "refunds": [
           *             {
           *               "id": "rfd_kff_0001",
           *               "amount": 1500,
           *               "currency": "GHS",
           *               "status": "succeeded",
           *               "reason": "Customer returned one item",
           *               "requested_at": "2026-11-23T08:20:00.000Z",
           *               "decided_at": "2026-11-23T09:30:00.000Z",
           *               "completed_at": "2026-11-23T09:30:05.000Z",
           *               "failure_reason": null
           *             }
           *           ]
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["PaymentsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  sendPayments: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["PaymentsRequest"];
      };
    };
    responses: {
      /** @description Payments queued: the portal applies it within seconds. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "accepted": 1
           *     }
           */
          "application/json": components["schemas"]["Accepted"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["TooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  getPayment: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The processor's reference for the payment: unique within the business.
         * @example PSP-K000187
         */
        reference: components["parameters"]["reference"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The payment. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["PaymentView"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  reversePayment: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The processor's reference for the payment: unique within the business.
         * @example PSP-K000201
         */
        reference: components["schemas"]["Reference"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "reason": "Customer returned the goods",
         *       "reversed_at": "2026-11-23T10:19:00Z"
         *     }
         */
        "application/json": components["schemas"]["ReversalInput"];
      };
    };
    responses: {
      /** @description The reversal queued. payment_known says whether the portal held the payment; when it did not, the reversal waits 7 days for it (GET /api/v1/reversals/waiting) and then expires. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "accepted": 1,
           *       "payment_known": false,
           *       "message": "The portal does not hold a payment with this reference yet. The reversal waits for it for 7 days (GET /api/v1/reversals/waiting lists it); if the payment has not arrived by then, the reversal expires and is never applied."
           *     }
           */
          "application/json": components["schemas"]["ReversalAccepted"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["TooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listRejections: {
    parameters: {
      query?: {
        /** @description How many to a page: 1 to 100 (25). */
        limit?: number;
        /** @description The previous page's `next`. */
        after?: string;
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["RejectionsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listWaitingReversals: {
    parameters: {
      query?: {
        /** @description How many to a page: 1 to 100 (25). */
        limit?: number;
        /** @description The previous page's `next`. */
        after?: string;
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["WaitingReversalsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listDisputes: {
    parameters: {
      query?: {
        /** @description Only disputes in this status. */
        status?: "open" | "submitted" | "won" | "lost";
        /** @description Only the disputes of the payment with this reference. */
        payment_reference?: string;
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "dsp_0123456789abcdef0123456789abcdef",
           *           "payment_reference": "PSP-K000175",
           *           "merchant_id": "mer_kff_0001",
           *           "reason_code": "13.3",
           *           "amount": 2400,
           *           "currency": "GHS",
           *           "evidence_due_by": "2026-12-03",
           *           "status": "open",
           *           "opened_at": "2026-11-22T06:20:00.000Z",
           *           "response_submitted_at": null,
           *           "closed_at": null
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["DisputesPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  openDispute: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "payment_reference": "PSP-K000187",
         *       "reason_code": "13.1",
         *       "amount": 4000,
         *       "currency": "GHS",
         *       "evidence_due_by": "2026-12-07"
         *     }
         */
        "application/json": components["schemas"]["DisputeInput"];
      };
    };
    responses: {
      /** @description The dispute, with the id to close it with. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["DisputeView"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["TooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  getDispute: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The dispute's id (dsp_...).
         * @example dsp_0123456789abcdef0123456789abcdef
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The dispute, with its evidence files. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "dsp_0123456789abcdef0123456789abcdef",
           *       "payment_reference": "PSP-K000175",
           *       "merchant_id": "mer_kff_0001",
           *       "reason_code": "13.3",
           *       "amount": 2400,
           *       "currency": "GHS",
           *       "evidence_due_by": "2026-12-03",
           *       "status": "open",
           *       "opened_at": "2026-11-22T06:20:00.000Z",
           *       "response_submitted_at": null,
           *       "closed_at": null,
           *       "evidence": [
           *         {
           *           "id": "dev_4b0c6e2a9f1d4c7e8a3b5d0f2e1c9a7b",
           *           "dispute_id": "dsp_0123456789abcdef0123456789abcdef",
           *           "file_name": "Receipt Ɔdɔ Ɛnyo 🍲.pdf",
           *           "content_type": "application/pdf",
           *           "size": 48213,
           *           "uploaded_at": "2026-11-24T09:30:00.000Z"
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["DisputeDetailView"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listMerchants: {
    parameters: {
      query?: {
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "mer_kff_0008",
           *           "code": "MRC-0008",
           *           "name": "Ɔhemaa Chop Bar Enterprise",
           *           "trading_name": "Ɔhemaa Chop Bar",
           *           "tin": "P0046335793",
           *           "sector": "Restaurants",
           *           "town": "Dormaa Ahenkro",
           *           "region": "Bono",
           *           "address": "Block 89, Zongo, Dormaa Ahenkro (BD-722-5871)",
           *           "contact_name": "Yaa Boateng",
           *           "contact_phone": "233571286044",
           *           "contact_email": "yaa.boateng@ohemaachopbar.example.com",
           *           "status": "active",
           *           "created_at": "2024-12-04T04:45:30.000Z",
           *           "updated_at": "2024-12-04T04:45:30.000Z"
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["MerchantsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listPointsOfSale: {
    parameters: {
      query?: {
        /** @description Only those of this merchant's id (mer_...). */
        merchant?: string;
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "pos_kff_00001",
           *           "merchant": "mer_kff_0001",
           *           "name": "Adum Outlet",
           *           "town": "Kumasi",
           *           "region": "Ashanti",
           *           "address": "Stall 34, Suame, Kumasi (AK-529-7058)",
           *           "contact_phone": "233548065664",
           *           "status": "active",
           *           "created_at": "2025-07-29T08:57:09.000Z",
           *           "updated_at": "2025-07-29T08:57:09.000Z"
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["PointsOfSalePage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listTerminals: {
    parameters: {
      query?: {
        /** @description Only those of this merchant's id (mer_...). */
        merchant?: string;
        /** @description Only those of this point of sale's id (pos_...). */
        point_of_sale?: string;
        /** @description Only terminals in this status. */
        status?: "in_stock" | "assigned" | "active" | "blocked" | "faulty" | "retired";
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "trm_kff_00001",
           *           "serial": "655-001-992",
           *           "model": "Verifone V240m",
           *           "software_version": "VOS2 3.14.2",
           *           "status": "active",
           *           "merchant": "mer_kff_0001",
           *           "point_of_sale": "pos_kff_00001",
           *           "last_seen_at": "2026-11-23T10:20:00.000Z",
           *           "battery_percent": 76,
           *           "signal_percent": 58,
           *           "created_at": "2026-04-07T15:09:32.000Z",
           *           "updated_at": "2026-04-27T16:24:07.000Z"
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["TerminalsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listSettlements: {
    parameters: {
      query?: {
        /** @description Only those created at this time or later. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut). */
        created_from?: string;
        /** @description Only those created before this time. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut). */
        created_to?: string;
        /** @description Only settlements in this status. */
        status?: "pending" | "paid" | "failed";
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "stl_kff_001114",
           *           "reference": "STL-KFF-MRC-0001-20261123",
           *           "merchant": "mer_kff_0001",
           *           "settlement_account": "sac_kff_00001",
           *           "transfer": null,
           *           "period_start": "2026-11-23T00:00:00.000Z",
           *           "period_end": "2026-11-24T00:00:00.000Z",
           *           "gross": 77854,
           *           "fees": 1092,
           *           "net": 76762,
           *           "currency": "GHS",
           *           "status": "paid",
           *           "attempts": 1,
           *           "created_at": "2026-11-24T06:00:00.000Z",
           *           "paid_at": "2026-11-24T08:02:11.000Z",
           *           "rail": "switch",
           *           "rail_reference": "SW-PAYOUT-88213",
           *           "rail_status": "completed"
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["SettlementsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listRefunds: {
    parameters: {
      query?: {
        /** @description Only refunds in this status. */
        status?: "pending_approval" | "rejected" | "sending" | "succeeded" | "failed";
        /** @description Only the refunds of the payment with this reference. */
        payment_reference?: string;
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "rfd_kff_0001",
           *           "amount": 1500,
           *           "currency": "GHS",
           *           "status": "succeeded",
           *           "reason": "Customer returned one item",
           *           "requested_at": "2026-11-23T08:20:00.000Z",
           *           "decided_at": "2026-11-23T09:30:00.000Z",
           *           "completed_at": "2026-11-23T09:30:05.000Z",
           *           "failure_reason": null,
           *           "payment_reference": "PSP-K000187"
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["RefundsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  askRefund: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "payment_reference": "PSP-K000187",
         *       "amount": 2000,
         *       "currency": "GHS",
         *       "reason": "One item returned"
         *     }
         */
        "application/json": components["schemas"]["RefundRequestInput"];
      };
    };
    responses: {
      /** @description The refund, waiting for approval, with its id. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "rfd_5c1f0b7e-8d2a-4c6b-9e3f-1a2b3c4d5e6f",
           *       "amount": 2000,
           *       "currency": "GHS",
           *       "status": "pending_approval",
           *       "reason": "One item returned",
           *       "requested_at": "2026-11-23T10:20:00.000Z",
           *       "decided_at": null,
           *       "completed_at": null,
           *       "failure_reason": null,
           *       "payment_reference": "PSP-K000187"
           *     }
           */
          "application/json": components["schemas"]["RefundListItem"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["TooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  getRefund: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The refund's id (rfd_...).
         * @example rfd_kff_0001
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The refund. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "rfd_kff_0001",
           *       "amount": 1500,
           *       "currency": "GHS",
           *       "status": "succeeded",
           *       "reason": "Customer returned one item",
           *       "requested_at": "2026-11-23T08:20:00.000Z",
           *       "decided_at": "2026-11-23T09:30:00.000Z",
           *       "completed_at": "2026-11-23T09:30:05.000Z",
           *       "failure_reason": null,
           *       "payment_reference": "PSP-K000187"
           *     }
           */
          "application/json": components["schemas"]["RefundListItem"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  closeDispute: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The dispute's id (dsp_...).
         * @example dsp_fedcba9876543210fedcba9876543210
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "outcome": "won"
         *     }
         */
        "application/json": components["schemas"]["DisputeCloseInput"];
      };
    };
    responses: {
      /** @description The dispute, closed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["DisputeView"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  addDisputeEvidence: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The dispute's id (dsp_...).
         * @example dsp_0123456789abcdef0123456789abcdef
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "multipart/form-data": {
          /** @description The file, with its name. */
          file: string;
        };
      };
    };
    responses: {
      /** @description The file, attached. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "dev_4b0c6e2a9f1d4c7e8a3b5d0f2e1c9a7b",
           *       "dispute_id": "dsp_0123456789abcdef0123456789abcdef",
           *       "file_name": "Receipt Ɔdɔ Ɛnyo 🍲.pdf",
           *       "content_type": "application/pdf",
           *       "size": 48213,
           *       "uploaded_at": "2026-11-24T09:30:00.000Z"
           *     }
           */
          "application/json": components["schemas"]["EvidenceView"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["TooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  listEvents: {
    parameters: {
      query?: {
        /** @description Only events of this type. */
        type?:
          | "payment.succeeded"
          | "payment.failed"
          | "payment.reversed"
          | "settlement.paid"
          | "settlement.failed"
          | "transfer.approved"
          | "transfer.rejected"
          | "refund.succeeded"
          | "refund.failed"
          | "approval.requested"
          | "terminal.silent"
          | "dispute.opened"
          | "dispute.closed";
        /** @description Only events the portal recorded at this time or later (the feed keeps 30 days). RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut). */
        recorded_from?: string;
        /** @description Only events the portal recorded before this time. RFC 3339 with seconds and a zone of Z or ±HH:MM (up to 9 digits of fraction; past the millisecond they are cut). */
        recorded_to?: string;
        /** @description How many items to a page: 1 to 100 (25 when left out). */
        limit?: number;
        /** @description The previous page's next_cursor, as it was: the page after it. Opaque; it works only on the list that gave it. */
        cursor?: components["schemas"]["Cursor"];
      };
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of them. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "evt_dsp_0123456789abcdef0123456789abcdef_opened",
           *           "type": "dispute.opened",
           *           "created": "2026-11-22T06:20:00.000Z",
           *           "recorded_at": "2026-11-22T06:20:00.412Z",
           *           "data": {
           *             "id": "dsp_0123456789abcdef0123456789abcdef",
           *             "payment_reference": "PSP-K000175",
           *             "status": "open"
           *           }
           *         }
           *       ],
           *       "has_more": true,
           *       "next_cursor": "WyJwYXltZW50cyIsMTc5NTQzMjkwMDAwMCw0MjFd"
           *     }
           */
          "application/json": components["schemas"]["EventsPage"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  getEvent: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The event's id (evt_...).
         * @example evt_dsp_0123456789abcdef0123456789abcdef_opened
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The event. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "evt_dsp_0123456789abcdef0123456789abcdef_opened",
           *       "type": "dispute.opened",
           *       "created": "2026-11-22T06:20:00.000Z",
           *       "recorded_at": "2026-11-22T06:20:00.412Z",
           *       "data": {
           *         "id": "dsp_0123456789abcdef0123456789abcdef",
           *         "payment_reference": "PSP-K000175",
           *         "status": "open"
           *       }
           *     }
           */
          "application/json": components["schemas"]["EventView"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  resendFailedDeliveries: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The webhook endpoint's id (we_...).
         * @example we_kff_0001
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "since": "2026-11-26T06:00:00Z"
         *     }
         */
        "application/json": components["schemas"]["ResendFailedInput"];
      };
    };
    responses: {
      /** @description Queued. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "queued": 42,
           *       "has_more": false
           *     }
           */
          "application/json": components["schemas"]["ResendFailedAnswer"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  sendHeartbeat: {
    parameters: {
      query?: never;
      header?: {
        /** @description The id of the business the request is for. Required with a platform key (400 without it, 404 for an id that is no business's); a business's own key may leave it out, and may name only its own business (403 otherwise). For example bus_kumasi_fresh_foods. */
        "PP-Business"?: components["parameters"]["business"];
        /** @description Any unique string (a UUID is best). The same key with the same body gets the first answer again; with another body, 409. Kept for 24 hours. */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
        /** @description The dated API version to answer as: one of 2026-11-27, 2026-12-01. Without it, the version the key was made with (a rolled key keeps its predecessor's). Every answer names the version it was answered as in the same header; an unknown one is 400 unknown_version. */
        "PP-Version"?: components["parameters"]["version"];
      };
      path: {
        /**
         * @description The terminal's serial.
         * @example 655-001-992
         */
        serial: components["parameters"]["serial"];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "battery_percent": 76,
         *       "signal_percent": 58,
         *       "software_version": "3.14.2",
         *       "sent_at": "2026-11-23T10:20:00Z"
         *     }
         */
        "application/json": components["schemas"]["HeartbeatInput"];
      };
    };
    responses: {
      /** @description Not applied: sent_at is older than the terminal's last heartbeat. Nothing was queued. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "accepted": 0,
           *       "applied": false,
           *       "reason": "stale",
           *       "message": "sent_at is older than this terminal's last heartbeat (2026-11-23T10:25:00.000Z): it was not applied.",
           *       "last_seen_at": "2026-11-23T10:25:00.000Z"
           *     }
           */
          "application/json": components["schemas"]["HeartbeatNotApplied"];
        };
      };
      /** @description The heartbeat queued: the portal applies it within seconds. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "accepted": 1
           *     }
           */
          "application/json": components["schemas"]["Accepted"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      403: components["responses"]["Forbidden"];
      404: components["responses"]["NotFound"];
      409: components["responses"]["Conflict"];
      413: components["responses"]["TooLarge"];
      415: components["responses"]["UnsupportedMediaType"];
      429: components["responses"]["TooManyRequests"];
    };
  };
  webhook_payment_succeeded: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "payment.succeeded",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "reference": "KFF-261126-0000496",
         *         "merchant": {
         *           "id": "mer_kff_0001",
         *           "code": "MRC-0001"
         *         },
         *         "point_of_sale": "pos_kff_00001",
         *         "terminal_serial": null,
         *         "channel": "mobile_money",
         *         "network": "MTN",
         *         "payer": {
         *           "msisdn": "233548672565"
         *         },
         *         "amount": 43800,
         *         "currency": "GHS",
         *         "fee": 329,
         *         "net": 43471,
         *         "status": "successful",
         *         "failure_reason": null,
         *         "occurred_at": "2026-11-26T08:39:30.000Z",
         *         "cleared": false,
         *         "cleared_at": null,
         *         "reversal": null,
         *         "settlement": null
         *       }
         *     }
         */
        "application/json": components["schemas"]["PaymentSucceededEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_payment_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "payment.failed",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "reference": "KFF-261126-0000496",
         *         "merchant": {
         *           "id": "mer_kff_0001",
         *           "code": "MRC-0001"
         *         },
         *         "point_of_sale": "pos_kff_00001",
         *         "terminal_serial": null,
         *         "channel": "mobile_money",
         *         "network": "MTN",
         *         "payer": {
         *           "msisdn": "233548672565"
         *         },
         *         "amount": 43800,
         *         "currency": "GHS",
         *         "fee": 0,
         *         "net": 0,
         *         "status": "failed",
         *         "failure_reason": "Insufficient funds in the wallet",
         *         "occurred_at": "2026-11-26T08:39:30.000Z",
         *         "cleared": false,
         *         "cleared_at": null,
         *         "reversal": null,
         *         "settlement": null
         *       }
         *     }
         */
        "application/json": components["schemas"]["PaymentFailedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_payment_reversed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "payment.reversed",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "reference": "KFF-261126-0000496",
         *         "merchant": {
         *           "id": "mer_kff_0001",
         *           "code": "MRC-0001"
         *         },
         *         "point_of_sale": "pos_kff_00001",
         *         "terminal_serial": null,
         *         "channel": "mobile_money",
         *         "network": "MTN",
         *         "payer": {
         *           "msisdn": "233548672565"
         *         },
         *         "amount": 43800,
         *         "currency": "GHS",
         *         "fee": 329,
         *         "net": 43471,
         *         "status": "reversed",
         *         "failure_reason": null,
         *         "occurred_at": "2026-11-26T08:39:30.000Z",
         *         "cleared": false,
         *         "cleared_at": null,
         *         "reversal": {
         *           "reason": "Wallet debit not completed",
         *           "reversed_at": "2026-11-26T09:05:00.000Z"
         *         },
         *         "settlement": null
         *       }
         *     }
         */
        "application/json": components["schemas"]["PaymentReversedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_settlement_paid: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "settlement.paid",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "stl_kff_000070",
         *         "reference": "STL-KFF-MRC-0001-20261125",
         *         "merchant": "mer_kff_0001",
         *         "settlement_account": "sac_kff_00001",
         *         "transfer": null,
         *         "period_start": "2026-11-25T00:00:00.000Z",
         *         "period_end": "2026-11-26T00:00:00.000Z",
         *         "gross": 48592,
         *         "fees": 414,
         *         "net": 48178,
         *         "currency": "GHS",
         *         "status": "paid",
         *         "attempts": 1,
         *         "created_at": "2026-11-26T06:00:00.000Z",
         *         "paid_at": "2026-11-26T06:04:12.000Z",
         *         "rail": "switch",
         *         "rail_reference": "SW-PAYOUT-88213",
         *         "rail_status": "completed"
         *       }
         *     }
         */
        "application/json": components["schemas"]["SettlementPaidEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_settlement_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "settlement.failed",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "stl_kff_000070",
         *         "reference": "STL-KFF-MRC-0001-20261125",
         *         "merchant": "mer_kff_0001",
         *         "settlement_account": "sac_kff_00001",
         *         "transfer": null,
         *         "period_start": "2026-11-25T00:00:00.000Z",
         *         "period_end": "2026-11-26T00:00:00.000Z",
         *         "gross": 48592,
         *         "fees": 414,
         *         "net": 48178,
         *         "currency": "GHS",
         *         "status": "failed",
         *         "attempts": 1,
         *         "created_at": "2026-11-26T06:00:00.000Z",
         *         "paid_at": null,
         *         "rail": "switch",
         *         "rail_reference": "SW-PAYOUT-88213",
         *         "rail_status": "failed"
         *       }
         *     }
         */
        "application/json": components["schemas"]["SettlementFailedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_transfer_approved: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "transfer.approved",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "trf_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
         *         "from_merchant": "mer_kff_0001",
         *         "to_merchant": null,
         *         "to_settlement_account": "sac_kff_00001",
         *         "settlement": "stl_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
         *         "amount": 50000,
         *         "currency": "GHS",
         *         "narration": "Float for the Ɛjisu branch",
         *         "status": "completed",
         *         "reason": null,
         *         "requested_by": "usr_esi_owusu",
         *         "requested_at": "2026-11-26T10:40:00.000Z",
         *         "decided_by": "usr_kofi_boateng",
         *         "decided_at": "2026-11-26T11:02:00.000Z"
         *       }
         *     }
         */
        "application/json": components["schemas"]["TransferApprovedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_transfer_rejected: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "transfer.rejected",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "trf_5c0e1f6a-7b8c-4d9e-a0f1-b2c3d4e5f6a7",
         *         "from_merchant": "mer_kff_0001",
         *         "to_merchant": null,
         *         "to_settlement_account": "sac_kff_00001",
         *         "settlement": null,
         *         "amount": 50000,
         *         "currency": "GHS",
         *         "narration": "Float for the Ɛjisu branch",
         *         "status": "rejected",
         *         "reason": "Not agreed with the merchant",
         *         "requested_by": "usr_esi_owusu",
         *         "requested_at": "2026-11-26T10:40:00.000Z",
         *         "decided_by": "usr_kofi_boateng",
         *         "decided_at": "2026-11-26T11:02:00.000Z"
         *       }
         *     }
         */
        "application/json": components["schemas"]["TransferRejectedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_refund_succeeded: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "refund.succeeded",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
         *         "amount": 4000,
         *         "currency": "GHS",
         *         "status": "succeeded",
         *         "reason": "One crate of tomatoes returned",
         *         "requested_at": "2026-11-26T11:58:00.000Z",
         *         "decided_at": "2026-11-26T12:00:00.000Z",
         *         "completed_at": "2026-11-26T12:00:05.000Z",
         *         "failure_reason": null,
         *         "payment_reference": "KFF-261126-0000496"
         *       }
         *     }
         */
        "application/json": components["schemas"]["RefundSucceededEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_refund_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "refund.failed",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
         *         "amount": 4000,
         *         "currency": "GHS",
         *         "status": "failed",
         *         "reason": "One crate of tomatoes returned",
         *         "requested_at": "2026-11-26T11:58:00.000Z",
         *         "decided_at": "2026-11-26T12:00:00.000Z",
         *         "completed_at": "2026-11-26T12:00:05.000Z",
         *         "failure_reason": "Switch: wallet closed",
         *         "payment_reference": "KFF-261126-0000496"
         *       }
         *     }
         */
        "application/json": components["schemas"]["RefundFailedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_approval_requested: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "approval.requested",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "req_1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
         *         "kind": "refund",
         *         "action": "create",
         *         "target": "rfd_3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d",
         *         "maker": "usr_esi_owusu",
         *         "made_at": "2026-11-26T11:58:00.000Z"
         *       }
         *     }
         */
        "application/json": components["schemas"]["ApprovalRequestedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_terminal_silent: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "terminal.silent",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "trm_kff_00001",
         *         "serial": "655-001-992",
         *         "model": "Verifone V240m",
         *         "software_version": "VOS2 3.14.2",
         *         "status": "active",
         *         "merchant": "mer_kff_0001",
         *         "point_of_sale": "pos_kff_00001",
         *         "last_seen_at": "2026-11-25T08:00:00.000Z",
         *         "battery_percent": 64,
         *         "signal_percent": 71,
         *         "created_at": "2026-06-06T15:09:32.000Z",
         *         "updated_at": "2026-06-26T16:24:07.000Z"
         *       }
         *     }
         */
        "application/json": components["schemas"]["TerminalSilentEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_dispute_opened: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "dispute.opened",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "dsp_0c1d2e3f4a5b6c7d8e9f0a1b",
         *         "payment_reference": "KFF-261126-0000496",
         *         "merchant_id": "mer_kff_0001",
         *         "reason_code": "13.1",
         *         "amount": 43800,
         *         "currency": "GHS",
         *         "evidence_due_by": "2026-12-10",
         *         "status": "open",
         *         "opened_at": "2026-11-26T09:12:40.000Z",
         *         "response_submitted_at": null,
         *         "closed_at": null
         *       }
         *     }
         */
        "application/json": components["schemas"]["DisputeOpenedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhook_dispute_closed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id (evt_...): the same on every retry. Standard Webhooks. */
        "webhook-id": string;
        /** @description When this attempt was signed, in Unix seconds. Standard Webhooks. */
        "webhook-timestamp": string;
        /** @description Space-separated "v1,<base64 HMAC-SHA256>" of webhook-id.webhook-timestamp.body, one per secret while a secret is rolled. Standard Webhooks. */
        "webhook-signature": string;
        /** @description t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>: the portal's own signature of the same body. */
        "PP-Signature": string;
        /** @description The event's id, again. */
        "PP-Event-Id": string;
        /** @description The event's type, again. */
        "PP-Event-Type": string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_3f1c9a0d2b7e4c58a6d1e0f9b2c4a7e1",
         *       "type": "dispute.closed",
         *       "created": "2026-11-26T09:12:40.000Z",
         *       "data": {
         *         "id": "dsp_0c1d2e3f4a5b6c7d8e9f0a1b",
         *         "payment_reference": "KFF-261126-0000496",
         *         "merchant_id": "mer_kff_0001",
         *         "reason_code": "13.1",
         *         "amount": 43800,
         *         "currency": "GHS",
         *         "evidence_due_by": "2026-12-10",
         *         "status": "won",
         *         "opened_at": "2026-11-26T09:12:40.000Z",
         *         "response_submitted_at": null,
         *         "closed_at": "2026-12-03T15:00:00.000Z"
         *       }
         *     }
         */
        "application/json": components["schemas"]["DisputeClosedEvent"];
      };
    };
    responses: {
      /** @description Any 2xx within 10 seconds: received. Anything else, a redirect or no answer is retried with backoff for 24 hours; an endpoint that fails for 24 hours is disabled. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}

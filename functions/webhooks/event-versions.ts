// An event's data in each dated version (decision 044; docs/api-changelog.md). Pure: the one place where one
// version's shape of an event becomes another's. An event is stored once (webhook_events: payload in the shape of
// payload_version, and payload_extra), and rendered here for each reader: a webhook delivery in its endpoint's version
// (functions/webhooks/delivery.ts), the events feed in the request's version (./lists.ts). The schemas of each
// version's shapes are in ./event-schemas.ts; the emitters write the STORED_EVENT_VERSION shape (the object as GET
// answers it: ./views.ts) and, beside it, the few facts the 2026-11-27 shapes say that it does not hold.
import type { WebhookEventType } from "./types";
import { isWebhookEventType } from "./types";
import type { ApprovalRequestView, EventData20261127, TransferView } from "../partner-api/event-schemas";
import type { RefundListItem, SettlementView, TerminalView } from "../partner-api/list-schemas";
import type { DisputeView } from "../partner-api/schemas";
import { CURRENT_API_VERSION, isApiVersion, type ApiVersion } from "../partner-api/versions";
import type * as v from "valibot";

/** The version of the shapes the portal's emitters write: payload_version of every event written since migration 0037. */
export const STORED_EVENT_VERSION: ApiVersion = "2026-12-01";

/** What the 2026-11-27 shapes say that the 2026-12-01 data does not hold, written beside it (payload_extra). */
export interface EventExtra {
  /** settlement.*: the payout attempt the event is about (1 first). */
  attempt?: number;
  /** settlement.failed: why the attempt failed, as the rail said. */
  error?: string;
  /** settlement.failed: whether the portal will try again. */
  will_retry?: boolean;
  /** refund.failed: how many attempts were made. */
  attempts?: number;
  /** terminal.silent: how long without a sign counts as silent. */
  silent_after_hours?: number;
}

/** An event as stored: its type, the JSON text of its data in payload_version's shape, and its extra facts. */
export interface StoredEventData {
  type: string;
  payload: string;
  payloadVersion: string;
  payloadExtra: string | null;
}

type Settlement = v.InferOutput<typeof SettlementView>;
type Refund = v.InferOutput<typeof RefundListItem>;
type Terminal = v.InferOutput<typeof TerminalView>;

/** 2026-12-01 data to 2026-11-27 data, per event type whose shape changed (payment.* did not). */
const TO_2026_11_27: { [T in keyof EventData20261127]: (data: never, extra: EventExtra) => EventData20261127[T] } = {
  "settlement.paid": (s: Settlement, extra) => ({
    settlement: { id: s.id, reference: s.reference, net: s.net, currency: s.currency, attempt: extra.attempt ?? s.attempts, paidAt: s.paid_at ?? "" },
  }),
  "settlement.failed": (s: Settlement, extra) => ({
    settlement: {
      id: s.id,
      reference: s.reference,
      net: s.net,
      currency: s.currency,
      attempt: extra.attempt ?? s.attempts,
      error: extra.error ?? "",
      willRetry: extra.will_retry ?? false,
    },
  }),
  "transfer.approved": (t: TransferView) => legacyTransfer(t),
  "transfer.rejected": (t: TransferView) => legacyTransfer(t),
  "refund.succeeded": (r: Refund) => ({
    refund: { id: r.id, paymentReference: r.payment_reference, amount: r.amount, currency: r.currency, status: "succeeded", completedAt: r.completed_at ?? "" },
  }),
  "refund.failed": (r: Refund, extra) => ({
    refund: {
      id: r.id,
      paymentReference: r.payment_reference,
      amount: r.amount,
      currency: r.currency,
      status: "failed",
      completedAt: r.completed_at ?? "",
      error: r.failure_reason ?? "",
      attempts: extra.attempts ?? 0,
    },
  }),
  "approval.requested": (a: ApprovalRequestView) => ({
    approvalRequest: { id: a.id, kind: a.kind, action: a.action, targetId: a.target, makerId: a.maker, madeAt: a.made_at },
  }),
  "terminal.silent": (t: Terminal, extra) => ({
    terminal: { id: t.id, serial: t.serial, merchantId: t.merchant, pointOfSaleId: t.point_of_sale },
    lastSeenAt: t.last_seen_at,
    silentAfterHours: extra.silent_after_hours ?? 24,
  }),
  "dispute.opened": (d: DisputeView) => ({ dispute: d }),
  "dispute.closed": (d: DisputeView) => ({ dispute: d }),
};

function legacyTransfer(t: TransferView): EventData20261127["transfer.approved"] {
  return {
    transfer: {
      id: t.id,
      fromMerchantId: t.from_merchant,
      toMerchantId: t.to_merchant,
      toSettlementAccountId: t.to_settlement_account,
      amount: t.amount,
      currency: t.currency,
      status: t.status,
      requestedBy: t.requested_by,
      decidedBy: t.decided_by,
      decidedAt: t.decided_at,
      // 2026-11-27 names a reason only for a rejection.
      ...(t.reason === null ? {} : { reason: t.reason }),
    },
  };
}

/** The event types whose data is the same in every version. */
const SAME_IN_EVERY_VERSION: ReadonlySet<string> = new Set<WebhookEventType>(["payment.succeeded", "payment.failed", "payment.reversed"]);

/** An event's 2026-12-01 data in the 2026-11-27 shape (for its type; data of any other type is as it is). */
export function to20261127(type: string, data: unknown, extra: EventExtra = {}): unknown {
  if (!isWebhookEventType(type) || SAME_IN_EVERY_VERSION.has(type)) return data;
  const render = TO_2026_11_27[type as keyof EventData20261127] as (data: unknown, extra: EventExtra) => unknown;
  return render(typeof data === "object" && data !== null ? data : {}, extra);
}

/**
 * The JSON text of an event's data in `version` (a version this portal does not know reads as the current one, as a
 * key's does). The stored text itself when the shapes agree, so what is signed and sent is byte for byte what was
 * written; otherwise its rendering. The other way round, an event written in the 2026-11-27 shape (before migration
 * 0037) is answered in it to every version, but dispute.*, unwrapped: the older shapes of the other changed types lack
 * most of what GET answers (docs/api-changelog.md says so).
 */
export function renderEventData(event: StoredEventData, version: string): string {
  const wanted: ApiVersion = isApiVersion(version) ? version : CURRENT_API_VERSION;
  const stored: ApiVersion = isApiVersion(event.payloadVersion) ? event.payloadVersion : STORED_EVENT_VERSION;
  if (wanted === stored || !isWebhookEventType(event.type) || SAME_IN_EVERY_VERSION.has(event.type)) return event.payload;
  if (stored === "2026-12-01") {
    const extra = event.payloadExtra === null ? {} : (JSON.parse(event.payloadExtra) as EventExtra);
    return JSON.stringify(to20261127(event.type, JSON.parse(event.payload), extra));
  }
  if (event.type === "dispute.opened" || event.type === "dispute.closed") {
    const data: unknown = JSON.parse(event.payload);
    if (typeof data === "object" && data !== null && "dispute" in data) return JSON.stringify(data.dispute);
  }
  return event.payload;
}

// What the Partner API accepted (202) and then could not do as sent, listed for the key's business:
//   GET /api/v1/rejections          messages the consumer could not apply, parked (decision 028)
//   GET /api/v1/reversals/waiting   reversals waiting for a payment the portal does not hold, and expired ones
// and the 202 a reversal gets, saying whether its payment is known yet. Docs: docs/partner-api.md.
import * as v from "valibot";
import { jsonResponse } from "../platform/http";
import { listParkedMessages, type ParkedMessage } from "../payments/ingest-parked.db";
import { listWaitingReversals, REVERSAL_WAIT_MS, type WaitingReversal } from "../payments/waiting-reversals.db";
import type { BusinessDb } from "../tenancy/tenant";
import { DAY_MS } from "../platform/time";
import { Limit } from "./list-schemas";
import { readQuery } from "./lists";

const iso = (ms: number) => new Date(ms).toISOString();
// What the portal writes (toISOString), not the wider set a request may send: the document must say the same.
const IsoTime = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), v.description("UTC, as 2026-11-25T11:15:13.000Z."));

export const REVERSAL_WAIT_DAYS = REVERSAL_WAIT_MS / DAY_MS;

/** Said in the 202 of a reversal whose payment the portal does not hold yet. */
export const PAYMENT_NOT_KNOWN_MESSAGE =
  `The portal does not hold a payment with this reference yet. The reversal waits for it for ${REVERSAL_WAIT_DAYS} days ` +
  "(GET /api/v1/reversals/waiting lists it); if the payment has not arrived by then, the reversal expires and is never applied.";

export const ReversalAccepted = v.pipe(
  v.object({
    accepted: v.pipe(v.number(), v.integer()),
    payment_known: v.pipe(v.boolean(), v.description("Whether the portal held the payment when the reversal arrived.")),
    message: v.optional(v.pipe(v.string(), v.description("When the payment is not known yet: how long the reversal waits for it."))),
  }),
  v.description("Queued: the portal will apply the reversal within seconds, or keep it waiting for its payment."),
);

/** The 202 of a reversal: whether its payment is known, and if not, that the reversal waits and expires. */
export function reversalAnswer(paymentKnown: boolean): v.InferOutput<typeof ReversalAccepted> {
  return paymentKnown ? { accepted: 1, payment_known: true } : { accepted: 1, payment_known: false, message: PAYMENT_NOT_KNOWN_MESSAGE };
}

export const RejectionView = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("The parked message's id (prk_...): quote it to the portal's operators.")),
    references: v.pipe(v.array(v.string()), v.description("The payment and reversal references the request carried.")),
    problem: v.pipe(v.string(), v.description("What happened, in plain words.")),
    error: v.pipe(v.string(), v.description("The error the portal met, as it was.")),
    attempts: v.pipe(v.number(), v.integer()),
    received_at: v.nullable(IsoTime),
    parked_at: IsoTime,
  }),
  v.description(
    "A request the API accepted (202) and then could not apply: nothing of it was applied. The portal's operators are alerted and can apply it again once the cause is fixed; " +
      "the other payments were applied as usual.",
  ),
);

export const RejectionsPage = v.object({
  data: v.array(RejectionView),
  next: v.pipe(v.nullable(v.string()), v.description("Send as ?after= for the next page; null on the last page.")),
});

export const WaitingReversalView = v.pipe(
  v.object({
    reference: v.string(),
    reason: v.string(),
    reversed_at: IsoTime,
    received_at: IsoTime,
    expires_at: v.pipe(IsoTime, v.description(`received_at plus ${REVERSAL_WAIT_DAYS} days.`)),
    status: v.pipe(
      v.picklist(["waiting", "expired"]),
      v.description("waiting: applied as soon as the payment arrives; expired: never applied (a later payment with this reference is another payment)."),
    ),
  }),
  v.description(`A reversal for a reference the portal did not hold: it waits ${REVERSAL_WAIT_DAYS} days for its payment, then expires.`),
);

export const WaitingReversalsPage = v.object({
  data: v.array(WaitingReversalView),
  next: v.pipe(v.nullable(v.string()), v.description("Send as ?after= for the next page; null on the last page.")),
});

/** A parked message in words for the business. */
export function problemInWords(row: Pick<ParkedMessage, "source" | "error">): string {
  if (row.source === "dead_letter") return "The portal accepted this request but could not apply it after many attempts. Nothing of it was applied.";
  if (row.error.startsWith("Still failing after")) return "The portal accepted this request but its database kept failing. Nothing of it was applied.";
  return "The portal accepted this request but could not apply it. Nothing of it was applied; the rest of what you sent was.";
}

/** The query of both lists: ?limit= and ?after= (the previous page's next), strictly (./lists.ts readQuery). */
const PageQuery = v.strictObject(
  {
    limit: v.optional(Limit),
    after: v.optional(v.pipe(v.string(), v.maxLength(500, "is not a cursor this API gave"))),
  },
  (issue) => (issue.expected === "never" ? "is not a documented parameter" : "must be a query string"),
);

function pageParams(request: Request): { limit?: number; after?: string } | Response {
  const read = readQuery(request, PageQuery);
  if (read instanceof Response) return read;
  return { limit: read.limit, after: read.query.after };
}

export async function rejectionsRequest(request: Request, tenant: BusinessDb): Promise<Response> {
  const query = pageParams(request);
  if (query instanceof Response) return query;
  const page = await listParkedMessages(tenant, query);
  const data = page.rows.map((row) => ({
    id: row.id,
    references: row.references,
    problem: problemInWords(row),
    error: row.error,
    attempts: row.attempts,
    received_at: row.receivedAt === null ? null : iso(row.receivedAt),
    parked_at: iso(row.parkedAt),
  }));
  return jsonResponse({ data, next: page.next });
}

export async function waitingReversalsRequest(request: Request, tenant: BusinessDb, now: number): Promise<Response> {
  const query = pageParams(request);
  if (query instanceof Response) return query;
  const page = await listWaitingReversals(tenant, now, query);
  const data = page.rows.map((row: WaitingReversal) => ({
    reference: row.reference,
    reason: row.reason,
    reversed_at: iso(row.reversedAt),
    received_at: iso(row.receivedAt),
    expires_at: iso(row.expiresAt),
    status: row.status,
  }));
  return jsonResponse({ data, next: page.next });
}

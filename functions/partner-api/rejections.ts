// What the Partner API accepted (202) and then could not do as sent, listed for the key's business:
//   GET /api/v1/rejections          every refusal after a 202, each with its code: messages the consumer could not apply,
//                                   parked (decision 028, not_applied), and payments and reversals refused for what the
//                                   portal holds under their reference (payment_conflicts: reference_conflict,
//                                   reversal_conflict), merged newest first
//   GET /api/v1/reversals/waiting   reversals waiting for a payment the portal does not hold, and expired ones
// and the 202 a reversal gets, saying whether its payment is known yet. Docs: docs/partner-api.md.
import * as v from "valibot";
import { jsonResponse } from "../plumbing/http";
import { listParkedMessages, type ParkedMessage } from "../payments/ingest-parked.db";
import { listPaymentConflicts, type PaymentConflict } from "../payments/payment-conflicts.db";
import { decodeCursor, encodeCursor, pageSize } from "../lists/page";
import type { ProblemCode } from "./problems";
import { listWaitingReversals, REVERSAL_WAIT_MS, type WaitingReversal } from "../payments/waiting-reversals.db";
import type { BusinessDb } from "../tenancy/tenant";
import { DAY_MS } from "../plumbing/time";
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

/** The codes a rejection carries: problems of the one catalogue (./problems.ts), explained on the API reference page. */
export const REJECTION_CODES = ["not_applied", "reference_conflict", "reversal_conflict"] as const satisfies readonly ProblemCode[];

export const RejectionView = v.pipe(
  v.object({
    id: v.pipe(
      v.string(),
      v.description(
        "prk_... for a request the portal could not apply (quote it to the portal's operators); cfl_... for a payment or reversal refused for its reference.",
      ),
    ),
    references: v.pipe(v.array(v.string()), v.description("The payment and reversal references the request carried.")),
    code: v.pipe(
      v.picklist(REJECTION_CODES),
      v.description(
        "Why it was not applied, a problem code of the API reference: not_applied (a fault on the portal's side), reference_conflict (the reference holds another payment), reversal_conflict (the reversal does not fit its payment).",
      ),
    ),
    problem: v.pipe(v.string(), v.description("What happened, in plain words.")),
    error: v.pipe(v.string(), v.description("The error the portal met, as it was.")),
    attempts: v.pipe(v.number(), v.integer()),
    received_at: v.nullable(IsoTime),
    parked_at: IsoTime,
  }),
  v.description(
    "Something the API accepted (202) and then did not apply. not_applied: nothing of the request was applied; the portal's operators are alerted and can apply it again once the cause is fixed, " +
      "and the other payments were applied as usual. reference_conflict and reversal_conflict: that payment or reversal was refused, the payment held is unchanged.",
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

type Rejection = v.InferOutput<typeof RejectionView>;

/** Same instant: parked messages first, then conflicts; within each, newest id first. */
const PARKED = 0;
const CONFLICT = 1;
/** Above every conflict's id: a cursor at a parked message keeps the conflicts of the same instant. */
const AFTER_EVERY_CONFLICT = Number.MAX_SAFE_INTEGER;

function parkedRejection(row: ParkedMessage): Rejection {
  return {
    id: row.id,
    references: row.references,
    code: "not_applied",
    problem: problemInWords(row),
    error: row.error,
    attempts: row.attempts,
    received_at: row.receivedAt === null ? null : iso(row.receivedAt),
    parked_at: iso(row.parkedAt),
  };
}

function conflictRejection(row: PaymentConflict): Rejection {
  return {
    id: `cfl_${row.id}`,
    references: [row.reference],
    code: row.kind === "payment" ? "reference_conflict" : "reversal_conflict",
    problem: row.problem,
    error: row.problem,
    attempts: 1,
    received_at: iso(row.receivedAt),
    parked_at: iso(row.receivedAt),
  };
}

/**
 * Both sources newest first, keyset paged by one cursor (instant, source, id): each source is read from the cursor on
 * with its own keyset (a page of each at most), the two are merged, and the page ends at the last row taken, so paging
 * across both has neither duplicates nor gaps.
 */
export async function rejectionsRequest(request: Request, tenant: BusinessDb): Promise<Response> {
  const query = pageParams(request);
  if (query instanceof Response) return query;
  const size = pageSize(query.limit);
  const after = decodeCursor(query.after, 3) as [number, number, string | number] | null;
  const at = after && typeof after[0] === "number" ? after[0] : null;
  const source = after?.[1];
  const parkedAfter = at === null ? undefined : encodeCursor(source === PARKED ? [at, String(after![2])] : [at, ""]);
  const conflictsAfter = at === null ? undefined : encodeCursor(source === CONFLICT ? [at, Number(after![2])] : [at, AFTER_EVERY_CONFLICT]);
  const [parked, conflicts] = await Promise.all([
    listParkedMessages(tenant, { limit: size, after: parkedAfter }),
    listPaymentConflicts(tenant, { limit: size, after: conflictsAfter }),
  ]);
  const rows = [
    ...parked.rows.map((row) => ({ key: [row.parkedAt, PARKED, row.id] as const, view: parkedRejection(row) })),
    ...conflicts.rows.map((row) => ({ key: [row.receivedAt, CONFLICT, row.id] as const, view: conflictRejection(row) })),
  ].sort((a, b) => b.key[0] - a.key[0] || a.key[1] - b.key[1] || (b.key[2] > a.key[2] ? 1 : b.key[2] < a.key[2] ? -1 : 0));
  const page = rows.slice(0, size);
  const more = rows.length > size || parked.next !== null || conflicts.next !== null;
  const last = page.at(-1);
  return jsonResponse({ data: page.map((row) => row.view), next: more && last ? encodeCursor([...last.key]) : null });
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

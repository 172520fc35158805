// POST /api/v1/refunds and GET /api/v1/refunds/{id}, so a processor's system can ask for a refund where the customer
// is, while a person of the business still decides it. Asking for a refund through the API makes
// exactly the request the portal's refund screen makes (./refund-requests.db.ts requestRefund: a refund waiting for
// approval and its approval request, one maker-checker), with the screen's rules and words; an administrator decides
// it at /approvals/refund/{id}, and no money moves before. It is asked in the name of the person who made the key:
// approval_requests.maker_id and refunds.requested_by name a person of the business, and the four-eyes rule then keeps
// the key's maker from approving what their key asked. A platform key has no such person and may not ask
// (its row in functions/partner-api/operations.ts says "business-key"). Like disputes, not queued: the answer carries the
// refund's id, and an Idempotency-Key's answer is kept in the refund's own batch.
import * as v from "valibot";
import { jsonResponse } from "../plumbing/http";
import { can } from "../permissions";
import type { Tenant } from "../tenancy/tenant";
import { keepAnswerStatement } from "../partner-api/api-idempotency.db";
import { activeKeyMakerOf } from "../partner-api/api-keys.db";
import { badRequest, issuesOf, jsonBody, problem, type ApiDeps } from "../partner-api/request";
import { problemOfError } from "../partner-api/problems";
import type { Credential } from "../partner-api/credential";
import { apiMetaOf, idempotencyOf, keptAnswer } from "../partner-api/kept-answers";
import { RefundRequestInput } from "../partner-api/schemas";
import { refundListItem } from "../webhooks/views";
import { disputablePayment } from "../disputes/processor-disputes.db";
import { requestRefund, type MadeRefund } from "./refund-requests.db";
import { getListedRefund, type ListedRefund } from "./refunds.db";
import { json, LISTED, POST_PARAMETERS } from "../partner-api/openapi-parts";
import { WRITE_ERRORS, type Operation } from "../partner-api/operation";

const MAKER_NOT_ALLOWED =
  "A refund asked through the API is asked in the name of the person who made this key, and that person is no longer an active member " +
  "whose role may ask for refunds (or the key records no one). Make a new key on Settings → Developers as such a person.";

/** The refund a request just made, as GET /api/v1/refunds/{id} answers it then. */
function madeView(made: MadeRefund): ReturnType<typeof refundListItem> {
  const refund: ListedRefund = {
    id: made.id,
    transactionId: 0,
    merchantId: "",
    amount: made.amount,
    reason: made.reason,
    status: "pending_approval",
    requestedBy: "",
    approvedBy: null,
    createdAt: made.at,
    decidedAt: null,
    attempts: 0,
    completedAt: null,
    failureReason: null,
    rail: null,
    railReference: null,
    railStatus: null,
    railWaitingSince: null,
    paymentReference: made.paymentReference,
  };
  return refundListItem(refund);
}

export async function askRefundRequest(request: Request, deps: ApiDeps, { business, keyId, idempotencyKey }: Credential): Promise<Response> {
  const body = await jsonBody(request);
  if (body instanceof Response) return body;
  const parsed = v.safeParse(RefundRequestInput, body.json);
  if (!parsed.success) return badRequest(issuesOf(parsed.issues));
  const input = parsed.output;
  const idempotency = await idempotencyOf(request, business, idempotencyKey, body.text);
  if (idempotency instanceof Response) return idempotency;
  const { key, requestHash } = idempotency;

  const maker = await activeKeyMakerOf(business, keyId);
  // Before the payment is looked at: the key may not ask at all, whatever it names.
  if (!maker || !can(maker.role, "request:refund")) return problem("key_maker_not_allowed", MAKER_NOT_ALLOWED);
  const tenant: Tenant = { ...business, userId: maker.userId, role: maker.role };
  const payment = await disputablePayment(business, input.payment_reference);
  if (!payment) return badRequest([{ path: "payment_reference", message: "is not the reference of a payment of this business" }]);

  const now = deps.now();
  // The screen's form key, for the API: the request's own hash beside the key, so a key sent again after its day with
  // another body asks anew (as the kept answer's day says), and with the same body finds the same refund.
  const refundKey = key === null ? `api ${crypto.randomUUID()}` : `api ${requestHash} ${key}`;
  const made: { refund?: MadeRefund } = {};
  let result: { id: string; duplicate: boolean };
  try {
    result = await requestRefund(
      tenant,
      apiMetaOf(request, deps),
      { transactionId: payment.id, amount: input.amount, reason: input.reason, idempotencyKey: refundKey },
      (m) => {
        made.refund = m;
        return key === null ? [] : [keepAnswerStatement(business, { key, requestHash, status: 201, body: JSON.stringify(madeView(m)) }, now)];
      },
    );
  } catch (error) {
    // The same key raced this request (its batch failed on the key, or then found less left to refund): the kept answer
    // is the one, or a 409 for another body.
    if (key !== null) {
      const replay = await keptAnswer(business, key, requestHash);
      if (replay) return replay;
    }
    // A rule broken is the screen's words: about the amount or reason when the error names it (RefundFieldError), else
    // about the payment (not successful, or reversed).
    const refused = problemOfError(error, {
      rule: { path: "payment_reference" },
      forbidden: { code: "key_maker_not_allowed", detail: MAKER_NOT_ALLOWED },
      notFound: { path: "payment_reference", message: "is not the reference of a payment of this business" },
    });
    if (refused) return refused;
    throw error;
  }
  if (result.duplicate || !made.refund) {
    if (key !== null) {
      const replay = await keptAnswer(business, key, requestHash);
      if (replay) return replay;
    }
    // Asked before with this key and body, its kept answer gone after a day: the refund as it is now.
    const refund = await getListedRefund(business, result.id);
    return jsonResponse(refundListItem(refund!), 200, { "Idempotent-Replayed": "true" });
  }
  if (deps.dispatchWebhooks) deps.waitUntil(deps.dispatchWebhooks(business).catch(() => {}));
  return jsonResponse(madeView(made.refund), 201, { Location: `/api/v1/refunds/${result.id}` });
}

// Its rows of the operations table (functions/partner-api/operations.ts), which lists them in the document's order.
export const askRefundOperation = {
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
} as const satisfies Operation;

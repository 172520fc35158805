// POST /api/v1/disputes, POST /api/v1/disputes/{id}/close and POST /api/v1/disputes/{id}/evidence (decision 023). Unlike payments these are
// not queued: the processor needs the dispute's id to close it, and the hold must be checked against the payment
// now, so each is one D1 batch answered at once (functions/disputes/disputes.db.ts).
import * as v from "valibot";
import { jsonResponse } from "../plumbing/http";
import { closeDispute, disputablePayment, disputeData, getDisputeFacts, openDispute, type DisputeFacts } from "./processor-disputes.db";
import { MOVING_MESSAGE, type BusinessDb, type Tenant } from "../tenancy/tenant";
import { evidenceData, TOO_LARGE, uploadEvidence } from "./evidence-upload";
import { badRequest, issuesOf, jsonBody, problem, type ApiDeps } from "../partner-api/request";
import { movingProblem, problemOfError } from "../partner-api/problems";
import type { Credential } from "../partner-api/credential";
import { apiMetaOf, idempotencyOf, keptAnswer } from "../partner-api/kept-answers";
import { keepAnswerStatement } from "../partner-api/api-idempotency.db";
import { DisputeCloseInput, DisputeId, DisputeInput, MAX_EVIDENCE_DAYS, type Problem } from "../partner-api/schemas";
import { DAY_MS } from "../plumbing/time";
import { BUSINESS, EVIDENCE_EXAMPLE, EXAMPLE_IDS, json, POST_PARAMETERS } from "../partner-api/openapi-parts";
import { idParameter, WRITE_ERRORS, type Operation } from "../partner-api/operation";

function afterWrite(deps: ApiDeps, business: BusinessDb): void {
  if (deps.dispatchWebhooks) deps.waitUntil(deps.dispatchWebhooks(business).catch(() => {}));
}

export async function openDisputeRequest(request: Request, deps: ApiDeps, { business, idempotencyKey }: Credential): Promise<Response> {
  const body = await jsonBody(request);
  if (body instanceof Response) return body;
  const parsed = v.safeParse(DisputeInput, body.json);
  if (!parsed.success) return badRequest(issuesOf(parsed.issues));
  const input = parsed.output;
  const idempotency = await idempotencyOf(request, business, idempotencyKey, body.text);
  if (idempotency instanceof Response) return idempotency;
  const { key, requestHash } = idempotency;

  const now = deps.now();
  const errors: NonNullable<Problem["errors"]> = [];
  // Africa/Accra is UTC+0: the due date (its midnight, as the door parsed it) ends at the next UTC midnight.
  const dueAt = input.evidence_due_by + DAY_MS;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  if (dueAt <= now) errors.push({ path: "evidence_due_by", message: "is in the past" });
  else if (dueAt > today + (MAX_EVIDENCE_DAYS + 1) * DAY_MS) errors.push({ path: "evidence_due_by", message: `is more than ${MAX_EVIDENCE_DAYS} days ahead` });
  const payment = await disputablePayment(business, input.payment_reference);
  if (!payment) errors.push({ path: "payment_reference", message: "is not the reference of a payment of this business" });
  else if (payment.status !== "successful")
    errors.push({ path: "payment_reference", message: `is a ${payment.status} payment: only a successful payment can be disputed` });
  else if (input.amount > payment.amount - payment.disputed - payment.refunded) {
    const left = payment.amount - payment.disputed - payment.refunded;
    errors.push({ path: "amount", message: `is more than the payment's amount not yet disputed or refunded (${left} pesewas)` });
  }
  if (errors.length > 0 || !payment) return badRequest(errors);

  const id = `dsp_${crypto.randomUUID().replaceAll("-", "")}`;
  const facts: DisputeFacts = {
    id,
    paymentReference: input.payment_reference,
    merchantId: payment.merchantId,
    reasonCode: input.reason_code,
    amount: input.amount,
    evidenceDueAt: dueAt,
    status: "open",
    openedAt: now,
    submittedAt: null,
    closedAt: null,
  };
  const answer = JSON.stringify(disputeData(facts));
  try {
    await openDispute(
      business,
      apiMetaOf(request, deps),
      {
        id,
        transactionId: payment.id,
        merchantId: payment.merchantId,
        paymentAmount: payment.amount,
        reasonCode: input.reason_code,
        amount: input.amount,
        evidenceDueAt: dueAt,
        openedAt: now,
      },
      facts,
      key === null ? null : keepAnswerStatement(business, { key, requestHash, status: 201, body: answer }, now),
    );
  } catch (error) {
    // The same key raced this request (its kept answer is the one), or another dispute of the payment came first.
    if (key !== null && error instanceof Error && /UNIQUE/.test(error.message)) {
      const replay = await keptAnswer(business, key, requestHash);
      if (replay) return replay;
    }
    const refused = problemOfError(error, { rule: { path: "amount" } });
    if (refused) return refused;
    throw error;
  }
  afterWrite(deps, business);
  return jsonResponse(JSON.parse(answer), 201, { Location: `/api/v1/disputes/${id}` });
}

/**
 * Closing is idempotent by its outcome: closing again as the same outcome answers the dispute as it is (200), as
 * the other outcome is a 409; nothing is posted twice either way.
 */
export async function closeDisputeRequest(request: Request, deps: ApiDeps, business: BusinessDb, id: string): Promise<Response> {
  if (!v.is(DisputeId, id)) return problem("dispute_not_found", "No dispute with that id.");
  const body = await jsonBody(request);
  if (body instanceof Response) return body;
  const parsed = v.safeParse(DisputeCloseInput, body.json);
  if (!parsed.success) return badRequest(issuesOf(parsed.issues));
  const { outcome } = parsed.output;
  const dispute = await getDisputeFacts(business, id);
  if (!dispute) return problem("dispute_not_found", "No dispute with that id.");
  const now = deps.now();
  const closed = await closeDispute(business, apiMetaOf(request, deps), dispute, outcome, now);
  const fresh = (await getDisputeFacts(business, id))!;
  if (!closed && fresh.status !== outcome) return problem("dispute_already_closed", `This dispute is already closed as ${fresh.status}.`);
  if (closed) afterWrite(deps, business);
  return jsonResponse(disputeData(fresh), 200, closed ? {} : { "Idempotent-Replayed": "true" });
}

/**
 * POST /api/v1/disputes/{id}/evidence: one file, as multipart/form-data with one part named "file" (what `curl -F
 * file=@receipt.pdf` and every HTTP library send; the file keeps its name, and nothing is base64-inflated). It goes
 * through the dispute page's own upload (./evidence-upload.ts): the same type sniffing, size limit, name rules and
 * R2-then-D1 order, and the same words. The file's bytes are not scanned for card numbers as a JSON body is: a PDF or
 * image holds long digit runs by chance, a scanned receipt may show a masked number, and the file is kept in R2 only,
 * never logged or echoed; its name, which is kept and answered, is scanned. Not idempotent by a key: each request
 * attaches a file (at most 10 a dispute). No person of the business is named: uploaded_by is null, the audit entry
 * carries the request id.
 */
export async function addEvidenceRequest(request: Request, deps: ApiDeps, business: BusinessDb, id: string): Promise<Response> {
  if (!v.is(DisputeId, id)) return problem("dispute_not_found", "No dispute with that id.");
  if (!/^multipart\/form-data\b/i.test(request.headers.get("Content-Type") ?? ""))
    return problem("unsupported_media_type", "Send the file as multipart/form-data, in one part named file.");
  if (!deps.evidence) throw new Error("The EVIDENCE bucket is not bound.");
  if (!(await getDisputeFacts(business, id))) return problem("dispute_not_found", "No dispute with that id.");
  const tenant: Tenant = { ...business, userId: "", role: "Administrator" };
  let answer: Awaited<ReturnType<typeof uploadEvidence>>;
  try {
    answer = await uploadEvidence(request, deps.evidence, tenant, apiMetaOf(request, deps), id, deps.now());
  } catch (error) {
    // The dispute went between the look-up and the upload (the page's 404).
    if (error instanceof Response && error.status === 404) return problem("dispute_not_found", "No dispute with that id.");
    throw error;
  }
  if ("errors" in answer) {
    const { file, form } = answer.errors;
    if (file === TOO_LARGE) return problem("body_too_large", TOO_LARGE);
    if (file) return badRequest([{ path: "file", message: file }]);
    if (form === MOVING_MESSAGE) return movingProblem();
    return problem("dispute_not_answerable", form ?? "This dispute takes no more evidence.");
  }
  return jsonResponse(evidenceData(id, answer), 201);
}

// Its rows of the operations table (functions/partner-api/operations.ts), which lists them in the document's order.
export const openDisputeOperation = {
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
} as const satisfies Operation;

export const closeDisputeOperation = {
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
} as const satisfies Operation;

export const addDisputeEvidenceOperation = {
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
} as const satisfies Operation;

// The Partner API's payment operations (functions/partner-api/operations.ts): sending payments, reversing one, a
// terminal's heartbeat, and reading a payment. Each request is checked whole here (schema, time, repeats, the merchants
// it names) and then queued once (PAYMENTS); the consumer (./consumer.ts) writes it within seconds. Kept with the
// payments, as the disputes' and refunds' operations are with theirs; the door (functions/partner-api/router.ts) calls them.
import * as v from "valibot";
import { jsonResponse } from "../plumbing/http";
import { DAY_MS } from "../plumbing/time";
import { getPaymentByReference } from "./api-payments.db";
import type { IngestMessage } from "./consumer";
import { listRefundsByReference } from "../refunds/refunds.db";
import { paymentView, refundsView } from "../webhooks/views";
import type { Credential } from "../partner-api/credential";
import { queueOnce } from "../partner-api/kept-answers";
import { PAYMENT_NOT_KNOWN_MESSAGE, REVERSAL_WAIT_DAYS, reversalAnswer } from "../partner-api/rejections";
import { badRequest, issuesOf, jsonBody, problem, type ApiDeps } from "../partner-api/request";
import { resolvePayments, resolveTerminal } from "../partner-api/resolve";
import {
  CLOCK_SKEW_MS,
  HeartbeatInput,
  MAX_PAYMENT_AGE_MS,
  MAX_PAYMENTS_PER_REQUEST,
  PaymentBatchInput,
  PaymentInput,
  type ParsedPayment,
  Reference,
  ReversalInput,
  TerminalSerial,
  type Problem,
} from "../partner-api/schemas";
import { accepted, BUSINESS, json, POST_PARAMETERS, ref } from "../partner-api/openapi-parts";
import { READ_ERRORS, WRITE_ERRORS, type Operation } from "../partner-api/operation";

/** Checks "when it happened" against the portal's clock: not in the future, not older than the API takes. */
function timeErrors(paths: { path: string; at: number }[], now: number, maxAgeMs: number, skewMs: number): NonNullable<Problem["errors"]> {
  return paths.flatMap(({ path, at }) =>
    at > now + skewMs
      ? [{ path, message: "is in the future" }]
      : at < now - maxAgeMs
        ? [{ path, message: `is more than ${Math.round(maxAgeMs / DAY_MS)} days ago` }]
        : [],
  );
}

/** The items of a refused batch that pass the schema on their own, with their index. */
function validItems(items: unknown): { index: number; payment: ParsedPayment }[] {
  if (!Array.isArray(items) || items.length > MAX_PAYMENTS_PER_REQUEST) return [];
  return items.flatMap((item, index) => {
    const one = v.safeParse(PaymentInput, item);
    return one.success ? [{ index, payment: one.output }] : [];
  });
}

/** 200, not 202: nothing is queued, and the sender can tell its heartbeat was not applied. */
function staleHeartbeat(lastSeenAt: number): Response {
  const lastSeen = new Date(lastSeenAt).toISOString();
  return jsonResponse(
    {
      accepted: 0,
      applied: false,
      reason: "stale",
      message: `sent_at is older than this terminal's last heartbeat (${lastSeen}): it was not applied.`,
      last_seen_at: lastSeen,
    },
    200,
  );
}

export async function getPaymentRequest({ business }: Credential, reference: string): Promise<Response> {
  if (!v.is(Reference, reference)) return problem("payment_not_found", "No payment with that reference.");
  const [held, refunds] = await Promise.all([getPaymentByReference(business, reference), listRefundsByReference(business, reference)]);
  return held ? jsonResponse({ ...paymentView(held), ...refundsView(refunds) }) : problem("payment_not_found", "No payment with that reference.");
}

export async function sendPaymentsRequest(request: Request, deps: ApiDeps, credential: Credential): Promise<Response> {
  const { business } = credential;
  const body = await jsonBody(request);
  if (body instanceof Response) return body;
  const json = body.json;
  const isBatch = typeof json === "object" && json !== null && !Array.isArray(json) && "payments" in json;
  const prefix = (i: number) => (isBatch ? `payments[${i}].` : "");
  const parsed = isBatch ? v.safeParse(PaymentBatchInput, json) : v.safeParse(PaymentInput, json);
  const errors = parsed.success ? [] : issuesOf(parsed.issues);
  // The items that pass the schema are checked further (time, repeats, parties) even when another item did not,
  // so one answer lists every problem of the request.
  const valid = parsed.success
    ? (isBatch ? (parsed.output as v.InferOutput<typeof PaymentBatchInput>).payments : [parsed.output as ParsedPayment]).map((payment, index) => ({
        index,
        payment,
      }))
    : isBatch
      ? validItems(json.payments)
      : [];
  const now = deps.now();
  errors.push(
    ...timeErrors(
      valid.map(({ index, payment }) => ({ path: `${prefix(index)}occurred_at`, at: payment.occurred_at })),
      now,
      MAX_PAYMENT_AGE_MS,
      CLOCK_SKEW_MS,
    ),
  );
  const seen = new Map<string, number>();
  for (const { index, payment } of valid) {
    const first = seen.get(payment.reference);
    if (first !== undefined) errors.push({ path: `${prefix(index)}reference`, message: `repeats ${prefix(first)}reference in the same request` });
    else seen.set(payment.reference, index);
  }
  const resolved = valid.length > 0 ? await resolvePayments(business, valid, prefix) : { errors: [], items: [] };
  errors.push(...resolved.errors);
  if (errors.length > 0) return badRequest(errors);
  const items = resolved.items;
  return queueOnce(request, deps, credential, body.text, { v: 1, businessId: business.businessId, receivedAt: now, payments: items }, items.length);
}

export async function reversePaymentRequest(request: Request, deps: ApiDeps, credential: Credential, reference: string): Promise<Response> {
  const { business } = credential;
  if (!v.is(Reference, reference)) return problem("payment_not_found", "No payment with that reference.");
  const body = await jsonBody(request);
  if (body instanceof Response) return body;
  const parsed = v.safeParse(ReversalInput, body.json);
  if (!parsed.success) return badRequest(issuesOf(parsed.issues));
  const now = deps.now();
  const at = parsed.output.reversed_at;
  const errors = timeErrors([{ path: "reversed_at", at }], now, MAX_PAYMENT_AGE_MS, CLOCK_SKEW_MS);
  if (errors.length > 0) return badRequest(errors);
  // A reversal whose payment has not arrived yet is accepted: it waits for it, and the answer says so.
  const reversal = { reference, reason: parsed.output.reason, reversedAt: Math.min(at, now) };
  const known = (await getPaymentByReference(business, reference)) !== null;
  const message: IngestMessage = { v: 1, businessId: business.businessId, receivedAt: now, reversals: [reversal] };
  return queueOnce(request, deps, credential, body.text, message, 1, reversalAnswer(known));
}

export async function heartbeatRequest(request: Request, deps: ApiDeps, credential: Credential, serial: string): Promise<Response> {
  const { business } = credential;
  if (!v.is(TerminalSerial, serial)) return problem("terminal_not_found", "No terminal with that serial.");
  const body = await jsonBody(request);
  if (body instanceof Response) return body;
  const parsed = v.safeParse(HeartbeatInput, body.json);
  if (!parsed.success) return badRequest(issuesOf(parsed.issues));
  const terminal = await resolveTerminal(business, serial);
  if (!terminal) return problem("terminal_not_found", "No terminal with that serial.");
  const now = deps.now();
  // A terminal's clock may run ahead: it was seen no later than now.
  const seenAt = Math.min(parsed.output.sent_at, now);
  // Older than what the portal holds: the consumer would keep the newer one, so say so now rather than 202.
  if (terminal.lastSeenAt !== null && seenAt < terminal.lastSeenAt) return staleHeartbeat(terminal.lastSeenAt);
  const beat = {
    terminalId: terminal.id,
    batteryPercent: parsed.output.battery_percent,
    signalPercent: parsed.output.signal_percent,
    softwareVersion: parsed.output.software_version,
    seenAt,
  };
  return queueOnce(request, deps, credential, body.text, { v: 1, businessId: business.businessId, receivedAt: now, heartbeats: [beat] }, 1);
}

// Its rows of the operations table (functions/partner-api/operations.ts), which lists them in the document's order.
export const sendPaymentsOperation = {
  name: "payments",
  method: "POST",
  path: "/api/v1/payments",
  operationId: "sendPayments",
  access: "payments",
  tag: "Payments",
  summary: "Send payments",
  description:
    `One payment, or up to ${MAX_PAYMENTS_PER_REQUEST} as {"payments": [...]}. The whole request is refused if any payment in it is not valid; ` +
    "a payment whose reference the business already holds is not applied twice.",
  parameters: () => POST_PARAMETERS,
  request: ({ examples }) => ({
    "application/json": {
      schema: ref("PaymentsRequest"),
      examples: {
        one: { summary: "One card payment", value: examples.cardPayment },
        batch: { summary: "A batch", value: { payments: [examples.cardPayment, examples.failedMobileMoney] } },
      },
    },
  }),
  answers: () => accepted("Payments"),
  errors: WRITE_ERRORS,
  handler: (request, { deps, credential }) => sendPaymentsRequest(request, deps, credential),
} as const satisfies Operation;

export const getPaymentOperation = {
  name: "payment",
  method: "GET",
  path: "/api/v1/payments/{reference}",
  operationId: "getPayment",
  access: "payments",
  tag: "Payments",
  summary: "Get a payment",
  description: "The payment as the portal holds it: status, fee, net, whether it cleared, and its settlement once there is one.",
  parameters: () => [ref("reference", "parameters"), BUSINESS],
  answers: () => ({ "200": { description: "The payment.", content: json("PaymentView") } }),
  errors: READ_ERRORS,
  handler: (_request, { credential, params }) => getPaymentRequest(credential, params.reference!),
} as const satisfies Operation;

export const reversePaymentOperation = {
  name: "reversal",
  method: "POST",
  path: "/api/v1/payments/{reference}/reversal",
  operationId: "reversePayment",
  access: "reversals",
  tag: "Payments",
  summary: "Reverse a payment",
  description:
    "A full reversal. A reversal that arrives before its payment waits for it; reversing twice is one reversal. " +
    "A cleared payment can be reversed: the amount comes back out of the merchant's available money.",
  // The card payment the payments example sends (the reference parameter's own example is a payment the seed holds).
  parameters: ({ schemas }) => [
    { name: "reference", in: "path", required: true, description: schemas.Reference.description, schema: ref("Reference"), example: "PSP-K000201" },
    ...POST_PARAMETERS,
  ],
  request: ({ examples }) => json("ReversalInput", examples.reversal),
  answers: () => ({
    "202": {
      description:
        "The reversal queued. payment_known says whether the portal held the payment; when it did not, the reversal waits " +
        `${REVERSAL_WAIT_DAYS} days for it (GET /api/v1/reversals/waiting) and then expires.`,
      content: json("ReversalAccepted", { accepted: 1, payment_known: false, message: PAYMENT_NOT_KNOWN_MESSAGE }),
    },
  }),
  errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"],
  handler: (request, { deps, credential, params }) => reversePaymentRequest(request, deps, credential, params.reference!),
} as const satisfies Operation;

export const sendHeartbeatOperation = {
  name: "heartbeat",
  method: "POST",
  path: "/api/v1/terminals/{serial}/heartbeats",
  operationId: "sendHeartbeat",
  access: "heartbeats",
  tag: "Terminals",
  summary: "Send a terminal heartbeat",
  description: "The terminal is alive: its last-seen time, battery, signal and software version are updated, so it is no longer silent.",
  parameters: () => [ref("serial", "parameters"), ...POST_PARAMETERS],
  request: ({ examples }) => json("HeartbeatInput", examples.heartbeat),
  answers: () => ({
    "200": {
      description: "Not applied: sent_at is older than the terminal's last heartbeat. Nothing was queued.",
      content: json("HeartbeatNotApplied", {
        accepted: 0,
        applied: false,
        reason: "stale",
        message: "sent_at is older than this terminal's last heartbeat (2026-11-23T10:25:00.000Z): it was not applied.",
        last_seen_at: "2026-11-23T10:25:00.000Z",
      }),
    },
    ...accepted("The heartbeat"),
  }),
  errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "TooLarge", "UnsupportedMediaType", "TooManyRequests"],
  handler: (request, { deps, credential, params }) => heartbeatRequest(request, deps, credential, params.serial!),
} as const satisfies Operation;

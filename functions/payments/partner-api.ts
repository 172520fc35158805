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
import { reversalAnswer } from "../partner-api/rejections";
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

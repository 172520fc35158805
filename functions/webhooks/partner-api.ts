// POST /api/v1/webhook-endpoints/{id}/resend-failed: after its receiver was down, a business's integration sends again
// every delivery to one endpoint that failed for good since a time, as "Send failed deliveries again" does on the
// endpoint's delivery log (./recovery.db.ts: the same function, audited the same way), so a receiver can recover without
// a person at the screen. A business's own key only (its row in functions/partner-api/operations.ts): the key is the
// proof, as for every API request; the deliveries go to the URL the business's administrators set and checked. Kept
// with the webhooks, as each domain keeps its operations of the API; the door calls it.
import * as v from "valibot";
import { jsonResponse } from "../plumbing/http";
import type { BusinessDb, Tenant } from "../tenancy/tenant";
import { apiMetaOf } from "../partner-api/kept-answers";
import { getWebhookEndpoint } from "./endpoints.db";
import { resendFailedDeliveries } from "./recovery.db";
import { ResendFailedInput } from "../partner-api/list-schemas";
import { badRequest, issuesOf, jsonBody, problem, type ApiDeps } from "../partner-api/request";
import { problemOfError } from "../partner-api/problems";
import { BUSINESS, EXAMPLE_IDS, json } from "../partner-api/openapi-parts";
import { idParameter, type Operation } from "../partner-api/operation";

export async function resendFailedRequest(request: Request, deps: ApiDeps, business: BusinessDb, endpointId: string): Promise<Response> {
  const body = await jsonBody(request);
  if (body instanceof Response) return body;
  const parsed = v.safeParse(ResendFailedInput, body.json);
  if (!parsed.success) return badRequest(issuesOf(parsed.issues));
  const now = deps.now();
  if (parsed.output.since > now) return badRequest([{ path: "since", message: "must be in the past" }]);
  // The key acts for its business as its administrators would; the audit log names no person (the API acted).
  const tenant: Tenant = { ...business, userId: "", role: "Administrator" };
  const endpoint = /^[A-Za-z0-9_-]{1,100}$/.test(endpointId) ? await getWebhookEndpoint(tenant, endpointId) : null;
  if (!endpoint) return problem("webhook_endpoint_not_found", "No webhook endpoint with that id.");
  if (endpoint.status !== "enabled") return problem("webhook_endpoint_disabled", "The endpoint is disabled: enable it before sending to it again.");
  try {
    const result = await resendFailedDeliveries(tenant, apiMetaOf(request, deps), endpoint.id, parsed.output.since, now);
    if (result.queued > 0 && deps.dispatchWebhooks) deps.waitUntil(deps.dispatchWebhooks(business).catch(() => undefined));
    return jsonResponse({ queued: result.queued, has_more: result.more });
  } catch (error) {
    const refused = problemOfError(error, { rule: { code: "webhook_endpoint_disabled" } });
    if (refused) return refused;
    throw error;
  }
}

// Its rows of the operations table (functions/partner-api/operations.ts), which lists them in the document's order.
export const resendFailedDeliveriesOperation = {
  name: "resendFailed",
  method: "POST",
  path: "/api/v1/webhook-endpoints/{id}/resend-failed",
  operationId: "resendFailedDeliveries",
  // The business's webhook endpoints are its own integration's, not the switch's.
  access: "business-key",
  tag: "Events",
  summary: "Send failed deliveries again",
  description:
    "Every delivery to this endpoint that failed for good and was made at `since` or later becomes pending again with a new 24-hour retry window, " +
    "oldest first, at most 1,000 a request (`has_more` says when more are left). The endpoint must be enabled (409 otherwise). The endpoint's id is in " +
    "its delivery log's address (Settings → Developers). As the delivery log's button does, audited. A business's own key only.",
  parameters: () => [idParameter("The webhook endpoint's id (we_...).", EXAMPLE_IDS.webhookEndpoint), BUSINESS],
  request: ({ examples }) => json("ResendFailedInput", examples.resendFailed),
  answers: () => ({ "200": { description: "Queued.", content: json("ResendFailedAnswer", { queued: 42, has_more: false }) } }),
  errors: ["BadRequest", "Unauthorized", "NotFound", "Conflict", "UnsupportedMediaType", "TooManyRequests"],
  handler: (request, { deps, credential, params }) => resendFailedRequest(request, deps, credential.business, params.id!),
} as const satisfies Operation;

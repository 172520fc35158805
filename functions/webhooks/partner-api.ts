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

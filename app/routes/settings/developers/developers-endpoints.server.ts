// The webhook endpoints of Settings > Developers: what the
// section lists, and the intents its forms (and an endpoint's delivery log page)
// post. Each change is audited by the data layer; a secret only ever leaves the
// server in the answer to "Reveal secret", never in a URL, a flash or loader data.
import { formErrors } from "#server/forms";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import * as v from "valibot";
import { parseDay } from "#app/lib/forms/days";
import type { AuthDeps } from "#server/auth/deps";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  getWebhookSecret,
  listWebhookEndpoints,
  rollWebhookSecret,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
  type WebhookEndpoint,
} from "#server/webhooks/endpoints.db";
import { getWebhookDelivery } from "#server/webhooks/delivery-log.db";
import type { Tenant } from "#server/tenancy/tenant";
import { redirectWithFlash } from "#server/plumbing/flash";
import { refusalMessage, requirePermission } from "#server/guards";
import { pageNotFound, refuse } from "#server/plumbing/http";
import { resendWebhookDelivery, sendWebhookTestEvent, type ManualSendResult } from "#server/webhooks/manual";
import { newWebhookSecret } from "#server/webhooks/signing";
import { WEBHOOK_EVENT_TYPES } from "#server/webhooks/types";
import { checkWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from "#server/webhooks/url-rules";
import { ENDPOINTS_URL, EVENT_FIELD_PREFIX, outcomeText, type SendOutcome } from "./webhook-endpoints";
import { bidiControlMessage, hasBidiControl } from "#app/lib/forms/validation";
import { NOT_UNDERSTOOD } from "#app/routes/settings/tabs";
import { checkBindings, fingerprintOf, underFreshCheck } from "#server/auth/fresh-check";
import type { TenantRequest } from "#server/guards";
import { RESEND_FAILED_LIMIT, resendFailedDeliveries } from "#server/webhooks/recovery.db";
import { dispatchPendingDeliveries } from "#server/webhooks/dispatch";
import { errorText, logEvent } from "#server/plumbing/log";
import { formatCount, proseDate } from "#app/lib/format";
import { CURRENT_API_VERSION } from "#server/partner-api/versions";

export const ENDPOINT_INTENTS = ["create", "edit", "enable", "disable", "delete", "roll", "reveal", "test", "resend", "resend-failed"] as const;
export type EndpointIntent = (typeof ENDPOINT_INTENTS)[number];

export function isEndpointIntent(value: unknown): value is EndpointIntent {
  return (ENDPOINT_INTENTS as readonly unknown[]).includes(value);
}

export async function loadEndpoints(deps: AuthDeps, tenant: Tenant) {
  requirePermission(tenant, "manage:developer");
  const endpoints = await listWebhookEndpoints(tenant);
  return {
    eventTypes: [...WEBHOOK_EVENT_TYPES],
    endpoints: endpoints.map((e: WebhookEndpoint) => ({
      id: e.id,
      url: e.url,
      description: e.description,
      eventTypes: e.eventTypes,
      status: e.status,
      disabledReason: e.disabledReason,
      disabledAt: e.disabledAt,
      /** While set, the previous secret still signs deliveries until then (epoch ms). */
      rollingUntil: e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > Date.now() ? e.previousSecretExpiresAt : null,
      lastSuccessAt: e.lastSuccessAt,
      /** The API version its deliveries' bodies are in (docs/api-changelog.md), and whether a newer one exists. */
      apiVersion: e.apiVersion,
      olderVersion: e.apiVersion < CURRENT_API_VERSION,
      createdAt: e.createdAt,
    })),
    currentVersion: CURRENT_API_VERSION,
  };
}

export type EndpointsData = Awaited<ReturnType<typeof loadEndpoints>>;

export interface EndpointValues {
  url: string;
  description: string;
  eventTypes: string[];
}
export type EndpointField = "url" | "description" | "eventTypes" | "form";

// Exported for its unit test (tests/unit/name-fields.test.ts).
export const EndpointSchema = v.object({
  url: v.pipe(
    v.string("Enter the endpoint's URL."),
    v.trim(),
    v.nonEmpty("Enter the endpoint's URL."),
    v.maxLength(MAX_WEBHOOK_URL_LENGTH, "That URL is too long."),
  ),
  // The description names the endpoint in the list and the log: no direction controls.
  description: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(500, "Keep the description under 500 characters."),
    v.check((typed) => !hasBidiControl(typed), bidiControlMessage("description")),
  ),
  eventTypes: v.pipe(v.array(v.picklist(WEBHOOK_EVENT_TYPES, "Choose event types from the list.")), v.minLength(1, "Choose at least one event type.")),
});

const IdForm = v.object({ endpointId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)) });
const DeliveryForm = v.object({ ...IdForm.entries, deliveryId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)) });
/** "Send again every failed delivery since": a time of day in Accra, 24-hour (GMT all year, so the wall time is UTC). */
const SINCE_TIME = /^([01]?\d|2[0-3])[:.h]?([0-5]\d)$/;

/**
 * The instant "since" names: a day read day first (the day field, parseDay: 21/11/2026, or 2026-11-21 as the field's
 * script sends it) and a time of day (09:00, 9:00, 0900); or the field that is wrong and why.
 */
export function sinceOf(day: unknown, time: unknown): { at: number } | { field: "sinceDay" | "sinceTime"; error: string } {
  const read = parseDay(typeof day === "string" ? day : "");
  if ("error" in read) return { field: "sinceDay", error: read.error };
  const match = typeof time === "string" ? SINCE_TIME.exec(time.trim()) : null;
  if (!match) return { field: "sinceTime", error: "Write the time as HH:MM on the 24-hour clock, e.g. 09:00 or 17:30." };
  return { at: Date.parse(`${read.day}T00:00:00Z`) + (Number(match[1]) * 60 + Number(match[2])) * 60_000 };
}

function endpointValues(form: Record<string, FormDataEntryValue>): EndpointValues {
  const text = (name: string) => (typeof form[name] === "string" ? form[name] : "");
  return {
    url: text("url"),
    description: text("description"),
    eventTypes: Object.keys(form)
      .filter((name) => name.startsWith(EVENT_FIELD_PREFIX))
      .map((name) => name.slice(EVENT_FIELD_PREFIX.length)),
  };
}

/** The answer to "Reveal secret" and "Send a test event": for this answer only. */
export type EndpointActionData =
  { intent: "reveal"; endpointId: string; secret: string; previousSecret: string | null } | { intent: "test"; endpointId: string; result: SendOutcome };

function outcome(result: ManualSendResult): SendOutcome {
  const { responseStatus, latencyMs, error } = result.attempt;
  return { delivered: result.delivered, responseStatus, latencyMs, error };
}

/**
 * The endpoint intents. A refusal (400, by field for create and edit, with what
 * was typed), the data of reveal and test, or a thrown redirect with a flash to
 * `back` (the tab, or the log page the form was on; a deleted endpoint's is the tab).
 * Another business's endpoint or delivery is a 404; a role without manage:developer a 403.
 */
export async function endpointsAction(
  request: Request,
  context: AppLoadContext,
  signedIn: TenantRequest,
  form: Record<string, FormDataEntryValue>,
  back: string = ENDPOINTS_URL,
) {
  const { deps, tenant } = signedIn;
  // Every change that decides where signed data goes runs under a fresh check: making an endpoint, changing its URL or event types, enabling it again, rolling or revealing
  // its secret, and sending a delivery again. A stolen session alone can neither reroute the business's payment feed
  // nor replay old signed events. Disabling, deleting and a test event (nothing of the business's) need none.
  const checked = <T>(binding: string, act: () => Promise<T>) => underFreshCheck(request, signedIn, binding, form, act);
  requirePermission(tenant, "manage:developer");
  const intent = form.intent;
  if (!isEndpointIntent(intent)) return refuse({ form: NOT_UNDERSTOOD });
  const environment = context.config.app.environment;
  const flash = async (message: string, to = back, kind: "success" | "warning" = "success") => {
    throw await redirectWithFlash(request, context.config.app, to, { kind, message });
  };

  if (intent === "create" || intent === "edit") {
    const values = endpointValues(form);
    const id = intent === "edit" ? v.safeParse(IdForm, form) : null;
    if (id && !id.success) return refuse({ form: NOT_UNDERSTOOD });
    const endpointId = id?.success ? id.output.endpointId : undefined;
    const parsed = v.safeParse(EndpointSchema, values);
    const errors: Record<string, string> = parsed.success
      ? {}
      : // "eventTypes.0" and the like: the checkboxes' message sits by the group.
        Object.fromEntries(
          Object.entries(formErrors(parsed.issues))
            .reverse()
            .map(([key, message]) => [key.split(".")[0]!, message]),
        );
    // The URL rules are the data layer's; asked here too so the reason sits under the URL field.
    if (!errors.url) {
      const verdict = checkWebhookUrl(values.url.trim(), environment);
      if (!verdict.ok) errors.url = verdict.reason;
    }
    if (!parsed.success || Object.keys(errors).length) return refuse(errors, values, refusalKey(intent, endpointId));
    const input = parsed.output;
    try {
      if (endpointId) {
        const before = await getWebhookEndpoint(tenant, endpointId);
        if (!before) pageNotFound(request);
        const save = async () => {
          const updated = await updateWebhookEndpoint(tenant, deps.meta, endpointId, input, environment);
          return await flash(`The endpoint ${short(updated.url)} is saved.`);
        };
        const target = destinationOf(checkWebhookUrl(input.url, environment), input.eventTypes);
        // Only the description changed: where the data goes stays as it was checked.
        if (target === destinationOf({ ok: true, url: before.url }, before.eventTypes)) return await save();
        return await checked(checkBindings.endpoint("edit", `${endpointId}:${await fingerprintOf(target)}`), save);
      }
      return await checked(checkBindings.endpoint("create", await fingerprintOf(input.url)), async () => {
        const created = await createWebhookEndpoint(tenant, deps.meta, input, newWebhookSecret(), environment);
        return await flash(`The endpoint ${short(created.url)} is added and enabled. Reveal its signing secret to verify deliveries.`, ENDPOINTS_URL);
      });
    } catch (error) {
      if (error instanceof Response) throw error;
      return refuse({ form: refusalMessage(request, error) }, values, refusalKey(intent, endpointId));
    }
  }

  if (intent === "resend-failed") return resendFailed(request, context, signedIn, form, back);
  const parsed = v.safeParse(intent === "resend" ? DeliveryForm : IdForm, form);
  if (!parsed.success) return refuse({ form: NOT_UNDERSTOOD }, null, intent);
  const { endpointId } = parsed.output;
  const endpoint = await getWebhookEndpoint(tenant, endpointId);
  if (!endpoint) pageNotFound(request);
  // Deleting and rolling cannot be undone: the form's second button confirms.
  if ((intent === "delete" || intent === "roll") && form.confirm !== "yes") return refuse({ form: "Confirm first." }, null, `${intent}:${endpointId}`);
  try {
    switch (intent) {
      case "enable":
        return await checked(checkBindings.endpoint("enable", endpointId), async () => {
          await setWebhookEndpointEnabled(tenant, deps.meta, endpointId, true);
          return await flash(`The endpoint ${short(endpoint.url)} is enabled.`);
        });
      case "disable":
        await setWebhookEndpointEnabled(tenant, deps.meta, endpointId, false);
        return await flash(`The endpoint ${short(endpoint.url)} is disabled: nothing is sent to it until it is enabled again.`);
      case "delete":
        await deleteWebhookEndpoint(tenant, deps.meta, endpointId);
        return await flash(`The endpoint ${short(endpoint.url)} is deleted with its delivery log.`, ENDPOINTS_URL);
      case "roll":
        return await checked(checkBindings.endpoint("roll", endpointId), async () => {
          await rollWebhookSecret(tenant, deps.meta, endpointId, newWebhookSecret());
          return await flash(`The signing secret of ${short(endpoint.url)} is rolled. The old secret keeps signing deliveries for 24 hours.`);
        });
      case "reveal":
        return await checked(checkBindings.endpoint("reveal", endpointId), async () => {
          const secret = await getWebhookSecret(tenant, endpointId);
          if (!secret) pageNotFound(request);
          return data<EndpointActionData>({ intent, endpointId, ...secret }, { headers: { "Cache-Control": "no-store" } });
        });
      case "test":
        return data<EndpointActionData>({ intent, endpointId, result: outcome(await sendWebhookTestEvent(tenant, context.config.webhooks, endpointId)) });
      case "resend": {
        if (!("deliveryId" in parsed.output)) return refuse({ form: NOT_UNDERSTOOD });
        // A delivery of another endpoint (of this business) is not this page's.
        const delivery = await getWebhookDelivery(tenant, parsed.output.deliveryId);
        if (delivery?.endpointId !== endpointId) pageNotFound(request);
        return await checked(checkBindings.endpoint("resend", delivery.id), async () => {
          const result = await resendWebhookDelivery(tenant, context.config.webhooks, delivery.id);
          return await flash(`Sent again. ${outcomeText(outcome(result))}`, back, result.delivered ? "success" : "warning");
        });
      }
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    return refuse({ form: refusalMessage(request, error) }, null, `${intent}:${endpointId}`);
  }
  return refuse({ form: NOT_UNDERSTOOD });
}

/** "Send again every failed delivery since …": under a fresh check bound to the endpoint and the instant. */
async function resendFailed(request: Request, context: AppLoadContext, signedIn: TenantRequest, form: Record<string, FormDataEntryValue>, back: string) {
  const { tenant, deps } = signedIn;
  const id = v.safeParse(IdForm, form);
  if (!id.success) return refuse({ form: NOT_UNDERSTOOD }, null, "resend-failed");
  const { endpointId } = id.output;
  const key = `resend-failed:${endpointId}`;
  const read = sinceOf(form.sinceDay, form.sinceTime);
  const now = Date.now();
  if ("error" in read) return refuse({ [read.field]: read.error }, null, key);
  const since = read.at;
  if (since > now) return refuse({ sinceTime: "Choose a time in the past." }, null, key);
  if (!(await getWebhookEndpoint(tenant, endpointId))) pageNotFound(request);
  try {
    return await underFreshCheck(request, signedIn, checkBindings.endpoint("resend-failed", `${endpointId}:${since}`), form, async () => {
      const result = await resendFailedDeliveries(tenant, deps.meta, endpointId, since, now);
      if (result.queued > 0) {
        const { env, ctx } = context.cloudflare;
        ctx.waitUntil(
          dispatchPendingDeliveries(env, Date.now(), tenant).catch((error: unknown) =>
            logEvent("error", "webhooks.resend_dispatch_failed", { endpointId, error: errorText(error) }),
          ),
        );
      }
      const words =
        result.queued === 0
          ? `No failed deliveries since ${proseDate(since)}: nothing to send again.`
          : `${formatCount(result.queued)} failed ${result.queued === 1 ? "delivery" : "deliveries"} since ${proseDate(since)} will be sent again within a minute.` +
            (result.more ? ` More are left: send again to queue the next ${formatCount(RESEND_FAILED_LIMIT)}.` : "");
      throw await redirectWithFlash(request, context.config.app, back, { kind: result.queued === 0 ? "warning" : "success", message: words });
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    return refuse({ form: refusalMessage(request, error) }, null, key);
  }
}

/** Where an endpoint sends (its URL as stored, and its event types in a fixed order): what an edit's check is bound to. */
function destinationOf(verdict: ReturnType<typeof checkWebhookUrl>, eventTypes: readonly string[]): string {
  return JSON.stringify([verdict.ok ? verdict.url : null, [...new Set(eventTypes)].sort()]);
}

/** A URL short enough for a flash message (at most 500 characters in all). */
function short(url: string): string {
  return url.length > 120 ? `${url.slice(0, 119)}…` : url;
}

function refusalKey(intent: "create" | "edit", endpointId: string | undefined): string {
  return endpointId ? `${intent}:${endpointId}` : intent;
}

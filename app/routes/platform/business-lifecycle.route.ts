// POST /platform/businesses/:businessId/lifecycle: a Platform Administrator asks to suspend, reactivate or close a
// business (decision 039). Nothing changes until a second administrator approves the request; the asker is taken to it.
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import * as v from "valibot";
import { refusalMessage } from "#server/guards";
import { platformBusiness } from "#server/operators/businesses.db";
import { requirePlatform } from "#server/operators/guards";
import { lifecycleRefusal, type LifecycleKind } from "#server/operators/lifecycle";
import { askPlatform } from "#server/operators/requests";
import { redirectWithFlash } from "#server/platform/flash";
import { pageNotFound, refuse } from "#server/platform/http";

const KIND_BY_INTENT: Record<string, LifecycleKind> = { suspend: "suspend_business", reactivate: "reactivate_business", close: "close_business" };

export const LifecycleForm = v.object({
  intent: v.picklist(["suspend", "reactivate", "close"], "Choose what to do with the business."),
  reason: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.minLength(1, "Say why: the administrator who decides reads it, and the business's audit keeps it."),
    v.maxLength(500, "Keep the reason under 500 characters."),
  ),
});

export async function action({ request, context, params }: ActionFunctionArgs) {
  const maker = await requirePlatform(request, context, "platform:request");
  const business = await platformBusiness(maker.deps.db, params.businessId ?? "");
  if (!business) pageNotFound(request);
  const form = Object.fromEntries(await request.formData());
  const parsed = v.safeParse(LifecycleForm, form);
  const values = { reason: typeof form.reason === "string" ? form.reason : "", intent: typeof form.intent === "string" ? form.intent : "" };
  if (!parsed.success) {
    const flat = v.flatten<typeof LifecycleForm>(parsed.issues).nested;
    return refuse({ reason: flat?.reason?.[0] ?? flat?.intent?.[0] ?? "Choose what to do with the business." }, values, "lifecycle");
  }
  const kind = KIND_BY_INTENT[parsed.output.intent]!;
  const refusal = lifecycleRefusal(kind, business.lifecycle);
  if (refusal) return refuse({ reason: refusal }, values, "lifecycle");
  try {
    const asked = await askPlatform(maker, kind, business.id, {
      businessName: business.tradingName ?? business.name,
      reason: parsed.output.reason,
      from: business.lifecycle,
    });
    const message = asked.made ? "Asked: another Platform Administrator decides it." : "A request like this already waits for a decision.";
    throw await redirectWithFlash(request, context.config.app, `/platform/requests/${asked.id}`, { kind: asked.made ? "success" : "info", message });
  } catch (error) {
    if (error instanceof Response) throw error;
    return refuse({ reason: refusalMessage(request, error) }, values, "lifecycle");
  }
}

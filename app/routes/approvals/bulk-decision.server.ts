// Deciding several requests at once from the queue: one fresh check for the chosen requests (bound to exactly their
// ids, which the check dialog names: a check for one choice decides no other), then each request decided on its own by the decision core's decideEach
// through the same steps as its page (functions/decisions/business.ts), each applied and audited alone. One that the rules refuse (stale, decided meanwhile, the
// person's own) is named with its reason; the others still go through.
import { formErrors } from "#server/forms";
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { batchBinding, batchIds, ChosenIds, underFreshCheck } from "#server/auth/fresh-check";
import { getApprovalRequest, requestSubjects } from "#server/approvals/change-requests.db";
import { refusalMessage, type TenantRequest } from "#server/guards";
import { refuse } from "#server/plumbing/http";
import { ForbiddenError, NotFoundError } from "#server/tenancy/tenant";
import { decideBusinessRequest, pageRun } from "#server/decisions/business";
import { decideEach } from "#server/decisions/decide";

const BulkDecision = v.variant("intent", [
  v.object({ intent: v.literal("approve-selected"), ids: ChosenIds }),
  v.object({
    intent: v.literal("reject-selected"),
    ids: ChosenIds,
    reason: v.pipe(
      v.optional(v.string(), ""),
      v.trim(),
      v.minLength(1, "Give a reason for rejecting: the people who asked will read it."),
      v.maxLength(500, "Keep the reason under 500 characters."),
    ),
  }),
]);

export const BULK_INTENTS = ["approve-selected", "reject-selected"] as const;

export interface BulkOutcome {
  intent: (typeof BULK_INTENTS)[number];
  decided: number;
  refused: { id: string; subject: string; message: string }[];
}

/** Ticked boxes arrive one `ids` field each; a batch sent again after its check arrives as one field, comma-separated. */
function idsOf(form: FormData): string[] {
  const ids = form
    .getAll("ids")
    .flatMap((value) => (typeof value === "string" ? value.split(",") : []))
    .map((id) => id.trim())
    .filter(Boolean);
  return [...new Set(ids)];
}

/** A rule's refusal of one request of the batch, said beside it; anything else is a fault and fails the batch. */
function refusalOf(request: Request, error: unknown): string {
  if (error instanceof NotFoundError) return "This request is no longer here.";
  if (error instanceof ForbiddenError) return error.message;
  return refusalMessage(request, error);
}

export async function decideSelected(request: Request, context: AppLoadContext, signedIn: TenantRequest, form: FormData) {
  const { tenant } = signedIn;
  const fields = { intent: form.get("intent"), ids: idsOf(form), reason: form.get("reason") ?? undefined };
  const values = { reason: typeof fields.reason === "string" ? fields.reason : "" };
  const parsed = v.safeParse(BulkDecision, fields);
  if (!parsed.success) {
    const errors = formErrors(parsed.issues);
    return refuse(
      { ...(errors.reason ? { reason: errors.reason } : {}), ...(errors.ids ? { ids: errors.ids } : {}), bulk: "Nothing was decided." },
      values,
      "bulk",
    );
  }
  const decision = parsed.output;
  const ids = batchIds(decision.ids);
  // The check covers exactly these requests, and the dialog names them.
  const check = { binding: await batchBinding(ids), covers: ids };
  // What the page sends again once the check is made: the same batch, the ids as one field.
  const resend = { intent: decision.intent, ids: ids.join(","), ...("reason" in decision ? { reason: decision.reason } : {}) };
  return underFreshCheck(request, signedIn, check, resend, async () => {
    const run = pageRun(context, signedIn);
    const each = await decideEach(
      ids,
      async (id) => {
        const found = await getApprovalRequest(tenant, id);
        if (!found) throw new NotFoundError("Request");
        await decideBusinessRequest(run, found, decision.intent === "approve-selected" ? { intent: "approve" } : { intent: "reject", reason: decision.reason });
      },
      async (id, error) => {
        const found = await getApprovalRequest(tenant, id);
        const subject = found ? ((await requestSubjects(tenant, [found]))[found.id] ?? "A request") : "A request";
        return { id, subject, message: refusalOf(request, error) };
      },
    );
    const outcome: BulkOutcome = { intent: decision.intent, ...each };
    // Nothing decided: the check is given back (a 400), so the person can choose again without a new one.
    return data({ intent: "bulk" as const, outcome }, { status: outcome.decided === 0 ? 400 : 200 });
  });
}

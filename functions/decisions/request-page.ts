// The one action of a request page (decision 047): the business's change requests, its money requests and the
// platform's requests decide through here. The steps are the same on each, in the same order: the body read as a form,
// the page's decision schema, the refusals a page says before it asks for any check (one's own request, a request
// already decided), the decision's fresh check, the core's decision with its refusal said by the form, and the person
// sent back to the queue with what was done. Each page gives only its words and its check.
import type { AppLoadContext } from "@remix-run/cloudflare";
import * as v from "valibot";
import { formErrors, readForm, type FormRefusal } from "../forms";
import { refusalMessage } from "../guards";
import { redirectWithFlash } from "../plumbing/flash";
import { refuse } from "../plumbing/http";
import type { Decision } from "./decide";

export interface RequestPageAction<D extends Decision, Refusal, CheckNeeded> {
  /** The page's decision form. */
  schema: v.GenericSchema<unknown, D>;
  /** What the page says of a form that is no decision (a reason too short, no intent). */
  invalid(form: Record<string, unknown>, issues: readonly v.BaseIssue<unknown>[]): Refusal;
  /** A refusal said before any check is asked for, or null; may throw a 403. */
  before?(form: Record<string, unknown>): Refusal | null;
  /** Runs the decision under its fresh check, bound to this request. */
  underCheck(form: Record<string, unknown>, act: () => Promise<Refusal | null>): Promise<Refusal | null | CheckNeeded>;
  decide(decision: D): Promise<void>;
  /** The core's refusal, said by the form. */
  refused(form: Record<string, unknown>, message: string): Refusal;
  /** Where the checker goes once it is decided, and what they read there. */
  done(decision: D): { to: string; message: string };
}

/** Answers a request page's POST: a refusal to show on the page, the check to make, or (thrown) the way back to the queue. */
export async function decideOnPage<D extends Decision, Refusal, CheckNeeded>(
  request: Request,
  context: AppLoadContext,
  page: RequestPageAction<D, Refusal, CheckNeeded>,
): Promise<Refusal | CheckNeeded | FormRefusal> {
  const read = await readForm(request);
  if (!read.ok) return read.refusal;
  const form = read.fields;
  const parsed = v.safeParse(page.schema, form);
  if (!parsed.success) return page.invalid(form, parsed.issues);
  const early = page.before?.(form) ?? null;
  if (early !== null) return early;
  const decision = parsed.output;
  const refused = await page.underCheck(form, async () => {
    try {
      await page.decide(decision);
      return null;
    } catch (error) {
      // A stale request is a rule refusal too: the page reads the request again and shows it stale.
      return page.refused(form, refusalMessage(request, error));
    }
  });
  if (refused !== null) return refused;
  const { to, message } = page.done(decision);
  throw await redirectWithFlash(request, context.config.app, to, { kind: "success", message });
}

/** What a refused decision form keeps: the reason typed. */
export const decisionFormValues = (form: Record<string, unknown>) => ({ reason: typeof form.reason === "string" ? form.reason : "" });

/** A form that is no decision, as every request page says it: the reason's own message when rejecting, else one line. */
export function refusedDecisionForm(form: Record<string, unknown>, issues: readonly v.BaseIssue<unknown>[]) {
  const errors = formErrors(issues);
  if (form.intent === "reject" && errors.reason) return refuse({ reason: errors.reason }, decisionFormValues(form));
  return refuse({ form: "Choose Approve or Reject." }, decisionFormValues(form));
}

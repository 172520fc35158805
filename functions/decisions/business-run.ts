// Who decides a business's request and with what (decision 047): the checker as a tenant, where the decision came from,
// and what the steps after the commit need. A page or the queue passes all of it; a job or a test that decides directly
// may leave out the request's deps and context, and then the steps that need them (sessions ended, sign-in told, a
// refund sent at once) are left to their own schedules, as before the core.
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { AuthDeps } from "../auth/deps";
import type { DecisionKind, DecisionMessages } from "./decide";
import { NotFoundError, RuleError, type Db, type RequestMeta, type Tenant } from "../tenancy/tenant";

export interface BusinessRun {
  tenant: Tenant;
  meta: RequestMeta;
  /**
   * The core database (functions/tenancy/directory.db.ts): an invitation is approved against who has an account now, so
   * that what the inviting business typed never reaches an existing account (decision 029). Needed to approve one.
   */
  core?: Db;
  /** The deciding request's deps and load context, for the steps after the commit. */
  deps?: AuthDeps;
  context?: AppLoadContext;
}

/** A kind of a business's requests: its queue row (approval_requests) says which subject the decision reads. */
export interface BusinessDecisionKind<Subject> extends DecisionKind<BusinessRun, Subject> {
  /** The id `load` takes, from the request's queue row: the request's own, or the money row it would make. */
  subjectIdOf(request: { id: string; targetId: string }): string;
}

/** What a checker of a business reads when a change request is refused (approval_requests' own kinds). */
export const CHANGE_MESSAGES: DecisionMessages = {
  mayNotDecide: "Only a Super Administrator or an Administrator can decide requests.",
  missing: () => new NotFoundError("Request"),
  alreadyDecided: (status) => `This request is already ${status}.`,
  own: () => new RuleError("You cannot decide your own request."),
  reason: { min: 1, tooShort: "Give a reason for rejecting the request.", max: { length: 500, tooLong: "Keep the reason under 500 characters." } },
};

// The platform's requests (decision 039): one Platform Administrator asks, another decides under a fresh check, and
// only then is it applied. Deciding is the one decision core's (functions/decisions/decide.ts, decision 047), the same
// rules as a business's requests: nobody decides their own request, every step audited; one waiting request per kind
// and subject is this family's own. Each kind brings its spec: what it reads as
// and how it is applied. Applying is written to be safe to run twice for one request (two checkers approving at the
// same instant both apply; only one decision is recorded), because it may touch several databases, which D1 cannot
// write in one transaction.
import { NO_PERMISSION } from "../permissions";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { decide, refusalBeforeDeciding, type Decision, type DecisionKind } from "../decisions/decide";
import { ForbiddenError, NotFoundError } from "../tenancy/tenant";
import type { PlatformRequest } from "./guards";
import { platformCan } from "./roles";
import { insertPlatformRequest, platformRequest, recordDecision, type PlatformRequestKind, type PlatformRequestRow } from "./requests.db";

/** What applying a request may use: the request's context (bindings, waitUntil) and who approved it. */
export interface PlatformRun extends PlatformRequest {
  context: AppLoadContext;
}

export interface PlatformKindSpec {
  kind: PlatformRequestKind;
  /** The request as a line of the queue and its page's heading ("Onboard Tamale Shea Ɛkuo Cooperative"). */
  title(request: PlatformRequestRow): string;
  /** What the checker reads before deciding, label and value. */
  facts(request: PlatformRequestRow): readonly (readonly [string, string])[];
  /**
   * Applies an approved request and says what it did. Throws a RuleError when the platform no longer allows it (the
   * request then still waits, and the checker reads why). Safe to run twice for one request.
   */
  apply(run: PlatformRun, request: PlatformRequestRow): Promise<Record<string, unknown>>;
}

export type PlatformDecision = Decision;

export const ALREADY_WAITING = "A request like this already waits for a decision: it is shown below.";

/**
 * Records what `maker` asks for; the request waiting already when there is one (`made: false`). `audited` is what the
 * audit entry says of it when that must differ from `after` (a person's number is kept whole to apply, shown masked).
 */
export async function askPlatform(
  maker: PlatformRequest,
  kind: PlatformRequestKind,
  subjectId: string,
  after: Record<string, unknown>,
  audited: Record<string, unknown> = after,
): Promise<{ id: string; made: boolean }> {
  if (!platformCan(maker.staff.role, "platform:request")) throw new ForbiddenError(NO_PERMISSION);
  const { deps } = maker;
  return insertPlatformRequest(
    deps.db,
    { userId: maker.staff.userId, meta: deps.meta },
    { id: `preq_${crypto.randomUUID()}`, kind, subjectId, after, audited },
    new Date(deps.now()).toISOString(),
  );
}

/** The request `id`, of a kind `specs` knows; NotFoundError otherwise. */
export async function findPlatformRequest(core: D1Database, id: string, specs: Readonly<Partial<Record<PlatformRequestKind, PlatformKindSpec>>>) {
  const found = await platformRequest(core, id);
  const spec = found ? specs[found.kind] : undefined;
  if (!found || !spec) throw new NotFoundError("platform request");
  return { request: found, spec };
}

/**
 * A platform kind as the decision core (functions/decisions/decide.ts) decides it: the core's rules in the platform's
 * words, the kind's apply first, then the decision recorded only if the request still waits (recordDecision). Applying
 * is outside a batch (it may touch several databases), so a second approval at the same instant applies again, safely,
 * and finds the decision taken.
 */
export function platformDecision(spec: PlatformKindSpec): DecisionKind<PlatformRun, PlatformRequestRow> {
  return {
    kind: spec.kind,
    messages: {
      mayNotDecide: "Only a Platform Administrator decides platform requests.",
      missing: () => new NotFoundError("platform request"),
      alreadyDecided: (status) => `This request is already ${status}.`,
      own: () => new ForbiddenError("You made this request, so another Platform Administrator must decide it."),
      decidedMeanwhile: "Another administrator decided this request a moment ago.",
      reason: {
        min: 1,
        tooShort: "Give a reason for rejecting: the person who asked will read it.",
        max: { length: 500, tooLong: "Keep the reason under 500 characters." },
      },
    },
    pending: "pending",
    deciderOf: ({ staff }) => ({ userId: staff.userId, mayDecide: platformCan(staff.role, "platform:decide") }),
    async load({ deps }, id) {
      const found = await platformRequest(deps.db, id);
      return found && found.kind === spec.kind ? found : null;
    },
    stateOf: (request) => ({ status: request.status, makerId: request.makerId }),
    now: ({ deps }) => new Date(deps.now()).toISOString(),
    async commit(run, request, decided) {
      const outcome = decided.status === "approved" ? await spec.apply(run, request) : null;
      const actor = { userId: decided.by, meta: run.deps.meta };
      return recordDecision(run.deps.db, actor, request, { status: decided.status, reason: decided.reason, outcome }, decided.at);
    },
  };
}

/** Decides a waiting request through the decision core. */
export async function decidePlatform(checker: PlatformRun, request: PlatformRequestRow, spec: PlatformKindSpec, decision: PlatformDecision): Promise<void> {
  await decide(platformDecision(spec), checker, request.id, decision);
}

/** Why the staff member may not decide platform request `id` (the core's words), or null: asked before any check. */
export async function whyNotDecidePlatform(
  checker: PlatformRun,
  id: string,
  specs: Readonly<Partial<Record<PlatformRequestKind, PlatformKindSpec>>>,
): Promise<string | null> {
  const found = await platformRequest(checker.deps.db, id);
  const spec = found ? specs[found.kind] : undefined;
  if (!spec) return null;
  const refusal = await refusalBeforeDeciding(platformDecision(spec), checker, id);
  // A request not found is the action's own 404 to say, as for any other binding: the check decides nothing by itself.
  return refusal === null || refusal instanceof NotFoundError ? null : refusal.message;
}

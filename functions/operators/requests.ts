// The platform's maker-checker (decision 039): one Platform Administrator asks, another decides under a fresh check,
// and only then is it applied. The same rules as a business's engine (functions/approvals/): nobody decides their own
// request, one waiting request per kind and subject, every step audited. Each kind brings its spec: what it reads as
// and how it is applied. Applying is written to be safe to run twice for one request (two checkers approving at the
// same instant both apply; only one decision is recorded), because it may touch several databases, which D1 cannot
// write in one transaction.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { ForbiddenError, NotFoundError, RuleError } from "../tenancy/tenant";
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

export type PlatformDecision = { intent: "approve" } | { intent: "reject"; reason: string };

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
  if (!platformCan(maker.staff.role, "platform:request")) throw new ForbiddenError("You do not have permission to do that.");
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

/** Decides a waiting request: the engine's rules first, then (to approve) the kind's apply, then the decision recorded. */
export async function decidePlatform(checker: PlatformRun, request: PlatformRequestRow, spec: PlatformKindSpec, decision: PlatformDecision): Promise<void> {
  if (!platformCan(checker.staff.role, "platform:decide")) throw new ForbiddenError("Only a Platform Administrator decides platform requests.");
  if (request.makerId === checker.staff.userId) throw new ForbiddenError("You made this request, so another Platform Administrator must decide it.");
  if (request.status !== "pending") throw new RuleError(`This request is already ${request.status}.`);
  const { deps } = checker;
  const actor = { userId: checker.staff.userId, meta: deps.meta };
  const at = () => new Date(deps.now()).toISOString();
  if (decision.intent === "reject") {
    if (!(await recordDecision(deps.db, actor, request, { status: "rejected", reason: decision.reason, outcome: null }, at()))) throw decidedMeanwhile();
    return;
  }
  const outcome = await spec.apply(checker, request);
  if (!(await recordDecision(deps.db, actor, request, { status: "approved", reason: null, outcome }, at()))) throw decidedMeanwhile();
}

const decidedMeanwhile = () => new RuleError("Another administrator decided this request a moment ago.");

// Suspend, reactivate and close a business (decision 039), each a platform request a second administrator decides.
// Suspended: its people are signed out (sessions revoked now; the guard refuses the business at any later request),
// its own API keys are refused, its webhooks and payouts wait; payments the switch sends for it are still applied,
// because money that moved must be recorded. Closed: read-only for its people and its keys, nothing deleted.
// Reactivated: as before. Each is told to the business's administrators by SMS and written to both audit chains:
// the platform's (the engine's decision) and the business's own, where its people read what the platform did.
import { signInAuditStatement } from "../audit/audit.db";
import { revokeBusinessSessionsStatement } from "../auth/sign-in-sessions.db";
import { errorText, logEvent } from "../plumbing/log";
import { smsPortFor } from "../sms/sms";
import { businessPlace } from "../tenancy/directory.db";
import { databaseNamed } from "../tenancy/shards";
import { isBusinessMoving, MOVING_MESSAGE, RuleError } from "../tenancy/tenant";
import { resumeDeliveries } from "../webhooks/dispatch";
import { administratorPhones } from "../webhooks/sending.db";
import type { Lifecycle } from "./businesses.db";
import { coreLifecycleStatements, shardLifecycleStatement } from "./lifecycle.db";
import type { PlatformRequestKind, PlatformRequestRow } from "./requests.db";
import type { PlatformKindSpec, PlatformRun } from "./requests";

export type LifecycleKind = Extract<PlatformRequestKind, "suspend_business" | "reactivate_business" | "close_business">;

interface Change {
  verb: string;
  /** "suspended", "reactivated", "closed": what a business cannot be when the change does not apply. */
  done: string;
  to: Lifecycle;
  /** Where a business may be for the change to apply. */
  from: readonly Lifecycle[];
  /** What its administrators read. */
  sms: (business: string) => string;
}

export const LIFECYCLE_CHANGES: Record<LifecycleKind, Change> = {
  suspend_business: {
    verb: "Suspend",
    done: "suspended",
    to: "suspended",
    from: ["active"],
    sms: (business) =>
      `Partners Portal: ${business} has been suspended by the platform. Its people cannot sign in and its API keys are refused until it is reactivated.`,
  },
  reactivate_business: {
    verb: "Reactivate",
    done: "reactivated",
    to: "active",
    from: ["suspended", "closed"],
    sms: (business) => `Partners Portal: ${business} has been reactivated by the platform. Its people can sign in again.`,
  },
  close_business: {
    verb: "Close",
    done: "closed",
    to: "closed",
    from: ["active", "suspended"],
    sms: (business) => `Partners Portal: ${business} has been closed by the platform. Its records can still be read; nothing can be changed.`,
  },
};

/** What the maker says, kept on the request: the business's name as it was asked about, and why. */
export interface LifecycleAsk {
  businessName: string;
  reason: string;
  /** Where the business stood when asked. */
  from: Lifecycle;
}

const LIFECYCLE_WORDS: Record<Lifecycle, string> = { active: "Active", suspended: "Suspended", closed: "Closed" };

function askOf(request: PlatformRequestRow): LifecycleAsk {
  const after = request.after as Partial<LifecycleAsk>;
  return { businessName: String(after.businessName ?? request.subjectId), reason: String(after.reason ?? ""), from: after.from ?? "active" };
}

/** Refuses a change the business's standing does not allow (the page says why before anything is asked). */
export function lifecycleRefusal(kind: LifecycleKind, now: Lifecycle): string | null {
  const change = LIFECYCLE_CHANGES[kind];
  if (change.from.includes(now)) return null;
  return now === change.to
    ? `The business is already ${LIFECYCLE_WORDS[now].toLowerCase()}.`
    : `A ${LIFECYCLE_WORDS[now].toLowerCase()} business cannot be ${change.done}.`;
}

async function apply(kind: LifecycleKind, run: PlatformRun, request: PlatformRequestRow): Promise<Record<string, unknown>> {
  const change = LIFECYCLE_CHANGES[kind];
  const { deps, staff } = run;
  const env = run.context.cloudflare.env;
  const place = await businessPlace(deps.db, request.subjectId);
  if (!place) throw new RuleError("This business is no longer on the platform.");
  // Applied already (two approvals at once): nothing is done twice, no second message sent.
  if (place.lifecycle === change.to) return { lifecycle: change.to };
  const refusal = lifecycleRefusal(kind, place.lifecycle);
  if (refusal) throw new RuleError(refusal);
  const at = new Date(deps.now()).toISOString();
  const business = { businessId: place.businessId, db: databaseNamed(env, place.shard) };
  const name = askOf(request).businessName;
  // The business's own database first: while it is being moved its rows are fenced, and nothing at all changes.
  try {
    await business.db.batch([
      shardLifecycleStatement(business.db, place.businessId, change.to),
      signInAuditStatement(
        { userId: null, businessId: place.businessId },
        business.db,
        deps.meta,
        {
          action: `business.${change.to === "active" ? "reactivated" : change.to}`,
          entity: "business",
          entityId: place.businessId,
          after: { by: "platform", staff: staff.name, reason: askOf(request).reason },
        },
        at,
      ),
    ]);
  } catch (error) {
    if (isBusinessMoving(error)) throw new RuleError(MOVING_MESSAGE);
    throw error;
  }
  await deps.db.batch([
    ...coreLifecycleStatements(deps.db, place.businessId, change.to, at),
    ...(change.to === "suspended" ? [revokeBusinessSessionsStatement(deps.db, place.businessId, at)] : []),
  ]);
  // What waited while it was suspended goes out now.
  if (place.lifecycle === "suspended" && change.to !== "suspended") await resumeDeliveries(env, business, deps.now());
  const told = await tellAdministrators(run, business, change.sms(name));
  return { lifecycle: change.to, told };
}

/** Texts each administrator of the business; a message that could not be sent is logged, never a reason to undo. */
async function tellAdministrators(run: PlatformRun, business: { businessId: string; db: D1Database }, body: string): Promise<number> {
  const sms = smsPortFor(run.deps.config, run.deps.db);
  if (!sms) return 0;
  const phones = await administratorPhones(business);
  const sent = await Promise.allSettled(phones.map((to) => sms.send({ to, body })));
  for (const failed of sent.filter((s): s is PromiseRejectedResult => s.status === "rejected")) {
    logEvent("error", "platform.lifecycle_sms_failed", { businessId: business.businessId, error: errorText(failed.reason) });
  }
  return sent.filter((s) => s.status === "fulfilled").length;
}

function spec(kind: LifecycleKind): PlatformKindSpec {
  const change = LIFECYCLE_CHANGES[kind];
  return {
    kind,
    title: (request) => `${change.verb} ${askOf(request).businessName}`,
    facts: (request) => {
      const ask = askOf(request);
      return [
        ["Business", ask.businessName],
        ["Business id", request.subjectId],
        ["Now", LIFECYCLE_WORDS[ask.from]],
        ["Becomes", LIFECYCLE_WORDS[change.to]],
        ["Why", ask.reason],
      ];
    },
    apply: (run, request) => apply(kind, run, request),
  };
}

export const LIFECYCLE_SPECS: Record<LifecycleKind, PlatformKindSpec> = {
  suspend_business: spec("suspend_business"),
  reactivate_business: spec("reactivate_business"),
  close_business: spec("close_business"),
};

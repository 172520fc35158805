// The one maker-checker (decision 047). Every request that waits for a second person's decision, a business's change,
// a business's money request or the platform's, is decided by `decide` below, so the rules a checker meets are the same
// everywhere and in the same order: who may decide, the reason a rejection gives, the request still pending, never
// one's own, the kind's own rules, then one write that either records the decision whole or not at all, then what
// must follow it. A kind says only what is its own, in a DecisionKind: how it is read, what approving writes, what
// follows the commit and how its refusals are worded (the words each screen has always said). A new kind is one spec
// file and one entry in its family's list (functions/decisions/business.ts, functions/operators/kinds.ts).
import { ForbiddenError, NotFoundError, RuleError, nowIso } from "../tenancy/tenant";

export type Decision = { intent: "approve" } | { intent: "reject"; reason: string };

/** The decision as it is written: by whom, when, and the rejection's reason (trimmed, within its rule). */
export interface Decided {
  status: "approved" | "rejected";
  by: string;
  at: string;
  reason: string | null;
}

/** How long a rejection's reason must be, and what a checker reads when it is not. */
export interface ReasonRule {
  min: number;
  tooShort: string;
  /** Null: any length (the kind keeps what its record holds). */
  max: { length: number; tooLong: string } | null;
}

/** What a checker reads when the core refuses, in the words of the kind's screens. */
export interface DecisionMessages {
  /** The checker's role may not decide this kind. */
  mayNotDecide: string;
  /** The id is not a request of this kind here (another business's too): a 404. */
  missing(): Error;
  alreadyDecided(status: string): string;
  /** The checker made the request. */
  own(): Error;
  /** Another decision was written first while this one was; by default the fresh request's alreadyDecided. */
  decidedMeanwhile?: string;
  reason: ReasonRule;
}

export interface DecisionKind<Run, Subject> {
  readonly kind: string;
  readonly messages: DecisionMessages;
  /** The status of a request that still waits ("pending", or a money row's "pending_approval"). */
  readonly pending: string;
  deciderOf(run: Run): { userId: string; mayDecide: boolean };
  load(run: Run, id: string): Promise<Subject | null>;
  stateOf(subject: Subject): { status: string; makerId: string };
  /**
   * The kind's own rules before an approval (an employee's own access; a target changed since): throws its refusal.
   * May give back the subject with what the approval found out for its write (an invitation's account).
   */
  beforeApproval?(run: Run, subject: Subject): Promise<Subject | void>;
  /**
   * Writes the decision, all or nothing: false when another decision came first and nothing was written. Throws when
   * the database refused it (a guard row, a constraint); then nothing was written either.
   */
  commit(run: Run, subject: Subject, decided: Decided): Promise<boolean>;
  /** After a refused write, before the decided-meanwhile check: a refusal that must win over it (a stale target). */
  recheck?(run: Run, subject: Subject, decided: Decided): Promise<void>;
  /** After a refused write that no other decision explains: the refusal in the checker's words, or null (a fault). */
  explain?(run: Run, subject: Subject, decided: Decided, error: unknown): Error | null | Promise<Error | null>;
  /** What follows a committed decision outside its write (sessions ended, a refund sent, sign-in told). */
  afterCommit?(run: Run, subject: Subject, decided: Decided): Promise<void>;
  /** The decision's time; the core's clock by default. */
  now?(run: Run): string;
}

/** The reason as written, trimmed; refused when it is too short or too long. */
export function reasonOf(rule: ReasonRule, reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length < rule.min) throw new RuleError(rule.tooShort);
  if (rule.max && trimmed.length > rule.max.length) throw new RuleError(rule.max.tooLong);
  return trimmed;
}

/** Decides request `id` of `kind`; resolves to the request as decided. */
export async function decide<Run, Subject>(kind: DecisionKind<Run, Subject>, run: Run, id: string, decision: Decision): Promise<Subject> {
  const messages = kind.messages;
  const reason = decision.intent === "reject" ? reasonOf(messages.reason, decision.reason) : null;
  const { decider, loaded } = await decidable(kind, run, id);
  const subject = (decision.intent === "approve" ? await kind.beforeApproval?.(run, loaded) : undefined) ?? loaded;
  const decided: Decided = { status: reason === null ? "approved" : "rejected", by: decider.userId, at: kind.now?.(run) ?? nowIso(), reason };
  let written: boolean;
  try {
    written = await kind.commit(run, subject, decided);
  } catch (error) {
    await kind.recheck?.(run, subject, decided);
    await refuseIfDecidedMeanwhile(kind, run, id);
    throw (await kind.explain?.(run, subject, decided, error)) ?? error;
  }
  if (!written) {
    await refuseIfDecidedMeanwhile(kind, run, id);
    throw new RuleError(messages.decidedMeanwhile ?? messages.alreadyDecided("decided"));
  }
  await kind.afterCommit?.(run, subject, decided);
  return (await kind.load(run, id)) ?? subject;
}

/** The core's first rules, in their order: who may decide, the request here and still pending, never one's own. */
async function decidable<Run, Subject>(kind: DecisionKind<Run, Subject>, run: Run, id: string): Promise<{ decider: { userId: string }; loaded: Subject }> {
  const messages = kind.messages;
  const decider = kind.deciderOf(run);
  if (!decider.mayDecide) throw new ForbiddenError(messages.mayNotDecide);
  const loaded = await kind.load(run, id);
  if (!loaded) throw messages.missing();
  const { status, makerId } = kind.stateOf(loaded);
  if (status !== kind.pending) throw new RuleError(messages.alreadyDecided(status));
  if (makerId === decider.userId) throw messages.own();
  return { decider, loaded };
}

/**
 * Why the person may not decide request `id`, by the same rules and words as `decide`, or null when they may: asked
 * before a fresh check is made for the decision, so nobody is sent a code for a decision that would be refused.
 */
export async function refusalBeforeDeciding<Run, Subject>(kind: DecisionKind<Run, Subject>, run: Run, id: string): Promise<Error | null> {
  try {
    await decidable(kind, run, id);
    return null;
  } catch (error) {
    if (error instanceof ForbiddenError || error instanceof RuleError || error instanceof NotFoundError) return error;
    throw error;
  }
}

/** Another checker's decision came first: said as such, never as a fault. */
async function refuseIfDecidedMeanwhile<Run, Subject>(kind: DecisionKind<Run, Subject>, run: Run, id: string): Promise<void> {
  const fresh = await kind.load(run, id);
  if (!fresh) return;
  const { status } = kind.stateOf(fresh);
  if (status !== kind.pending) throw new RuleError(kind.messages.decidedMeanwhile ?? kind.messages.alreadyDecided(status));
}

/** One request of a batch that the rules refused, named for the person with its reason. */
export interface Refused {
  id: string;
  subject: string;
  message: string;
}

/**
 * Several requests decided at once (the queue's bulk decision): each through its own decision, applied and audited
 * alone, so one refused (stale, decided meanwhile, one's own) is named with its reason and the others still go through.
 * `refusalOf` turns a rule's refusal into words and rethrows a fault, which fails the batch.
 */
export async function decideEach(
  ids: readonly string[],
  one: (id: string) => Promise<void>,
  refusalOf: (id: string, error: unknown) => Promise<Refused>,
): Promise<{ decided: number; refused: Refused[] }> {
  const outcome = { decided: 0, refused: [] as Refused[] };
  for (const id of ids) {
    try {
      await one(id);
      outcome.decided += 1;
    } catch (error) {
      outcome.refused.push(await refusalOf(id, error));
    }
  }
  return outcome;
}

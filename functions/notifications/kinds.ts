// What a notice says (decision 053): its kinds, the channels it may go by, and its words, written once when the notice
// is made. Pure, so the fan-out, the bell, the emails and their tests read the same sentences.
import type { ApprovalAction } from "../approvals/change-kinds";
import { withoutCardNumbers } from "../card-numbers/card-numbers";
import { can, type Permission, type Role } from "../permissions";

/**
 * What a notice may be about, and who it is for: the person it concerns ("self": a request's maker, an added member,
 * the one whose sign-in changed) or every member whose role has the permission.
 */
/** Who works the money: failed payouts, runs and refunds are theirs (the administrators may turn them on). */
const MONEY_ROLES: readonly Role[] = ["Super Administrator", "Administrator", "Finance"];

const KINDS = {
  "request.waiting": { name: "A request waits for my decision", audience: "decide:approval", sms: "offered", digest: true },
  "request.approved": { name: "My request was approved", audience: "self", digest: true },
  "request.rejected": { name: "My request was rejected", audience: "self", digest: true },
  "member.added": { name: "I was added to a business", audience: "self", sms: "on", beforeChoosing: true },
  "member.role_changed": { name: "My role was changed", audience: "self", sms: "on" },
  "member.removed": { name: "I was removed from a business", audience: "self", sms: "on" },
  "security.sign_in": { name: "A sign-in from a new browser", audience: "self", always: true },
  "security.factor_changed": { name: "A passkey, phone or authenticator app was added or removed", audience: "self", always: true, sms: "on" },
  "security.signed_out_everywhere": { name: "I was signed out everywhere", audience: "self", always: true, sms: "on" },
  "payout.failed": { name: "A payout failed on its rail", audience: MONEY_ROLES, sms: "offered", offByDefault: ["Super Administrator", "Administrator"] },
  "settlement.failed": { name: "A settlement run finished with failed payouts", audience: MONEY_ROLES, offByDefault: ["Super Administrator", "Administrator"] },
  "refund.failed": { name: "A refund failed on its rail", audience: MONEY_ROLES, sms: "offered", offByDefault: ["Super Administrator", "Administrator"] },
  "dispute.due": { name: "A dispute's response is due in 3 days, and again in 1 day", audience: "respond:dispute", sms: "offered", digest: true },
  "webhook.failing": { name: "A webhook endpoint keeps failing", audience: "manage:developer" },
  "webhook.disabled": { name: "A webhook endpoint was disabled", audience: "manage:developer" },
  "terminal.silent": {
    name: "Terminals went silent (in the 07:00 digest)",
    audience: "manage:terminal",
    digestOnly: true,
    offByDefault: ["Super Administrator", "Administrator"],
  },
  digest: { name: "A daily digest at 07:00 of what waits, instead of an email for each", audience: "self", offByDefault: "everyone" },
} as const satisfies Record<string, KindRule>;

interface KindRule {
  name: string;
  /** The one person the event concerns ("self"), the roles with a permission, or these roles. */
  audience: Permission | "self" | readonly Role[];
  /** SMS: sent unless turned off ("on"), or only to those who turn it on ("offered"); absent: never by SMS. */
  sms?: "on" | "offered";
  /** Security notices: always sent, on every channel the kind has; nobody can turn them off. */
  always?: true;
  /** Told in the 07:00 digest instead of its own email for people who chose the digest. */
  digest?: true;
  /** Never an email of its own: only a line of the digest. */
  digestOnly?: true;
  /** Told to a person before they can choose anything (their first day): not among their choices. */
  beforeChoosing?: true;
  /** Off by email until turned on, for these roles (or everyone): they see it in the portal all the same. */
  offByDefault?: readonly Role[] | "everyone";
}

export type NotificationKind = keyof typeof KINDS;
export const NOTIFICATION_KINDS = Object.keys(KINDS) as NotificationKind[];

/** The channels besides the bell, which every notice reaches. */
export const NOTIFICATION_CHANNELS = ["email", "sms"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** What each kind is called on the person's preferences and in an email's unsubscribe line. */
export const KIND_NAMES = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, KINDS[kind].name])) as Record<NotificationKind, string>;

function rule(kind: NotificationKind): KindRule {
  return KINDS[kind];
}

/** Security notices: sent whatever the person chose. */
export function isAlwaysSent(kind: NotificationKind): boolean {
  return rule(kind).always === true;
}

/** Whether a kind is sent on a channel at all (SMS is for the few events that warrant it; silent terminals only in the digest). */
export function kindHasChannel(kind: NotificationKind, channel: NotificationChannel): boolean {
  if (channel === "sms") return rule(kind).sms !== undefined;
  return true;
}

/** Told in the digest instead of by its own email, for people who chose the digest. */
export function isDigestable(kind: NotificationKind): boolean {
  return rule(kind).digest === true;
}

export function isDigestOnly(kind: NotificationKind): boolean {
  return rule(kind).digestOnly === true;
}

/** Whether a person of this role is one a kind is for (who "self" kinds are for is the event's own business). */
export function kindIsFor(kind: NotificationKind, role: Role): boolean {
  const { audience } = rule(kind);
  if (audience === "self") return true;
  return typeof audience === "string" ? can(role, audience) : audience.includes(role);
}

/** What a person gets before choosing: defaults that fit their role (Finance hears of failed payouts, admins may opt in). */
export function wantsByDefault(kind: NotificationKind, channel: NotificationChannel, role: Role): boolean {
  const kindRule = rule(kind);
  if (!kindHasChannel(kind, channel)) return false;
  if (kindRule.always) return true;
  if (channel === "sms") return kindRule.sms === "on";
  const off = kindRule.offByDefault;
  return !(off === "everyone" || off?.includes(role));
}

/** Whether a person may choose a kind on a channel (security notices and channels a kind does not use cannot be). */
export function isChoosable(kind: NotificationKind, channel: NotificationChannel): boolean {
  return kindHasChannel(kind, channel) && !isAlwaysSent(kind) && !rule(kind).beforeChoosing;
}

/** The kinds a person of this role sees among their choices (those always sent included, shown fixed). */
export function choicesFor(role: Role): NotificationKind[] {
  return NOTIFICATION_KINDS.filter((kind) => kindIsFor(kind, role) && !rule(kind).beforeChoosing);
}

/** The event a notice comes from: one notice a person an event, whoever's run writes it first. */
export function eventKey(kind: string, subjectId: string): string {
  return `${kind}:${subjectId}`;
}

const THINGS: Record<string, string> = {
  merchant: "merchant",
  point_of_sale: "point of sale",
  settlement_account: "settlement account",
  employee: "employee",
  security_policy: "security policy",
  terminal: "terminal",
};

/** What a request asks for, as a sentence's end: "add a merchant", "change the settlement account", "a transfer". */
export function requestAsks(kind: string, action: ApprovalAction): string {
  if (kind === "transfer") return "move money in a transfer";
  if (kind === "refund") return "give a payment's money back in a refund";
  if (kind === "security_policy") return "change the security policy";
  if (kind === "terminal") return action === "deactivate" ? "take a terminal off its point of sale" : "assign a terminal";
  if (kind === "employee" && action === "create") return "invite an employee";
  const thing = THINGS[kind] ?? "record";
  if (action === "create") return `add ${/^[aeiou]/.test(thing) ? "an" : "a"} ${thing}`;
  if (action === "deactivate") return `deactivate the ${thing}`;
  return `change the ${thing}`;
}

/**
 * Words safe to send anywhere: no card number (the one scanner), and no phone or account number in full (a run of
 * seven or more digits standing on its own, spaces and dashes between them, keeps its last four). A run inside a code
 * (a payment's reference, KFF-261104-0000002) is the code, which people search by: it stays whole.
 */
export function safeWords(text: string): string {
  return withoutCardNumbers(text)
    .replace(/(?<![\p{L}\p{N}-])\d(?:[ -]?\d){6,}(?![\p{L}\p{N}])/gu, (run) => `••••${run.replace(/\D/g, "").slice(-4)}`)
    .replace(/\s+/g, " ")
    .trim();
}

function subjectPart(subject: string | null): string {
  return subject ? `: ${subject}` : "";
}

export interface NoticeWords {
  title: string;
  body: string;
}

export function waitingWords(request: { kind: string; action: ApprovalAction; maker: string; subject: string | null }): NoticeWords {
  return {
    title: "A request waits for your decision",
    body: safeWords(`${request.maker} asks to ${requestAsks(request.kind, request.action)}${subjectPart(request.subject)}.`),
  };
}

export function decidedWords(request: {
  kind: string;
  action: ApprovalAction;
  status: "approved" | "rejected";
  checker: string;
  subject: string | null;
  reason: string | null;
}): NoticeWords {
  const asked = `your request to ${requestAsks(request.kind, request.action)}${subjectPart(request.subject)}`;
  if (request.status === "approved") return { title: "Your request was approved", body: safeWords(`${request.checker} approved ${asked}.`) };
  return { title: "Your request was rejected", body: safeWords(`${request.checker} rejected ${asked}. Reason: ${request.reason ?? "none given"}`) };
}

/** A day as the SPEC writes one (21 Nov 2026), of an instant in Africa/Accra (UTC+0, no daylight saving). */
export function accraDay(ms: number): string {
  const date = new Date(ms);
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][date.getUTCMonth()]!;
  return `${String(date.getUTCDate()).padStart(2, "0")} ${month} ${date.getUTCFullYear()}`;
}

/** GHS with two decimals and thousands separators, from pesewas. */
export function cedis(pesewas: number): string {
  return `GHS ${(pesewas / 100).toLocaleString("en-GH", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function disputeDueWords(dispute: { days: number; dueAt: number; amount: number; merchant: string; reference: string }): NoticeWords {
  return {
    title: dispute.days === 1 ? "A dispute's response is due tomorrow" : `A dispute's response is due in ${dispute.days} days`,
    // The deadline is the end of its day (evidence_due_at): the last day to answer is the day before that instant.
    body: safeWords(
      `${dispute.merchant}'s payment ${dispute.reference} (${cedis(dispute.amount)}) is disputed: answer with a response and evidence by ${accraDay(dispute.dueAt - 1)}.`,
    ),
  };
}

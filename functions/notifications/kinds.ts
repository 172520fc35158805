// What a notice says (decision 053): its kinds, the channels it may go by, and its words, written once when the notice
// is made. Pure, so the fan-out, the bell, the emails and their tests read the same sentences.
import type { ApprovalAction } from "../approvals/change-kinds";
import { withoutCardNumbers } from "../card-numbers/card-numbers";

export const NOTIFICATION_KINDS = ["request.waiting", "request.approved", "request.rejected", "dispute.due"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The channels besides the bell, which every notice reaches. */
export const NOTIFICATION_CHANNELS = ["email"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** A person's choice per kind and channel, and what they get before choosing (every kind by email today). */
export function wantsByDefault(_kind: NotificationKind, _channel: NotificationChannel): boolean {
  return true;
}

/** What each kind is called on the person's preferences and in an email's unsubscribe line. */
export const KIND_NAMES: Record<NotificationKind, string> = {
  "request.waiting": "A request waits for my decision",
  "request.approved": "My request was approved",
  "request.rejected": "My request was rejected",
  "dispute.due": "A dispute's response is due in 3 days, and again in 1 day",
};

/** The event a notice comes from: one notice a person an event, whoever's run writes it first. */
export function eventKey(kind: "request.waiting" | "request.decided" | "dispute.due3" | "dispute.due1", subjectId: string): string {
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
function accraDay(ms: number): string {
  const date = new Date(ms);
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][date.getUTCMonth()]!;
  return `${String(date.getUTCDate()).padStart(2, "0")} ${month} ${date.getUTCFullYear()}`;
}

/** GHS with two decimals and thousands separators, from pesewas. */
function cedis(pesewas: number): string {
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

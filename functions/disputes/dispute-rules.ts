// The rules of a dispute that the page and the server share: its statuses, the evidence limits, and when a
// response may still change. Pure: the dispute page says the limits the server enforces.

export const DISPUTE_STATUSES = ["open", "submitted", "won", "lost"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** Evidence files: at most this many bytes each (the form says so, the table checks it). */
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024;
/** At most this many files a dispute: a response is a few receipts and photos, not an archive. */
export const MAX_EVIDENCE_FILES = 10;
export const MAX_RESPONSE_CHARS = 5000;

/** Whether staff may still change the response: open and before the deadline. */
export function isAnswerable(dispute: { status: DisputeStatus; evidenceDueAt: number }, now: number): boolean {
  return dispute.status === "open" && now < dispute.evidenceDueAt;
}

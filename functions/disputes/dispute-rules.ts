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

/**
 * The card schemes' published descriptions of their dispute reason codes (Visa's since Visa Claims Resolution,
 * Mastercard's chargeback codes). A processor sends the code alone; people need its meaning to answer it.
 */
const REASON_CODES: Readonly<Record<string, string>> = {
  "10.1": "EMV liability shift counterfeit fraud",
  "10.2": "EMV liability shift non-counterfeit fraud",
  "10.3": "Other fraud: card present",
  "10.4": "Other fraud: card absent",
  "10.5": "Visa Fraud Monitoring Program",
  "11.1": "Card recovery bulletin",
  "11.2": "Declined authorisation",
  "11.3": "No authorisation",
  "12.1": "Late presentment",
  "12.2": "Incorrect transaction code",
  "12.3": "Incorrect currency",
  "12.4": "Incorrect account number",
  "12.5": "Incorrect amount",
  "12.6.1": "Duplicate processing",
  "12.6.2": "Paid by other means",
  "12.7": "Invalid data",
  "13.1": "Merchandise or services not received",
  "13.2": "Cancelled recurring transaction",
  "13.3": "Not as described or defective merchandise or services",
  "13.4": "Counterfeit merchandise",
  "13.5": "Misrepresentation",
  "13.6": "Credit not processed",
  "13.7": "Cancelled merchandise or services",
  "13.8": "Original credit transaction not accepted",
  "13.9": "Non-receipt of cash or load transaction value",
  "4808": "Authorisation-related chargeback",
  "4834": "Point-of-interaction error",
  "4837": "No cardholder authorisation",
  "4840": "Fraudulent processing of transactions",
  "4841": "Cancelled recurring or digital goods transaction",
  "4842": "Late presentment",
  "4849": "Questionable merchant activity",
  "4853": "Cardholder dispute",
  "4855": "Goods or services not provided",
  "4859": "Addendum, no-show or ATM dispute",
  "4860": "Credit not processed",
  "4863": "Cardholder does not recognise: potential fraud",
  "4870": "Chip liability shift",
  "4871": "Chip/PIN liability shift",
};

/** A reason code with its meaning beside it ("13.1 · Merchandise or services not received"); an unknown code as sent. */
export function reasonCodeLabel(code: string): string {
  const description = REASON_CODES[code.trim()];
  return description ? `${code} · ${description}` : code;
}

// What every way of sending a text message shares (functions/sms/sms.ts picks one): the message, the port, and the one
// error a refused or failed send throws, with a category the caller turns into words for the person (decision 040).

export interface SmsMessage {
  /** 233XXXXXXXXX */
  to: string;
  body: string;
}

export type SmsPortKind = "gateway" | "dev-outbox" | "arkesel" | "hubtel" | "mnotify" | "africastalking" | "twilio";

export interface SmsPort {
  readonly kind: SmsPortKind;
  /** Resolves once the message is accepted; throws SmsDeliveryError otherwise. */
  send(message: SmsMessage): Promise<void>;
}

/**
 * Why a message was not accepted, as far as the person is concerned:
 * - auth: the provider refused our key or account (ours to fix);
 * - balance: the account has no credit left (ours to fix);
 * - sender: the sender id is not approved or not allowed (ours to fix);
 * - number: this phone number cannot be sent to (invalid, unroutable, blocked): the person's number needs a look;
 * - unavailable: no answer, an error on the provider's side, or an answer we could not read (try again later).
 */
export type SmsRefusal = "auth" | "balance" | "sender" | "number" | "unavailable";

export class SmsDeliveryError extends Error {
  override name = "SmsDeliveryError";
  /** For the person's message; the text (for the log and the audit) says what the provider answered. */
  readonly reason: SmsRefusal;
  constructor(message: string, reason: SmsRefusal = "unavailable") {
    super(message);
    this.reason = reason;
  }
}

export const SMS_GATEWAY_TIMEOUT_MS = 10_000;

/** A provider's own words, made safe for the log and the append-only audit log: no phone number in full, and short. */
export function providerWords(text: string): string {
  return text
    .replace(/\+?\d[\d ]{6,}\d/g, "[number]")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 160);
}

// What a payout or refund rail answered, in one shape for the three ways an answer arrives: the reply to the
// request, the asynchronous callback, and the status poll. All three go through the same apply functions
// (functions/settlement/payouts.ts applyPayoutAnswer, functions/refunds/send.ts applyRefundAnswer), so an outcome
// is written once whichever comes first (docs/decisions/041-payout-and-refund-rails.md).

/** The rail's own reference and its own status word, shown on the settlement and refund screens. */
export interface RailMark {
  rail: string;
  reference: string | null;
  status: string;
}

export type RailAnswer =
  | { ok: true; rail?: RailMark }
  /** Definitely not done: a later attempt may be made (with a new key, so the rail cannot confuse it with this one). */
  | { ok: false; error: string; pending?: false; rail?: RailMark }
  /** Taken, or unknown (no answer, a 5xx): not failed, never sent again under a new key; the poll asks later. */
  | { ok: false; pending: true; error: string; rail: RailMark };

/**
 * The key an attempt is sent under: the settlement reference or the refund id for the first, with "-r<n>" for a later
 * attempt. A later attempt exists only after a definite failure of the one before, so one order is never with the rail
 * under two live keys; and the key names the order, so a callback or poll answer finds it without any other table.
 */
export function railKey(base: string, attempt: number): string {
  return attempt <= 1 ? base : `${base}-r${attempt}`;
}

/** The order and attempt a key names (railKey's inverse). */
export function parseRailKey(key: string): { base: string; attempt: number } {
  const match = /^(.+)-r(\d{1,3})$/.exec(key);
  return match ? { base: match[1]!, attempt: Number(match[2]) } : { base: key, attempt: 1 };
}

/** The rails that answer by a signed callback (functions/rails/callbacks.ts). */
export const CALLBACK_RAILS = ["switch", "paystack"] as const;
export type CallbackRail = (typeof CALLBACK_RAILS)[number];

/**
 * The rail an attempt through this port goes to, when it is one that calls back; null for the simulator (and the
 * tests' ports), whose answers are only ever the reply. Written with the attempt, before it is sent: a callback may
 * move only what was sent to its own rail.
 */
export function callbackRailOf(portKind: string): CallbackRail | null {
  return (CALLBACK_RAILS as readonly string[]).includes(portKind) ? (portKind as CallbackRail) : null;
}

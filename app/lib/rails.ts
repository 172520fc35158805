// How a payout's or a refund's rail reads on the screens (docs/decisions/041-payout-and-refund-rails.md):
// the rail's name in the business's words, the rail's own reference and status word as the rail said them, and since
// when the order waits for the rail's answer. The columns are the settlement's and the refund's (migration 0031).
import { NOT_AVAILABLE, proseDate } from "./format";

/** A settlement's or a refund's rail columns, as their *.db.ts modules read them. */
export interface RailColumns {
  rail: string | null;
  railReference: string | null;
  railStatus: string | null;
  railWaitingSince: string | null;
}

/** What a screen shows of the rail; null parts are left out (never the word "null"). */
export interface RailView {
  /** The rail's name in the business's words ("Acquirer switch"), or null when no rail was named. */
  name: string | null;
  reference: string | null;
  status: string | null;
  /** While the order waits for the rail's answer: since when (Africa/Accra, SPEC section 9's default format); null once answered. */
  waitingSince: string | null;
}

const RAIL_NAMES: Record<string, string> = {
  switch: "Acquirer switch",
  paystack: "Paystack",
  simulator: "Simulator",
  simulated: "Simulator",
};

/** The rail's name as a person reads it: a rail the portal does not know by name reads as it was stored. */
export function railName(rail: string | null | undefined): string | null {
  const word = rail?.trim();
  if (!word) return null;
  return RAIL_NAMES[word.toLowerCase()] ?? word;
}

/** When an order went to wait, as shown (Africa/Accra, SPEC section 9's default format); null when it does not wait. */
export function railWaitingSince(since: string | null | undefined): string | null {
  if (!since) return null;
  const at = proseDate(since);
  return at === NOT_AVAILABLE ? null : at;
}

/** The sentence shown while an order waits. */
export const RAIL_WAITING = "Waiting for the rail's answer";

const present = (text: string | null | undefined) => (text && text.trim() !== "" && text !== "null" ? text : null);

/** The rail as shown, or null when the order was never sent to a rail that said anything (the screens show nothing). */
export function railViewOf(columns: RailColumns): RailView | null {
  const view: RailView = {
    name: railName(present(columns.rail)),
    reference: present(columns.railReference),
    status: present(columns.railStatus),
    waitingSince: railWaitingSince(present(columns.railWaitingSince)),
  };
  return view.name || view.reference || view.status || view.waitingSince ? view : null;
}

/** One line for a list: "Acquirer switch · processing", or null when there is nothing to say. */
export function railSummary(view: RailView | null): string | null {
  if (!view) return null;
  const parts = [view.name, view.status].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(" · ") : null;
}

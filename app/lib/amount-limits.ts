// An amount typed in cedis against the limits it must stay within (SPEC 5's
// "exceeds a limit"): a transfer's available balance now, a refund's amount paid
// later. Isomorphic, so a form can say it next to the field before it is sent;
// the server's own checks stay the authority.
import * as v from "valibot";
import { formatAmount } from "./format";
import { exceedsLimit, parseCedis } from "#app/lib/forms/validation";

/** A form's amount, typed in cedis ("1,250.00", "GHS 12"), as whole pesewas above zero. */
export const cedisAmount = v.pipe(
  v.string("Enter an amount."),
  v.trim(),
  v.nonEmpty("Enter an amount."),
  v.check((typed) => parseCedis(typed) !== null, "Enter an amount in cedis, like 1,250.00."),
  v.transform((typed) => parseCedis(typed) ?? 0),
  v.minValue(1, "Enter an amount above zero."),
);

export interface AmountLimit {
  /** Pesewas. */
  pesewas: number;
  /** What the limit is, as the message says it: "available balance", "amount paid". */
  name: string;
}

/** The words the server says too (functions/approvals/transfer-requests.db.ts), so both sides read the same. */
export function exceedsLimitMessage(limit: AmountLimit): string {
  return `This amount exceeds the ${limit.name} of GHS ${formatAmount(limit.pesewas)}.`;
}

/**
 * The message for the first limit a typed amount ("1,250.50") is above, or null.
 * Text that is not an amount is left to the amount's own rule (it is not "over").
 */
export function amountLimitError(typed: string | null | undefined, limits: readonly AmountLimit[]): string | null {
  if (parseCedis(typed) === null) return null;
  const cedis = typed!.trim().replace(/^GHS\s*/i, "");
  // Cedis against cedis: "1,250.50" and 125050 / 100 are the same double.
  const over = limits.find((limit) => exceedsLimit(cedis, limit.pesewas / 100));
  return over ? exceedsLimitMessage(over) : null;
}

// The filter of /money/settlement-history as its URL asks for it, shared by the list and its CSV so both hold the same
// settlements. Server-only: its valibot schemas check the URL in the loader and never reach the browser.
import * as v from "valibot";
import { QUICK_RANGES, resolveRange } from "#app/lib/date-range";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";
import { readMerchantSearch } from "#app/lib/merchant-search";
import type { PickedPeriod } from "#app/components/lists/period-picker";

export const SETTLEMENT_LIST_PARAMS = {
  status: oneOf(["pending", "paid", "failed"] as const),
  // A merchant's name or code as typed: a list of every merchant would not fit a large business.
  q: searchParam,
  s: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,100}$/))),
  // One merchant's settlements by its id, as the transactions list filters (a merchant's page links here).
  merchant: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))),
  // The day each settlement is for; every day unless a range is chosen.
  range: oneOf(QUICK_RANGES.map((r) => r.value)),
  from: v.optional(v.pipe(v.string(), v.maxLength(10))),
  to: v.optional(v.pipe(v.string(), v.maxLength(10))),
};

/** What the list shows when typed days are refused. */
export const SETTLEMENT_FALLBACK_RANGE = "30d";

export function settlementFilter(url: URL, now: number) {
  const { filters, page, trail } = listParams(url, SETTLEMENT_LIST_PARAMS);
  const resolved = filters.range ? resolveRange(filters, now, SETTLEMENT_FALLBACK_RANGE) : null;
  const typed = readMerchantSearch(filters.q);
  const query = {
    status: filters.status,
    merchantId: filters.merchant,
    merchantSearch: typed.search,
    merchantNumber: typed.number,
    ...(resolved ? { from: resolved.from, to: resolved.to } : {}),
  };
  const period: PickedPeriod = resolved
    ? { range: resolved.range, fromDay: resolved.fromDay, toDay: resolved.toDay, error: resolved.error }
    : { range: null, fromDay: "", toDay: "", error: null };
  return { query, filters, period, page, trail };
}

// The filter of /money/merchant-funds as its URL asks for it (search, one merchant, the period), shared by the list
// and its CSV so both hold the same merchants and the same period's sums. Server-only (valibot stays out of the browser).
import * as v from "valibot";
import { QUICK_RANGES, resolveRange } from "#app/lib/date-range";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";
import { readMerchantSearch } from "#app/lib/merchant-search";

export const FUNDS_LIST_PARAMS = {
  q: searchParam,
  range: oneOf(QUICK_RANGES.map((r) => r.value)),
  from: v.optional(v.pipe(v.string(), v.maxLength(10))),
  to: v.optional(v.pipe(v.string(), v.maxLength(10))),
  transfer: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))),
  // One merchant's funds by its id, as the transactions list filters (a merchant's page links here).
  merchant: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))),
};

export function fundsFilter(url: URL, now: number) {
  const { filters, page, trail } = listParams(url, FUNDS_LIST_PARAMS);
  const period = resolveRange(filters, now, "30d");
  return { query: readMerchantSearch(filters.q), filters, period, page, trail };
}

// The filter of /transactions as its URL asks for it (shared by the list and its CSV). Server-only: its valibot schemas
// check the URL in the loader and never reach the browser (decision 043).
import * as v from "valibot";
import type { TransactionFilter } from "#server/payments/transactions.db";
import { QUICK_RANGES, resolveRange } from "#app/lib/date-range";
import { listParams, oneOf, searchParam } from "#app/lib/lists/list-params";
import { readTransactionSearch } from "./transaction-search";
import { NETWORKS, TRANSACTION_STATUSES } from "#app/lib/transactions-view";

const id = v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/)));

export const TRANSACTION_LIST_PARAMS = {
  q: searchParam,
  range: oneOf(QUICK_RANGES.map((r) => r.value)),
  from: v.optional(v.pipe(v.string(), v.maxLength(10))),
  to: v.optional(v.pipe(v.string(), v.maxLength(10))),
  status: oneOf(TRANSACTION_STATUSES),
  channel: oneOf(["card", "mobile_money"] as const),
  network: oneOf(NETWORKS),
  merchant: id,
  pos: id,
  terminal: id,
};

/** The filter the URL asks for, as the data layer takes it (shared with the CSV). */
export function transactionFilter(url: URL, now: number) {
  const { filters, page, trail } = listParams(url, TRANSACTION_LIST_PARAMS);
  const period = resolveRange(filters, now);
  const filter: TransactionFilter = {
    from: period.from,
    to: period.to,
    status: filters.status,
    channel: filters.channel,
    network: filters.network,
    merchantId: filters.merchant,
    pointOfSaleId: filters.pos,
    terminalId: filters.terminal,
    ...readTransactionSearch(filters.q),
  };
  return { filter, filters, period, page, trail };
}

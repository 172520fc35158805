// The requests that move money (a transfer, a refund), for callers that hold a row's id and no page: each decision goes
// through the decision core (functions/decisions/decide.ts, decision 047) with its kind's spec from the one list of a
// business's kinds (functions/decisions/business.ts). The rules (the checker's permission, the maker never deciding,
// the already-decided refusal, one batch) are the core's; what each kind writes is its spec's.
import { BUSINESS_DECISIONS } from "../decisions/business";
import type { BusinessDecisionKind, BusinessRun } from "../decisions/business-run";
import { decide } from "../decisions/decide";
import type { Transfer } from "../ledger/transfers.db";
import type { Refund } from "../refunds/refunds.db";
import type { MoneyRequestKind } from "./change-kinds";
import type { RequestMeta, Tenant } from "../tenancy/tenant";

/** The row each kind's request decides. */
export interface MoneyRequestRows {
  transfer: Transfer;
  refund: Refund;
}

function moneyKind<K extends MoneyRequestKind>(kind: K): BusinessDecisionKind<MoneyRequestRows[K]> {
  return BUSINESS_DECISIONS[kind] as BusinessDecisionKind<MoneyRequestRows[K]>;
}

/** The row a money request decides, by the row's id (a request's target), in this business. */
export async function readMoneyRequest<K extends MoneyRequestKind>(tenant: Tenant, kind: K, id: string): Promise<MoneyRequestRows[K] | null> {
  return moneyKind(kind).load({ tenant, meta: NO_META }, id);
}

const NO_META: RequestMeta = { ip: null, userAgent: null, requestId: null };

/**
 * Approves and moves the money, all or nothing: the kind's guards re-check what the money allows inside the batch
 * (it may have moved since the request), then the row and its request are marked, the posting written and audited.
 * `run` adds what the steps after the commit need (a refund sent at once); without it the cron sends it.
 */
export async function approveMoneyRequest<K extends MoneyRequestKind>(
  tenant: Tenant,
  meta: RequestMeta,
  kind: K,
  id: string,
  run: Omit<BusinessRun, "tenant" | "meta"> = {},
): Promise<MoneyRequestRows[K]> {
  return decide(moneyKind(kind), { ...run, tenant, meta }, id, { intent: "approve" });
}

/** Rejects with the reason the maker will read; nothing moves. */
export async function rejectMoneyRequest<K extends MoneyRequestKind>(
  tenant: Tenant,
  meta: RequestMeta,
  kind: K,
  id: string,
  reason: string,
): Promise<MoneyRequestRows[K]> {
  return decide(moneyKind(kind), { tenant, meta }, id, { intent: "reject", reason });
}

// A page of one merchant account's transfers as its history shows them (and its CSV writes them): the direction, the
// counterparty named, and who asked and who approved, each name read for that page only and bound to the business.
import { namesOf } from "#server/lists/names.db";
import type { Transfer } from "#server/ledger/transfers.db";
import type { Tenant } from "#server/tenancy/tenant";

export async function transferViews(tenant: Tenant, merchantId: string, rows: readonly Transfer[]) {
  const [people, merchants, accounts] = await Promise.all([
    namesOf(
      tenant,
      "person",
      rows.flatMap((t) => [t.requestedBy, t.approvedBy]),
    ),
    namesOf(
      tenant,
      "merchant",
      rows.flatMap((t) => [t.fromMerchantId, t.toMerchantId]),
    ),
    namesOf(
      tenant,
      "settlement_account",
      rows.map((t) => t.toSettlementAccountId),
    ),
  ]);
  return rows.map((t) => {
    const outgoing = t.fromMerchantId === merchantId;
    const toAccount = outgoing && t.toSettlementAccountId !== null;
    const counterpartyId = outgoing ? (t.toMerchantId ?? t.toSettlementAccountId) : t.fromMerchantId;
    return {
      id: t.id,
      direction: outgoing ? ("out" as const) : ("in" as const),
      counterparty: `${toAccount ? "Settlement account " : "Merchant account "}${(toAccount ? accounts : merchants).get(counterpartyId ?? "") ?? "unknown"}`,
      amount: t.amount,
      narration: t.narration,
      status: t.status,
      requestedBy: people.get(t.requestedBy) ?? "Unknown",
      approvedBy: t.approvedBy ? (people.get(t.approvedBy) ?? "Unknown") : null,
      createdAt: t.createdAt,
      decidedAt: t.decidedAt,
      // Seen from the account it left: the payout to its settlement account (decision 052), as the settlement says it.
      payout: outgoing ? t.payout : null,
    };
  });
}

export type TransferView = Awaited<ReturnType<typeof transferViews>>[number];

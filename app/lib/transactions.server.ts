// What a page may carry of a payment: a card as BIN and last four, a phone masked.
// Server-only, so full numbers never reach the browser.
import type { Transaction } from "#server/payments/transactions.db";
import type { ShownTransaction } from "../components/recent-transactions";
import { payerOf } from "./transactions-view";

export function shownTransaction(t: Transaction): ShownTransaction {
  const payer = payerOf(t);
  return { id: t.id, reference: t.reference, channel: t.channel, network: t.network, amount: t.amount, status: t.status, payer, createdAt: t.createdAt };
}

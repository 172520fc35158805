// Double-entry rules. Entries are signed pesewas: positive is a debit, negative
// a credit, and the lines of every posting sum to zero. A merchant's balance is
// what the business owes it: the negated sum of its (credit-normal) account.
// Pure: the seed and the runtime post through the same functions.

import { feeFor, pricingFor, type Channel } from "./pricing";
import { DAY_MS } from "../plumbing/time";

export type { Channel };
export type LedgerAccountKind =
  "merchant_pending" | "merchant_available" | "merchant_held" | "fee_revenue" | "scheme_receivable" | "settlement_payable" | "refund_payable";

export interface AccountRef {
  kind: LedgerAccountKind;
  /** Set for merchant accounts only. */
  merchantId?: string;
}

export interface PostingLine {
  account: AccountRef;
  amount: number;
}

/** Days until a successful payment's money is available to the merchant. */
export const CLEARING_DAYS: Readonly<Record<Channel, number>> = { mobile_money: 1, card: 3 };

/** Merchant service charge of one payment, by the pricing of functions/ledger/pricing.ts. */
export function transactionFee(channel: Channel, amount: number): number {
  assertPesewas(amount, "amount");
  return feeFor(pricingFor(channel), amount);
}

export function clearsAt(channel: Channel, createdAt: number): number {
  return createdAt + CLEARING_DAYS[channel] * DAY_MS;
}

export class UnbalancedPostingError extends Error {
  override name = "UnbalancedPostingError";
}

function assertPesewas(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new UnbalancedPostingError(`${what} must be whole pesewas, got ${value}`);
}

/** Throws unless every line is a non-zero whole number of pesewas and the lines sum to zero. */
export function assertBalanced(lines: readonly PostingLine[]): void {
  if (lines.length < 2) throw new UnbalancedPostingError("a posting needs at least two lines");
  let sum = 0;
  for (const line of lines) {
    assertPesewas(line.amount, "a ledger line");
    if (line.amount === 0) throw new UnbalancedPostingError("a ledger line cannot be zero");
    sum += line.amount;
  }
  if (sum !== 0) throw new UnbalancedPostingError(`posting does not balance: sums to ${sum}`);
}

function balanced(lines: PostingLine[]): PostingLine[] {
  const nonZero = lines.filter((line) => line.amount !== 0);
  assertBalanced(nonZero);
  return nonZero;
}

export interface PaymentFacts {
  merchantId: string;
  amount: number;
  fee: number;
}

/** A successful payment: the scheme or network owes the gross; the merchant is owed the net (pending); the business earns the fee. */
export function paymentPosting(payment: PaymentFacts): PostingLine[] {
  if (payment.fee < 0 || payment.fee > payment.amount) throw new UnbalancedPostingError("fee must be between 0 and the amount");
  return balanced([
    { account: { kind: "scheme_receivable" }, amount: payment.amount },
    { account: { kind: "merchant_pending", merchantId: payment.merchantId }, amount: -(payment.amount - payment.fee) },
    { account: { kind: "fee_revenue" }, amount: -payment.fee },
  ]);
}

/** The payment has cleared: its net moves from pending to available. */
export function clearingPosting(payment: PaymentFacts): PostingLine[] {
  const net = payment.amount - payment.fee;
  return balanced([
    { account: { kind: "merchant_pending", merchantId: payment.merchantId }, amount: net },
    { account: { kind: "merchant_available", merchantId: payment.merchantId }, amount: -net },
  ]);
}

/** A reversal undoes the payment, from whichever merchant account holds the net now. */
export function reversalPosting(payment: PaymentFacts, cleared: boolean): PostingLine[] {
  const kind = cleared ? "merchant_available" : "merchant_pending";
  return balanced([
    { account: { kind: "scheme_receivable" }, amount: -payment.amount },
    { account: { kind, merchantId: payment.merchantId }, amount: payment.amount - payment.fee },
    { account: { kind: "fee_revenue" }, amount: payment.fee },
  ]);
}

/** Paying a merchant's available money out to its settlement account. */
export function settlementPosting(merchantId: string, net: number): PostingLine[] {
  return balanced([
    { account: { kind: "merchant_available", merchantId }, amount: net },
    { account: { kind: "settlement_payable" }, amount: -net },
  ]);
}

/** Moving available money from one merchant account to another. */
export function merchantTransferPosting(fromMerchantId: string, toMerchantId: string, amount: number): PostingLine[] {
  if (fromMerchantId === toMerchantId) throw new UnbalancedPostingError("a transfer needs two different merchants");
  return balanced([
    { account: { kind: "merchant_available", merchantId: fromMerchantId }, amount },
    { account: { kind: "merchant_available", merchantId: toMerchantId }, amount: -amount },
  ]);
}

/** A business's own accounts (its fees, what the schemes owe it, payouts in flight): every business has them from its start. */
export const BUSINESS_ACCOUNT_KINDS: readonly LedgerAccountKind[] = ["fee_revenue", "scheme_receivable", "settlement_payable"];

/** The id of a ledger account: one per merchant and kind, one per business for the rest. */
export function ledgerAccountId(businessId: string, account: AccountRef): string {
  return account.merchantId ? `la_${account.merchantId}_${account.kind}` : `la_${businessId}_${account.kind}`;
}

/** What the business owes a merchant on an account whose entries sum to `entrySum`. */
export function merchantBalance(entrySum: number): number {
  return 0 - entrySum; // not -entrySum: no "-0" for an empty account
}

// Refunds (docs/decisions/022-refunds.md). The business keeps its fee: the whole refunded amount comes
// out of the merchant's available money, as the processor takes it back from the business in full.

/** Approved: the amount leaves the merchant's available money and waits, payable, while the processor sends it. */
export function refundPosting(merchantId: string, amount: number): PostingLine[] {
  return balanced([
    { account: { kind: "merchant_available", merchantId }, amount },
    { account: { kind: "refund_payable" }, amount: -amount },
  ]);
}

/** The processor confirmed it: the scheme or network owes the business that much less. */
export function refundSucceededPosting(amount: number): PostingLine[] {
  return balanced([
    { account: { kind: "refund_payable" }, amount },
    { account: { kind: "scheme_receivable" }, amount: -amount },
  ]);
}

/** The last attempt failed: the money goes back to the merchant's available balance. */
export function refundFailedPosting(merchantId: string, amount: number): PostingLine[] {
  return balanced([
    { account: { kind: "refund_payable" }, amount },
    { account: { kind: "merchant_available", merchantId }, amount: -amount },
  ]);
}

// Disputes (docs/decisions/023-disputes.md)

/** A dispute opens: the disputed amount leaves the merchant's available money and is held, so it is neither transferred nor settled. */
export function disputeHoldPosting(merchantId: string, amount: number): PostingLine[] {
  if (amount <= 0) throw new UnbalancedPostingError("a dispute holds a positive amount");
  return balanced([
    { account: { kind: "merchant_available", merchantId }, amount },
    { account: { kind: "merchant_held", merchantId }, amount: -amount },
  ]);
}

/** The merchant won: the hold returns to its available money. */
export function disputeWonPosting(merchantId: string, amount: number): PostingLine[] {
  return balanced([
    { account: { kind: "merchant_held", merchantId }, amount },
    { account: { kind: "merchant_available", merchantId }, amount: -amount },
  ]);
}

/** The merchant lost: the held money goes back to the payer through the scheme or network, which now owes the business that much less. */
export function disputeLostPosting(merchantId: string, amount: number): PostingLine[] {
  return balanced([
    { account: { kind: "merchant_held", merchantId }, amount },
    { account: { kind: "scheme_receivable" }, amount: -amount },
  ]);
}

// What a merchant pays per payment (the merchant service charge). Every merchant
// has the same pricing today, as the seed has always charged it; a per-merchant
// price list would replace pricingFor and nothing else. The seed, the Partner
// API's consumer and the fee shown to people all read it from here.
/** How a payment was made: the payment channels every rule here and in the ledger is priced by. */
export type Channel = "card" | "mobile_money";

export interface Pricing {
  /** Basis points of the amount (1 bp = 0.01 %). */
  basisPoints: number;
  /** The most one payment is charged, in pesewas (null: no cap). */
  capPesewas: number | null;
}

/** Card 1.75 %; mobile money 0.75 % capped at GHS 10.00. */
export const STANDARD_PRICING: Readonly<Record<Channel, Pricing>> = {
  card: { basisPoints: 175, capPesewas: null },
  mobile_money: { basisPoints: 75, capPesewas: 1_000 },
};

/** The pricing a merchant's payments on a channel are charged at. */
export function pricingFor(channel: Channel): Pricing {
  return STANDARD_PRICING[channel];
}

/** The fee of one payment, whole pesewas, rounded half up. */
export function feeFor(pricing: Pricing, amount: number): number {
  const fee = Math.round((amount * pricing.basisPoints) / 10_000);
  return pricing.capPesewas === null ? fee : Math.min(pricing.capPesewas, fee);
}

// From what a processor names (merchant id or code, point of sale id, terminal
// serial) to the portal's rows, for one request. Unknown names are 400s with
// their paths; a name that belongs to another business is a 403 for the whole
// request (the key may not act for it), as issue 12 asks.
import { findParties, type Parties } from "../data/api-payments";
import type { BusinessDb, Db } from "../data/tenant";
import type { PaymentItem } from "../data/ingest";
import type { PaymentInput, Problem } from "./schemas";
import { sha256Hex } from "../sha256";

export interface Refusal {
  forbidden?: string;
  errors: NonNullable<Problem["errors"]>;
}

const FORBIDDEN = "This API key may not act for a merchant, point of sale or terminal of another business.";

/** The fingerprint of a payment: the same reference re-sent with the same facts is a duplicate, with others a conflict. */
export function fingerprintOf(item: Omit<PaymentItem, "fingerprint">): Promise<string> {
  return sha256Hex(
    JSON.stringify([
      item.reference,
      item.merchantId,
      item.pointOfSaleId,
      item.terminalId,
      item.channel,
      item.network,
      item.amount,
      item.status,
      item.failureReason,
      item.cardBin,
      item.cardLast4,
      item.msisdn,
      item.occurredAt,
    ]),
  );
}

/**
 * The parties named, from the business's database; what it does not know is looked for in the other databases, so
 * that another business's merchant, point of sale or terminal is still a 403 wherever that business lives.
 */
async function partiesOf(
  business: BusinessDb,
  others: readonly Db[],
  names: { merchants: string[]; pointsOfSale: string[]; serials: string[] },
): Promise<Parties> {
  const parties = await findParties(business, names);
  const missing = {
    merchants: names.merchants.filter((name) => !parties.merchants.some((m) => m.id === name || m.code === name)),
    pointsOfSale: names.pointsOfSale.filter((id) => !parties.pointsOfSale.some((s) => s.id === id)),
    serials: names.serials.filter((serial) => !parties.terminals.some((t) => t.serial === serial)),
  };
  if (missing.merchants.length + missing.pointsOfSale.length + missing.serials.length === 0) return parties;
  for (const db of others) {
    const elsewhere = await findParties({ businessId: business.businessId, db }, missing);
    parties.merchants.push(...elsewhere.merchants);
    parties.pointsOfSale.push(...elsewhere.pointsOfSale);
    parties.terminals.push(...elsewhere.terminals);
  }
  return parties;
}

export async function resolvePayments(
  business: BusinessDb,
  others: readonly Db[],
  payments: PaymentInput[],
  prefix: (i: number) => string,
): Promise<Refusal | { items: PaymentItem[] }> {
  const { businessId } = business;
  const parties = await partiesOf(business, others, {
    merchants: [...new Set(payments.map((p) => p.merchant))],
    pointsOfSale: [...new Set(payments.map((p) => p.point_of_sale))],
    serials: [...new Set(payments.flatMap((p) => (p.terminal_serial ? [p.terminal_serial] : [])))],
  });
  const errors: Refusal["errors"] = [];
  const items: PaymentItem[] = [];
  for (const [i, p] of payments.entries()) {
    const at = prefix(i);
    // By id first (ids are unique across the portal), then by this business's code.
    const merchant = parties.merchants.find((m) => m.id === p.merchant) ?? parties.merchants.find((m) => m.businessId === businessId && m.code === p.merchant);
    const pointOfSale = parties.pointsOfSale.find((s) => s.id === p.point_of_sale);
    const terminal = p.terminal_serial ? parties.terminals.find((t) => t.serial === p.terminal_serial) : undefined;
    if ([merchant, pointOfSale, terminal].some((row) => row && row.businessId !== businessId)) return { forbidden: FORBIDDEN, errors: [] };
    if (!merchant) errors.push({ path: `${at}merchant`, message: "is no merchant of this business" });
    if (!pointOfSale) errors.push({ path: `${at}point_of_sale`, message: "is no point of sale of this business" });
    else if (merchant && pointOfSale.link !== merchant.id) errors.push({ path: `${at}point_of_sale`, message: "belongs to another merchant" });
    if (p.terminal_serial && !terminal) errors.push({ path: `${at}terminal_serial`, message: "is no terminal of this business" });
    else if (terminal && pointOfSale && terminal.link !== pointOfSale.id)
      errors.push({ path: `${at}terminal_serial`, message: "is not at that point of sale" });
    if (errors.length > 0 || !merchant || !pointOfSale) continue;
    const item: Omit<PaymentItem, "fingerprint"> = {
      reference: p.reference,
      merchantId: merchant.id,
      pointOfSaleId: pointOfSale.id,
      terminalId: terminal?.id ?? null,
      channel: p.channel,
      network: p.network,
      amount: p.amount,
      status: p.status,
      failureReason: p.failure_reason ?? null,
      cardBin: p.payer.card_bin ?? null,
      cardLast4: p.payer.card_last4 ?? null,
      msisdn: p.payer.msisdn ?? null,
      occurredAt: Date.parse(p.occurred_at),
    };
    items.push({ ...item, fingerprint: await fingerprintOf(item), merchantCode: merchant.code ?? "", terminalSerial: p.terminal_serial ?? null });
  }
  return errors.length > 0 ? { errors } : { items };
}

/** A terminal by serial: its id, or forbidden when it is another business's. */
export async function resolveTerminal(business: BusinessDb, others: readonly Db[], serial: string): Promise<{ id?: string; forbidden?: string }> {
  const { businessId } = business;
  const { terminals } = await partiesOf(business, others, { merchants: [], pointsOfSale: [], serials: [serial] });
  const terminal = terminals[0];
  if (!terminal) return {};
  return terminal.businessId === businessId ? { id: terminal.id } : { forbidden: FORBIDDEN };
}

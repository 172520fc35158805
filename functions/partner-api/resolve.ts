// From what a processor names (merchant id or code, point of sale id, terminal
// serial) to the portal's rows, for one request, in the key's business only.
// An unknown name is a 400 with its path; another business's name is read as
// unknown, with the same words: the answer never tells a key
// holder that an id exists in another business.
import { findParties } from "../payments/api-payments.db";
import type { BusinessDb } from "../tenancy/tenant";
import type { PaymentItem } from "../payments/ingest-plan";
import type { ParsedPayment, Problem } from "./schemas";
import { sha256Hex } from "../plumbing/sha256";

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
 * The payments as the queue carries them, or the problems with the parties they name. `payments` are the items of
 * the request that passed the schema, with their index in the request (so a problem names its item's path).
 */
export async function resolvePayments(
  business: BusinessDb,
  payments: { index: number; payment: ParsedPayment }[],
  prefix: (i: number) => string,
): Promise<{ errors: NonNullable<Problem["errors"]>; items: PaymentItem[] }> {
  const parties = await findParties(business, {
    merchants: [...new Set(payments.map(({ payment: p }) => p.merchant))],
    pointsOfSale: [...new Set(payments.map(({ payment: p }) => p.point_of_sale))],
    serials: [...new Set(payments.flatMap(({ payment: p }) => (p.terminal_serial ? [p.terminal_serial] : [])))],
  });
  const errors: NonNullable<Problem["errors"]> = [];
  const items: PaymentItem[] = [];
  for (const { index, payment: p } of payments) {
    const at = prefix(index);
    // By id first, then by code.
    const merchant = parties.merchants.find((m) => m.id === p.merchant) ?? parties.merchants.find((m) => m.code === p.merchant);
    const pointOfSale = parties.pointsOfSale.find((s) => s.id === p.point_of_sale);
    const terminal = p.terminal_serial ? parties.terminals.find((t) => t.serial === p.terminal_serial) : undefined;
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
      occurredAt: p.occurred_at,
    };
    items.push({ ...item, fingerprint: await fingerprintOf(item), merchantCode: merchant.code ?? "", terminalSerial: p.terminal_serial ?? null });
  }
  return { errors, items };
}

/** This business's terminal by serial, with its last heartbeat's time; null for an unknown serial and another business's alike. */
export async function resolveTerminal(business: BusinessDb, serial: string): Promise<{ id: string; lastSeenAt: number | null } | null> {
  const { terminals } = await findParties(business, { merchants: [], pointsOfSale: [], serials: [serial] });
  const terminal = terminals[0];
  return terminal ? { id: terminal.id, lastSeenAt: terminal.lastSeenAt ?? null } : null;
}

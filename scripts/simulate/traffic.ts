// What `npm run simulate` sends: payments as a processor would push them for a
// business's real merchants, points of sale and terminals (read from the local
// D1), in the Partner API's shape (functions/partner-api/schemas.ts). Pure: the random
// source is given, so a test can check what comes out.
import type { HeartbeatInput, PaymentInput, ReversalInput } from "#server/partner-api/schemas";

export interface Place {
  merchantId: string;
  pointOfSaleId: string;
  /** Terminals at this point of sale (serials). */
  terminals: string[];
}

export interface Terminal {
  serial: string;
  softwareVersion: string;
}

type Random = () => number;

/** The share of payments that fail, as processors see it. */
export const FAILURE_SHARE = 0.08;
/** The share of successful payments reversed a little later. */
export const REVERSAL_SHARE = 0.02;
/** The share of terminals that stop heartbeating after a while. */
export const SILENT_SHARE = 0.15;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function weighted<T extends string>(random: Random, weights: Record<T, number>): T {
  const entries = Object.entries(weights) as [T, number][];
  let at = random() * entries.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [item, weight] of entries) {
    at -= weight;
    if (at < 0) return item;
  }
  return entries.at(-1)![0];
}

const digits = (random: Random, n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join("");

// Ghana's mobile-money prefixes by network (233 and the first two digits of the national number).
const WALLET_PREFIXES = { MTN: ["23324", "23354", "23355", "23359"], Telecel: ["23320", "23350"], AirtelTigo: ["23326", "23356", "23327", "23357"] };
// Issuer BIN ranges by scheme (made-up numbers in each scheme's range).
const BIN_PREFIXES = { VISA: ["4", "41", "45", "49"], MASTERCARD: ["51", "53", "55"], GHLINK: ["6034"] };

const WALLET_FAILURES = [
  "Insufficient funds in the wallet",
  "Payer did not approve the prompt in time",
  "Wrong PIN entered",
  "Wallet transaction limit reached",
  "Network timeout at the operator",
];
const CARD_FAILURES = ["Do not honour", "Insufficient funds", "Expired card", "Incorrect PIN", "Issuer unavailable", "Suspected fraud"];
const REVERSAL_REASONS = ["Customer returned the goods", "Duplicate charge", "Goods not delivered", "Cashier error", "Customer dispute upheld"];

/** A made-up amount in pesewas: most payments small, some large, prices often ending in .00 or .50. */
function amount(random: Random, channel: "card" | "mobile_money"): number {
  const medianCedis = channel === "card" ? 180 : 45;
  // Log-normal: e^(N(0,1)) by Box-Muller.
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const cedis = Math.min(50_000, Math.max(1, medianCedis * Math.exp(0.9 * normal)));
  const pesewas = Math.round(cedis * 100);
  return random() < 0.6 ? Math.max(50, Math.round(pesewas / 50) * 50) : Math.max(1, pesewas);
}

/**
 * References with letters between the digits, so none looks like a card number
 * (functions/card-numbers/card-numbers.ts), unique to the run.
 */
export function referenceOf(runId: string, seq: number): string {
  return `SIM${runId}T${seq}`;
}

export function makePayment(random: Random, places: readonly Place[], reference: string, now: number): PaymentInput {
  const withTerminal = places.filter((place) => place.terminals.length > 0);
  // Cards are card-present: only where a terminal stands.
  const channel = withTerminal.length > 0 && random() < 0.45 ? "card" : "mobile_money";
  const place = pick(random, channel === "card" ? withTerminal : places);
  const failed = random() < FAILURE_SHARE;
  const occurredAt = new Date(now - Math.floor(random() * 3000)).toISOString();
  const common = { reference, merchant: place.merchantId, point_of_sale: place.pointOfSaleId, currency: "GHS" as const, occurred_at: occurredAt };
  if (channel === "card") {
    const network = weighted(random, { VISA: 55, MASTERCARD: 35, GHLINK: 10 });
    const prefix = pick(random, BIN_PREFIXES[network]);
    return {
      ...common,
      terminal_serial: pick(random, place.terminals),
      channel,
      network,
      payer: { card_bin: prefix + digits(random, 6 - prefix.length), card_last4: digits(random, 4) },
      amount: amount(random, channel),
      ...(failed ? { status: "failed" as const, failure_reason: pick(random, CARD_FAILURES) } : { status: "successful" as const }),
    };
  }
  const network = weighted(random, { MTN: 60, Telecel: 25, AirtelTigo: 15 });
  return {
    ...common,
    ...(place.terminals.length > 0 && random() < 0.5 ? { terminal_serial: pick(random, place.terminals) } : {}),
    channel,
    network,
    payer: { msisdn: pick(random, WALLET_PREFIXES[network]) + digits(random, 7) },
    amount: amount(random, channel),
    ...(failed ? { status: "failed" as const, failure_reason: pick(random, WALLET_FAILURES) } : { status: "successful" as const }),
  };
}

export function makeReversal(random: Random, now: number): ReversalInput {
  return { reason: pick(random, REVERSAL_REASONS), reversed_at: new Date(now).toISOString() };
}

export function makeHeartbeat(random: Random, terminal: Terminal, now: number): HeartbeatInput {
  return {
    battery_percent: Math.floor(15 + random() * 86),
    signal_percent: Math.floor(20 + random() * 81),
    software_version: terminal.softwareVersion,
    sent_at: new Date(now).toISOString(),
  };
}

/** A small seeded generator (mulberry32), so a run can be repeated with --seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

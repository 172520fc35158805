// What `npm run simulate` sends (scripts/simulate/traffic.ts) must be what the
// Partner API takes, and look like a real day: every network and scheme, some
// failures with reasons, and never anything that looks like a card number.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardNumberPaths } from "#server/card-numbers/card-numbers";
import { CARD_SCHEMES, HeartbeatInput, MOBILE_MONEY_NETWORKS, PaymentInput, ReversalInput } from "#server/partner-api/schemas";
import { makeHeartbeat, makePayment, makeReversal, referenceOf, seededRandom, type Place } from "../../scripts/simulate/traffic";

const PLACES: Place[] = [
  { merchantId: "mer_1", pointOfSaleId: "pos_1", terminals: ["PAX-A920-000001", "PAX-A920-000002"] },
  { merchantId: "mer_1", pointOfSaleId: "pos_2", terminals: [] },
  { merchantId: "mer_2", pointOfSaleId: "pos_3", terminals: ["SUNMI-P2-000003"] },
];
const NOW = Date.parse("2026-11-23T10:00:00Z");

describe("the simulator's traffic", () => {
  const random = seededRandom(12);
  const payments = Array.from({ length: 5000 }, (_, i) => makePayment(random, PLACES, referenceOf("MI3K2Q0A", i + 1), NOW));

  it("is accepted by the API's schemas, and holds no card number", () => {
    for (const payment of payments) {
      expect(v.safeParse(PaymentInput, payment).issues).toBeUndefined();
      expect(cardNumberPaths(payment)).toEqual([]);
    }
    expect(v.safeParse(ReversalInput, makeReversal(random, NOW)).success).toBe(true);
    expect(v.safeParse(HeartbeatInput, makeHeartbeat(random, { serial: "PAX-A920-000001", softwareVersion: "4.2.1" }, NOW)).success).toBe(true);
  });

  it("uses every network and scheme, fails about 8% with reasons, and puts cards only where a terminal stands", () => {
    expect(new Set(payments.map((p) => p.network))).toEqual(new Set([...MOBILE_MONEY_NETWORKS, ...CARD_SCHEMES]));
    const failed = payments.filter((p) => p.status === "failed");
    expect(failed.length / payments.length).toBeGreaterThan(0.06);
    expect(failed.length / payments.length).toBeLessThan(0.1);
    expect(new Set(failed.map((p) => p.failure_reason)).size).toBeGreaterThan(5);
    const cards = payments.filter((p) => p.channel === "card");
    expect(cards.length).toBeGreaterThan(1000);
    for (const card of cards) expect(PLACES.find((place) => place.pointOfSaleId === card.point_of_sale)!.terminals).toContain(card.terminal_serial);
    expect(new Set(payments.map((p) => p.reference)).size).toBe(payments.length);
  });
});

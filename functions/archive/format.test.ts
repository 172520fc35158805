// The cold archive's months, retention and object format (functions/archive/format.ts), and its one setting.
import { describe, expect, it } from "vitest";
import { asTransaction, figuresOf, gzipLines, isMonth, monthOf, monthSpan, readLines, referenceHash, retentionCutoff, type ArchivedPayment } from "./format";
import type { PaymentRow } from "./archive.db";
import { configOf, ConfigError } from "../env";

const payment = (id: number, reference: string, status: PaymentRow["status"], amount: number): ArchivedPayment => ({
  t: {
    id,
    business_id: "bus_x",
    reference,
    merchant_id: "mer_Ɔ",
    point_of_sale_id: "pos_1",
    terminal_id: null,
    channel: "card",
    network: "VISA",
    amount,
    fee: 100,
    status,
    card_bin: "492012",
    card_last4: "4321",
    customer_msisdn: null,
    created_at: Date.UTC(2025, 8, 3),
    cleared_at: null,
    failure_reason: null,
    reversed_at: null,
    reversal_reason: null,
    fingerprint: null,
  },
  e:
    status === "failed"
      ? []
      : [
          {
            id: id * 10,
            business_id: "bus_x",
            posting_id: `p${id}`,
            account_id: "la_bus_x_scheme_receivable",
            amount,
            transaction_id: id,
            transfer_id: null,
            settlement_id: null,
            memo: "Ɛ 🍲",
            posted_at: Date.UTC(2025, 8, 3),
          },
        ],
  s: id === 1 ? "stl_1" : null,
});

describe("months and the retention", () => {
  it("keeps the current month and the 13 before it; the months before go to the archive", () => {
    expect(new Date(retentionCutoff(Date.UTC(2026, 10, 23, 15), 13)).toISOString()).toBe("2025-10-01T00:00:00.000Z");
    // Across a year's start, and on the first instant of a month.
    expect(new Date(retentionCutoff(Date.UTC(2026, 0, 1), 13)).toISOString()).toBe("2024-12-01T00:00:00.000Z");
    expect(monthOf(retentionCutoff(Date.UTC(2026, 10, 23), 13) - 1)).toBe("2025-09");
  });

  it("a month is its UTC (Accra) days, December included", () => {
    expect(monthSpan("2025-12")).toEqual({ from: Date.UTC(2025, 11, 1), to: Date.UTC(2026, 0, 1) });
    expect(monthOf(Date.UTC(2025, 11, 31, 23, 59, 59, 999))).toBe("2025-12");
    expect(["2025-13", "2025-1", "25-01", "2025-01/..", ""].filter(isMonth)).toEqual([]);
    expect(isMonth("2025-01")).toBe(true);
  });
});

describe("the object", () => {
  it("gzipped NDJSON comes back line for line, names and all, and its figures count as SQL does", async () => {
    const lines = [payment(1, "R1", "successful", 5_000), payment(2, "R2", "failed", 7_000), payment(3, "R3", "reversed", 9_000)];
    async function* pages() {
      yield lines.map((l) => `${JSON.stringify(l)}\n`).join("");
    }
    const bytes = await gzipLines(pages());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const back: ArchivedPayment[] = [];
    for await (const line of readLines(new Response(bytes).body!)) back.push(line);
    expect(back).toEqual(lines);
    expect(figuresOf(back)).toEqual({
      payments: 3,
      successful: 1,
      gross: 5_000,
      fees: 100,
      amountSum: 21_000,
      feeSum: 300,
      entries: 2,
      entryDebits: 14_000,
      settlementItems: 1,
      accounts: [{ accountId: "la_bus_x_scheme_receivable", entries: 2, amount: 14_000 }],
    });
    expect(asTransaction(back[0]!.t)).toMatchObject({ reference: "R1", merchantId: "mer_Ɔ", cardLast4: "4321", createdAt: Date.UTC(2025, 8, 3) });
  });

  it("a reference's index key is 48 bits of its SHA-256: stable and a safe integer", async () => {
    const a = await referenceHash("AMP-261120-0000452");
    expect(a).toBe(await referenceHash("AMP-261120-0000452"));
    expect(a).not.toBe(await referenceHash("AMP-261120-0000453"));
    expect(Number.isSafeInteger(a) && a >= 0 && a < 2 ** 48).toBe(true);
  });
});

describe("ARCHIVE_RETENTION_MONTHS", () => {
  it("is 13 unless set, and must be whole months from 3 to 120", () => {
    expect(configOf({}).archive).toEqual({ retentionMonths: 13 });
    expect(configOf({ ARCHIVE_RETENTION_MONTHS: "24" }).archive).toEqual({ retentionMonths: 24 });
    for (const bad of ["2", "121", "13.5", "-1", "x"]) expect(() => configOf({ ARCHIVE_RETENTION_MONTHS: bad }).archive, bad).toThrow(ConfigError);
  });
});

// Bad data the database itself refuses (migration 0002), whatever code writes it.
import { beforeAll, describe, expect, it } from "vitest";
import { usePortal } from "../support/use-portal";
import { ACCRA, KUMASI } from "../support/tenants";

const portal = usePortal();
const NOW = "2026-11-01T09:00:00.000Z";
const M = "c_merchant";
const P = "c_pos";
// Accra's own merchant and point of sale: Accra's rows live on its own database (decision 021).
const M_ACCRA = "c_merchant_accra";
const P_ACCRA = "c_pos_accra";

beforeAll(async () => {
  const db = await portal().db();
  await db.batch([
    db.prepare(
      `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
       VALUES ('${M}', '${KUMASI}', 'MER-C0001', 'Kejetia Traders', 'Kejetia Traders', 'C5550000001', 'Retail', 'Kumasi', 'Ashanti', 'Kejetia', 'Yaa Asantewaa', '233244555666', 'yaa@example.com', '${NOW}', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO points_of_sale (id, business_id, merchant_id, name, town, region, address, contact_phone, created_at, updated_at)
       VALUES ('${P}', '${KUMASI}', '${M}', 'Kejetia Stall 4', 'Kumasi', 'Ashanti', 'Kejetia', '233244555666', '${NOW}', '${NOW}')`,
    ),
  ]);
  await db.batch([
    db.prepare(
      `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
       VALUES ('${M_ACCRA}', '${ACCRA}', 'MER-C0002', 'Makola Traders', 'Makola Traders', 'C5550000002', 'Retail', 'Accra', 'Greater Accra', 'Makola', 'Ama Serwaa', '233244555667', 'ama@example.com', '${NOW}', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO points_of_sale (id, business_id, merchant_id, name, town, region, address, contact_phone, created_at, updated_at)
       VALUES ('${P_ACCRA}', '${ACCRA}', '${M_ACCRA}', 'Makola Stall 9', 'Accra', 'Greater Accra', 'Makola', '233244555667', '${NOW}', '${NOW}')`,
    ),
  ]);
});

async function rejects(sql: string, message: RegExp, db?: D1Database) {
  await expect((db ?? (await portal().db())).prepare(sql).run()).rejects.toThrow(message);
}

const tx = (values: Partial<Record<string, string | number | null>>) => {
  const row: Record<string, string | number | null> = {
    id: Math.floor(Math.random() * 1e9),
    business_id: KUMASI,
    reference: `C-${Math.random().toString(36).slice(2)}`,
    merchant_id: M,
    point_of_sale_id: P,
    channel: "card",
    network: "VISA",
    amount: 1000,
    fee: 18,
    status: "successful",
    card_bin: "492183",
    card_last4: "4821",
    customer_msisdn: null,
    created_at: 1_700_000_000_000,
    ...values,
  };
  const columns = Object.keys(row);
  const literal = (v: string | number | null) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v}'`);
  return `INSERT INTO transactions (${columns.join(", ")}) VALUES (${columns.map((c) => literal(row[c]!)).join(", ")})`;
};

describe("transactions", () => {
  it("accept a well-formed card payment", async () => {
    const db = await portal().db();
    await expect(db.prepare(tx({})).run()).resolves.toBeTruthy();
  });

  it.each([
    ["a zero amount", { amount: 0 }],
    ["a negative amount", { amount: -5 }],
    ["a fee above the amount", { fee: 1001 }],
    ["a negative fee", { fee: -1 }],
    ["an unknown status", { status: "pending" }],
    ["a card without its last four", { card_last4: null }],
    ["a full card number as BIN", { card_bin: "4921830000004821" }],
    ["a card scheme on mobile money", { channel: "mobile_money", card_bin: null, card_last4: null, customer_msisdn: "233244000111" }],
    ["mobile money without the customer's number", { channel: "mobile_money", network: "MTN", card_bin: null, card_last4: null }],
    ["a malformed customer number", { channel: "mobile_money", network: "MTN", card_bin: null, card_last4: null, customer_msisdn: "0244000111" }],
    ["a failed payment marked as cleared", { status: "failed", cleared_at: 1_700_000_100_000 }],
    ["a clearing before the payment", { cleared_at: 1_600_000_000_000 }],
  ])("refuse %s", async (_name, values) => {
    await rejects(tx(values), /CHECK constraint failed/);
  });

  it("refuse a duplicate reference within a business, and take the same reference in another (processors number alike)", async () => {
    const db = await portal().db();
    await db.prepare(tx({ reference: "DUP-REF-1" })).run();
    await rejects(tx({ reference: "DUP-REF-1" }), /UNIQUE constraint failed: transactions.business_id, transactions.reference/);
    await expect(db.prepare(tx({ reference: "DUP-REF-1", business_id: ACCRA, merchant_id: M_ACCRA, point_of_sale_id: P_ACCRA })).run()).resolves.toBeTruthy();
  });

  it("keep a reversed payment's clearing (its net came back out of available) but never a failed one's", async () => {
    const db = await portal().db();
    await expect(
      db.prepare(tx({ status: "reversed", cleared_at: 1_700_000_100_000, reversal_reason: "Chargeback", reversed_at: 1_700_000_200_000 })).run(),
    ).resolves.toBeTruthy();
    await rejects(tx({ status: "successful", failure_reason: "Declined" }), /CHECK constraint failed/);
    await rejects(tx({ status: "successful", reversal_reason: "Chargeback" }), /CHECK constraint failed/);
  });
});

describe("the estate", () => {
  it.each([
    ["a malformed TIN", `UPDATE merchants SET tin = 'X123' WHERE id = '${M}'`],
    ["an unknown merchant status", `UPDATE merchants SET status = 'closed' WHERE id = '${M}'`],
    [
      "an active terminal with no point of sale",
      `INSERT INTO terminals (id, business_id, serial, model, software_version, status, created_at, updated_at) VALUES ('c_t1', '${KUMASI}', 'CSERIAL001', 'PAX A920', '1.0', 'active', '${NOW}', '${NOW}')`,
    ],
    [
      "a terminal in stock at a point of sale",
      `INSERT INTO terminals (id, business_id, serial, model, software_version, status, merchant_id, point_of_sale_id, created_at, updated_at) VALUES ('c_t2', '${KUMASI}', 'CSERIAL002', 'PAX A920', '1.0', 'in_stock', '${M}', '${P}', '${NOW}', '${NOW}')`,
    ],
    [
      "a mobile-money account on an unknown network",
      `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, created_at, updated_at) VALUES ('c_sa1', '${KUMASI}', '${M}', 'mobile_money', 'Vodafone', '0244555666', 'Yaa', '${NOW}', '${NOW}')`,
    ],
    [
      "an account number with letters",
      `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, created_at, updated_at) VALUES ('c_sa2', '${KUMASI}', '${M}', 'bank', 'GCB Bank', '10213ABC456', 'Yaa', '${NOW}', '${NOW}')`,
    ],
    [
      "an account number with two hyphens",
      `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, created_at, updated_at) VALUES ('c_sa3', '${KUMASI}', '${M}', 'bank', 'GCB Bank', '102-130-456', 'Yaa', '${NOW}', '${NOW}')`,
    ],
    [
      "a rejected request without a reason",
      `INSERT INTO approval_requests (id, business_id, kind, action, target_id, after_json, maker_id, made_at, status, checker_id, decided_at) VALUES ('c_r1', '${KUMASI}', 'merchant', 'create', 'x', '{}', 'usr_esi_owusu', '${NOW}', 'rejected', 'usr_kofi_boateng', '${NOW}')`,
    ],
    [
      "a request decided by its maker",
      `INSERT INTO approval_requests (id, business_id, kind, action, target_id, after_json, maker_id, made_at, status, checker_id, decided_at) VALUES ('c_r2', '${KUMASI}', 'merchant', 'create', 'x', '{}', 'usr_esi_owusu', '${NOW}', 'approved', 'usr_esi_owusu', '${NOW}')`,
    ],
    [
      "an approved request with no checker",
      `INSERT INTO approval_requests (id, business_id, kind, action, target_id, after_json, maker_id, made_at, status) VALUES ('c_r3', '${KUMASI}', 'merchant', 'create', 'x', '{}', 'usr_esi_owusu', '${NOW}', 'approved')`,
    ],
    [
      "a ledger line of zero",
      `INSERT INTO ledger_entries (business_id, posting_id, account_id, amount, memo, posted_at)
       VALUES ('${KUMASI}', 'p', (SELECT id FROM ledger_accounts WHERE business_id = '${KUMASI}' LIMIT 1), 0, 'm', 1)`,
    ],
    [
      "a settlement whose net is not gross less fees",
      `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, created_at) VALUES ('c_s1', '${KUMASI}', '${M}', 'x', 1, 2, 100, 10, 95, 'pending', 'C-SET-1', '${NOW}')`,
    ],
  ])("refuse %s", async (_name, sql) => {
    await rejects(sql, /CHECK constraint failed/);
  });

  it("allow one primary active settlement account per merchant", async () => {
    const db = await portal().db();
    const insert = (id: string, number: string) =>
      `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, is_primary, created_at, updated_at) VALUES ('${id}', '${KUMASI}', '${M}', 'bank', 'GCB Bank', '${number}', 'Yaa', 1, '${NOW}', '${NOW}')`;
    await db.prepare(insert("c_p1", "1021300111")).run();
    await rejects(insert("c_p2", "1021300222"), /UNIQUE constraint failed/);
  });

  it("pay a transaction in at most one settlement", async () => {
    // settlement_items names no business: its statements go to the business's database by hand.
    const db = portal().businessDb(KUMASI);
    await db.prepare(tx({ id: 424242, reference: "C-SETTLED-1" })).run();
    await db.batch([
      db.prepare(
        `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, created_at, updated_at) VALUES ('c_sa_ok', '${KUMASI}', '${M}', 'mobile_money', 'MTN', '0244555666', 'Yaa', '${NOW}', '${NOW}')`,
      ),
      ...["s-one", "s-two"].map((id, i) =>
        db.prepare(
          `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, created_at) VALUES ('${id}', '${KUMASI}', '${M}', 'c_sa_ok', ${i * 10 + 1}, ${i * 10 + 2}, 1000, 18, 982, 'pending', 'C-SET-${id}', '${NOW}')`,
        ),
      ),
    ]);
    await db.prepare(`INSERT INTO settlement_items (settlement_id, transaction_id) VALUES ('s-one', 424242)`).run();
    await rejects(`INSERT INTO settlement_items (settlement_id, transaction_id) VALUES ('s-two', 424242)`, /UNIQUE constraint failed/, db);
  });
});

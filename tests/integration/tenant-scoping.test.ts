// For every entity: an id from another business reads as not found and cannot
// be changed. Each check has its positive control (the owner does see it), so a
// missing fixture cannot make the test pass.
import { beforeAll, describe, expect, it } from "vitest";
import { approveRequest, getApprovalRequest, listApprovalRequests, rejectRequest, requestChange } from "../../functions/data/approvals";
import { listAudit } from "../../functions/data/audit";
import { getEmployee, listEmployees } from "../../functions/data/employees";
import { getMerchantBalances, listTransactionEntries, postingStatements } from "../../functions/data/ledger";
import { getMerchant, listMerchants } from "../../functions/data/merchants";
import { getPointOfSale, listPointsOfSale, pendingPointOfSaleRequest } from "../../functions/data/points-of-sale";
import { reportBy } from "../../functions/data/reports";
import { getSettlementAccount, listSettlementAccounts } from "../../functions/data/settlement-accounts";
import { getSettlement, listSettlements } from "../../functions/data/settlements";
import { NotFoundError } from "../../functions/data/tenant";
import {
  changeTerminal,
  getTerminal,
  listAssignableMerchants,
  listAssignablePointsOfSale,
  listTerminalAssignments,
  listTerminalMerchants,
  listTerminals,
  terminalPlaces,
} from "../../functions/data/terminals";
import { getTransaction, listTransactions, transactionTotals } from "../../functions/data/transactions";
import { getTransfer, listMerchantTransfers } from "../../functions/data/transfers";
import { paymentPosting } from "../../functions/ledger";
import { usePortal } from "../support/use-portal";
import { ACCRA, AMA_ACCRA, AMA_KUMASI, KOFI_KUMASI, ESI_KUMASI, META } from "../support/tenants";

const portal = usePortal();

// Rows of Accra Mobile Pay that Kumasi Fresh Foods must never reach.
const M = "test_accra_merchant";
const POS = "test_accra_pos";
const T = "test_accra_terminal";
const SA = "test_accra_account";
const TX = 990_000_001;
const TR = "test_accra_transfer";
const ST = "test_accra_settlement";
const NOW = "2026-11-01T09:00:00.000Z";
let requestId: string;

beforeAll(async () => {
  const db = await portal().db();
  await db.batch([
    db.prepare(
      `INSERT INTO merchants (id, business_id, code, name, trading_name, tin, sector, town, region, address, contact_name, contact_phone, contact_email, created_at, updated_at)
       VALUES ('${M}', '${ACCRA}', 'MER-X0001', 'Osu Night Market', 'Osu Night Market', 'C9990000001', 'Food', 'Accra', 'Greater Accra', 'Oxford Street', 'Nii Armah', '233244777888', 'nii@example.com', '${NOW}', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO points_of_sale (id, business_id, merchant_id, name, town, region, address, contact_phone, created_at, updated_at)
       VALUES ('${POS}', '${ACCRA}', '${M}', 'Osu Branch', 'Accra', 'Greater Accra', 'Oxford Street', '233244777888', '${NOW}', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO terminals (id, business_id, serial, model, software_version, status, merchant_id, point_of_sale_id, created_at, updated_at)
       VALUES ('${T}', '${ACCRA}', 'ZZTEST000001', 'PAX A920', '4.2.1', 'active', '${M}', '${POS}', '${NOW}', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO settlement_accounts (id, business_id, merchant_id, kind, provider, account_number, account_name, is_primary, created_at, updated_at)
       VALUES ('${SA}', '${ACCRA}', '${M}', 'bank', 'GCB Bank', '1021300456', 'Osu Night Market', 1, '${NOW}', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO transactions (id, business_id, reference, merchant_id, point_of_sale_id, terminal_id, channel, network, amount, fee, status, card_bin, card_last4, created_at)
       VALUES (${TX}, '${ACCRA}', 'TESTREF000001', '${M}', '${POS}', '${T}', 'card', 'VISA', 10000, 175, 'successful', '492183', '4821', ${Date.parse(NOW)})`,
    ),
    db.prepare(
      `INSERT INTO transfers (id, business_id, from_merchant_id, to_settlement_account_id, amount, status, idempotency_key, requested_by, created_at)
       VALUES ('${TR}', '${ACCRA}', '${M}', '${SA}', 5000, 'pending_approval', 'test-key-1', 'usr_ama_mensah', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO settlements (id, business_id, merchant_id, settlement_account_id, period_start, period_end, gross, fees, net, status, reference, created_at)
       VALUES ('${ST}', '${ACCRA}', '${M}', '${SA}', 1, 2, 100, 1, 99, 'pending', 'TESTSETTLE1', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO daily_rollups (business_id, day, merchant_id, point_of_sale_id, terminal_id, channel, network, status, count, amount, fee)
       VALUES ('${ACCRA}', '2026-11-01', '${M}', '${POS}', '${T}', 'card', 'VISA', 'successful', 1, 10000, 175)`,
    ),
    db.prepare(
      `INSERT INTO daily_merchant_totals (business_id, day, merchant_id, status, count, amount, fee)
       VALUES ('${ACCRA}', '2026-11-01', '${M}', 'successful', 1, 10000, 175)`,
    ),
    ...postingStatements(AMA_ACCRA, db, paymentPosting({ merchantId: M, amount: 10_000, fee: 175 }), {
      postingId: "test_posting_1",
      memo: "payment TESTREF000001",
      postedAt: Date.parse(NOW),
      transactionId: TX,
    }),
  ]);
  requestId = await requestChange(AMA_ACCRA, db, META, { kind: "merchant", action: "update", targetId: M, after: { town: "Tema" } });
});

describe("reading another business's ids", () => {
  it.each([
    ["merchant", (t: typeof AMA_KUMASI, db: D1Database) => getMerchant(t, db, M)],
    ["point of sale", (t: typeof AMA_KUMASI, db: D1Database) => getPointOfSale(t, db, POS)],
    ["terminal", (t: typeof AMA_KUMASI, db: D1Database) => getTerminal(t, db, T)],
    ["settlement account", (t: typeof AMA_KUMASI, db: D1Database) => getSettlementAccount(t, db, SA)],
    ["transaction", (t: typeof AMA_KUMASI, db: D1Database) => getTransaction(t, db, TX)],
    ["transfer", (t: typeof AMA_KUMASI, db: D1Database) => getTransfer(t, db, TR)],
    ["settlement", (t: typeof AMA_KUMASI, db: D1Database) => getSettlement(t, db, ST)],
    ["approval request", (t: typeof AMA_KUMASI, db: D1Database) => getApprovalRequest(t, db, requestId)],
    ["employee (yaw.asante works only for Accra)", (t: typeof AMA_KUMASI, db: D1Database) => getEmployee(t, db, "usr_yaw_asante")],
  ])("%s: not found from Kumasi, found from Accra", async (_name, read) => {
    const db = await portal().db();
    expect(await read(AMA_ACCRA, db)).not.toBeNull();
    expect(await read(AMA_KUMASI, db)).toBeNull();
  });

  it("lists under another business's merchant are empty", async () => {
    const db = await portal().db();
    expect((await listPointsOfSale(AMA_ACCRA, db, { merchantId: M })).rows).toHaveLength(1);
    expect((await listPointsOfSale(AMA_KUMASI, db, { merchantId: M })).rows).toHaveLength(0);
    expect(await listSettlementAccounts(AMA_ACCRA, db, M)).toHaveLength(1);
    expect(await listSettlementAccounts(AMA_KUMASI, db, M)).toHaveLength(0);
    expect((await listTerminals(AMA_ACCRA, db, { merchantId: M })).rows).toHaveLength(1);
    expect((await listTerminals(AMA_KUMASI, db, { merchantId: M })).rows).toHaveLength(0);
    expect((await listTransactions(AMA_ACCRA, db, { merchantId: M })).rows).toHaveLength(1);
    expect((await listTransactions(AMA_KUMASI, db, { merchantId: M })).rows).toHaveLength(0);
    expect((await transactionTotals(AMA_KUMASI, db, { merchantId: M })).count).toBe(0);
    expect((await listMerchantTransfers(AMA_ACCRA, db, { merchantId: M })).rows).toHaveLength(1);
    expect((await listMerchantTransfers(AMA_KUMASI, db, { merchantId: M })).rows).toHaveLength(0);
    expect((await listSettlements(AMA_KUMASI, db, { merchantId: M })).rows).toHaveLength(0);
    expect(await listTransactionEntries(AMA_ACCRA, db, TX)).toHaveLength(3);
    expect(await listTransactionEntries(AMA_KUMASI, db, TX)).toHaveLength(0);
    expect((await getMerchantBalances(AMA_ACCRA, db, M)).pending).toBe(9_825);
    expect(await getMerchantBalances(AMA_KUMASI, db, M)).toEqual({ pending: 0, available: 0, total: 0 });
    expect(await reportBy(AMA_ACCRA, db, { dimension: "merchant", fromDay: "2026-11-01", toDay: "2026-11-01", merchantId: M })).toHaveLength(1);
    expect(await reportBy(AMA_KUMASI, db, { dimension: "merchant", fromDay: "2026-11-01", toDay: "2026-11-01", merchantId: M })).toHaveLength(0);
  });

  it("whole-business lists never include another business's rows", async () => {
    const db = await portal().db();
    const ids = async <T>(page: Promise<{ rows: T[] }>, key: (row: T) => string | number) => (await page).rows.map(key);
    expect(await ids(listMerchants(AMA_KUMASI, db, { limit: 100 }), (m) => m.id)).not.toContain(M);
    expect(await ids(listMerchants(AMA_ACCRA, db, { limit: 100 }), (m) => m.id)).toContain(M);
    expect(await ids(listTerminals(AMA_KUMASI, db, { limit: 100, serial: "ZZTEST" }), (t) => t.id)).toEqual([]);
    expect(await ids(listEmployees(AMA_KUMASI, db, { limit: 100 }), (e) => e.userId)).not.toContain("usr_yaw_asante");
    expect(await ids(listApprovalRequests(AMA_KUMASI, db, { limit: 100 }), (r) => r.id)).not.toContain(requestId);
    expect(await ids(listAudit(AMA_KUMASI, db, { limit: 100 }), (a) => a.entityId ?? "")).not.toContain(requestId);
    expect(await ids(listAudit(AMA_ACCRA, db, { limit: 100 }), (a) => a.entityId ?? "")).toContain(requestId);
  });
});

describe("changing another business's ids", () => {
  it.each([
    ["update a merchant", { kind: "merchant", action: "update", targetId: M, after: { town: "Kumasi" } }],
    ["deactivate a merchant", { kind: "merchant", action: "deactivate", targetId: M }],
    ["update a point of sale", { kind: "point_of_sale", action: "update", targetId: POS, after: { name: "Mine now" } }],
    ["deactivate a settlement account", { kind: "settlement_account", action: "deactivate", targetId: SA }],
    ["change an employee's role", { kind: "employee", action: "update", targetId: "usr_yaw_asante", after: { role: "Operations" } }],
    [
      "add a point of sale under its merchant",
      {
        kind: "point_of_sale",
        action: "create",
        after: { merchant_id: M, name: "Sneaky", town: "Accra", region: "Greater Accra", address: "x", contact_phone: "233244000000" },
      },
    ],
    [
      "add a settlement account under its merchant",
      {
        kind: "settlement_account",
        action: "create",
        after: { merchant_id: M, kind: "bank", provider: "GCB Bank", account_number: "1021300999", account_name: "Me", is_primary: 0 },
      },
    ],
  ] as const)("cannot %s: not found, nothing requested", async (_name, input) => {
    const db = await portal().db();
    const before = (await listApprovalRequests(AMA_KUMASI, db, { limit: 100, withTotal: true })).total;
    const tenant = input.kind === "employee" ? AMA_KUMASI : ESI_KUMASI;
    await expect(requestChange(tenant, db, META, input as Parameters<typeof requestChange>[3])).rejects.toBeInstanceOf(NotFoundError);
    expect((await listApprovalRequests(AMA_KUMASI, db, { limit: 100, withTotal: true })).total).toBe(before);
  });

  it("cannot decide its requests, which stay pending and unapplied", async () => {
    const db = await portal().db();
    await expect(approveRequest(KOFI_KUMASI, db, META, requestId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rejectRequest(KOFI_KUMASI, db, META, requestId, "not yours")).rejects.toBeInstanceOf(NotFoundError);
    expect((await getApprovalRequest(AMA_ACCRA, db, requestId))!.status).toBe("pending");
    expect((await getMerchant(AMA_ACCRA, db, M))!.town).toBe("Accra");
  });
});

describe("terminals of another business", () => {
  it("names, assignment history and assignable places are empty from Kumasi", async () => {
    const db = await portal().db();
    expect((await terminalPlaces(AMA_ACCRA, db, [{ pointOfSaleId: POS }])).get(POS)?.merchantName).toBe("Osu Night Market");
    expect((await terminalPlaces(AMA_KUMASI, db, [{ pointOfSaleId: POS }])).size).toBe(0);
    expect(await listAssignablePointsOfSale(AMA_ACCRA, db, M)).toHaveLength(1);
    expect(await listAssignablePointsOfSale(AMA_KUMASI, db, M)).toHaveLength(0);
    expect((await listAssignableMerchants(AMA_KUMASI, db)).map((m) => m.id)).not.toContain(M);
    expect((await listTerminalMerchants(AMA_KUMASI, db)).map((m) => m.id)).not.toContain(M);
    expect(await listTerminalAssignments(AMA_KUMASI, db, T)).toEqual([]);
    expect(await pendingPointOfSaleRequest(AMA_KUMASI, db, POS)).toBeNull();
  });

  it.each(["block", "unassign"] as const)("%s another business's terminal: not found, nothing written", async (action) => {
    const db = await portal().db();
    await expect(changeTerminal(KOFI_KUMASI, db, META, action, { terminalId: T, version: 1, reason: "Not ours" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await getTerminal(AMA_ACCRA, db, T))?.version).toBe(1);
  });

  it("assigning to another business's point of sale: not found, nothing written", async () => {
    const db = await portal().db();
    await expect(
      changeTerminal(ESI_KUMASI, db, META, "assign", { terminalId: "trm_kff_00009", version: 1, reason: "Not ours", pointOfSaleId: POS }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await getTerminal(ESI_KUMASI, db, "trm_kff_00009"))?.status).toBe("in_stock");
  });
});

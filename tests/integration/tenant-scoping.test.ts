// For every entity: an id from another business reads as not found and cannot
// be changed. Each check has its positive control (the owner does see it), so a
// missing fixture cannot make the test pass.
import { beforeAll, describe, expect, it } from "vitest";
import { approveRequest, rejectRequest, requestChange } from "#server/approvals/approvals.db";
import { getApprovalRequest, listApprovalRequests, requestSubjects } from "#server/approvals/change-requests.db";
import { listAudit } from "#server/audit/audit.db";
import { getEmployee, listEmployees } from "#server/team/employees.db";
import { getMerchantBalances, listMerchantBalances, listTransactionEntries, postingStatements } from "#server/ledger/ledger.db";
import { getMerchant, listMerchantChoices, listMerchants } from "#server/merchants/merchants.db";
import { namesOf, type NameKind } from "#server/lists/names.db";
import { getPointOfSale, listPointsOfSale, pendingPointOfSaleRequest } from "#server/merchants/points-of-sale.db";
import { reportBy } from "#server/reports/reports.db";
import { getSettlementAccount, listSettlementAccounts } from "#server/settlement/settlement-accounts.db";
import { getSettlement, listPayoutAttempts, listSettlements, listSettlementTransactions } from "#server/settlement/settlements.db";
import { NotFoundError, type Tenant } from "#server/tenancy/tenant";
import {
  changeTerminal,
  getTerminal,
  listAssignableMerchants,
  listAssignablePointsOfSale,
  listTerminalAssignments,
  listTerminalMerchants,
  listTerminals,
  terminalPlaces,
} from "#server/merchants/terminals.db";
import { getTransaction, listTransactions, transactionTotals } from "#server/payments/transactions.db";
import { requestTransfer } from "#server/approvals/transfer-requests.db";
import { requestTerminalAssignment } from "#server/approvals/terminal-requests";
import { approveMoneyRequest } from "#server/approvals/money-requests.db";
import { getTransfer, listMerchantTransfers } from "#server/ledger/transfers.db";
import { paymentPosting } from "#server/ledger/ledger";
import { processPayouts } from "#server/settlement/payouts";
import { runSettlement, settlementPeriodFor } from "#server/settlement/run";
import { recordingDb, type Recorded } from "../../scripts/bench/query-catalogue";
import { usePortal } from "../support/use-portal";
import { ABENA_KUMASI, ACCRA, AMA_ACCRA, AMA_KUMASI, businessDatabase, KOFI_KUMASI, KUMASI, ESI_KUMASI, META } from "../support/tenants";

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
    db.prepare(`INSERT INTO settlement_items (settlement_id, transaction_id) VALUES ('${ST}', ${TX})`),
    db.prepare(
      `INSERT INTO payout_attempts (business_id, settlement_id, attempt, outcome, error, at)
       VALUES ('${ACCRA}', '${ST}', 1, 'failed', 'Bank timeout', '${NOW}')`,
    ),
    db.prepare(
      `INSERT INTO daily_rollups (business_id, day, merchant_id, point_of_sale_id, terminal_id, channel, network, status, count, amount, fee)
       VALUES ('${ACCRA}', '2026-11-01', '${M}', '${POS}', '${T}', 'card', 'VISA', 'successful', 1, 10000, 175)`,
    ),
    db.prepare(
      `INSERT INTO daily_merchant_totals (business_id, day, merchant_id, status, count, amount, fee)
       VALUES ('${ACCRA}', '2026-11-01', '${M}', 'successful', 1, 10000, 175)`,
    ),
    ...postingStatements(AMA_ACCRA, paymentPosting({ merchantId: M, amount: 10_000, fee: 175 }), {
      postingId: "test_posting_1",
      memo: "payment TESTREF000001",
      postedAt: Date.parse(NOW),
      transactionId: TX,
    }),
  ]);
  requestId = await requestChange(AMA_ACCRA, META, { kind: "merchant", action: "update", targetId: M, after: { town: "Tema" } });
});

describe("reading another business's ids", () => {
  it.each([
    ["merchant", (t: typeof AMA_KUMASI) => getMerchant(t, M)],
    ["point of sale", (t: typeof AMA_KUMASI) => getPointOfSale(t, POS)],
    ["terminal", (t: typeof AMA_KUMASI) => getTerminal(t, T)],
    ["settlement account", (t: typeof AMA_KUMASI) => getSettlementAccount(t, SA)],
    ["transaction", (t: typeof AMA_KUMASI) => getTransaction(t, TX)],
    ["transfer", (t: typeof AMA_KUMASI) => getTransfer(t, TR)],
    ["settlement", (t: typeof AMA_KUMASI) => getSettlement(t, ST)],
    ["approval request", (t: typeof AMA_KUMASI) => getApprovalRequest(t, requestId)],
    ["employee (yaw.asante works only for Accra)", (t: typeof AMA_KUMASI) => getEmployee(t, "usr_yaw_asante")],
  ])("%s: not found from Kumasi, found from Accra", async (_name, read) => {
    expect(await read(AMA_ACCRA)).not.toBeNull();
    expect(await read(AMA_KUMASI)).toBeNull();
  });

  it("lists under another business's merchant are empty", async () => {
    expect((await listPointsOfSale(AMA_ACCRA, { merchantId: M })).rows).toHaveLength(1);
    expect((await listPointsOfSale(AMA_KUMASI, { merchantId: M })).rows).toHaveLength(0);
    expect(await listSettlementAccounts(AMA_ACCRA, M)).toHaveLength(1);
    expect(await listSettlementAccounts(AMA_KUMASI, M)).toHaveLength(0);
    expect((await listTerminals(AMA_ACCRA, { merchantId: M })).rows).toHaveLength(1);
    expect((await listTerminals(AMA_KUMASI, { merchantId: M })).rows).toHaveLength(0);
    expect((await listTransactions(AMA_ACCRA, { merchantId: M })).rows).toHaveLength(1);
    expect((await listTransactions(AMA_KUMASI, { merchantId: M })).rows).toHaveLength(0);
    expect((await transactionTotals(AMA_KUMASI, { merchantId: M })).count).toBe(0);
    expect((await listMerchantTransfers(AMA_ACCRA, { merchantId: M })).rows).toHaveLength(1);
    expect((await listMerchantTransfers(AMA_KUMASI, { merchantId: M })).rows).toHaveLength(0);
    expect((await listSettlements(AMA_KUMASI, { merchantId: M })).rows).toHaveLength(0);
    expect((await listSettlements(AMA_ACCRA, { merchantSearch: "Osu Night" })).rows.map((s) => s.id)).toEqual([ST]);
    expect((await listSettlements(AMA_KUMASI, { merchantSearch: "Osu Night" })).rows).toHaveLength(0);
    expect((await listSettlements(AMA_KUMASI, { merchantSearch: "MER-X0001" })).rows).toHaveLength(0);
    expect(await listSettlementTransactions(AMA_ACCRA, ST)).toEqual({ rows: [expect.objectContaining({ id: TX, reference: "TESTREF000001" })], total: 1 });
    expect(await listSettlementTransactions(AMA_KUMASI, ST)).toEqual({ rows: [], total: 0 });
    expect(await listPayoutAttempts(AMA_ACCRA, ST)).toHaveLength(1);
    expect(await listPayoutAttempts(AMA_KUMASI, ST)).toEqual([]);
    expect(await listTransactionEntries(AMA_ACCRA, TX)).toHaveLength(3);
    expect(await listTransactionEntries(AMA_KUMASI, TX)).toHaveLength(0);
    expect((await getMerchantBalances(AMA_ACCRA, M)).pending).toBe(9_825);
    expect(await getMerchantBalances(AMA_KUMASI, M)).toEqual({ pending: 0, available: 0, held: 0, total: 0 });
    expect(await reportBy(AMA_ACCRA, { dimension: "merchant", fromDay: "2026-11-01", toDay: "2026-11-01", merchantId: M })).toHaveLength(1);
    expect(await reportBy(AMA_KUMASI, { dimension: "merchant", fromDay: "2026-11-01", toDay: "2026-11-01", merchantId: M })).toHaveLength(0);
  });

  it("whole-business lists never include another business's rows", async () => {
    const ids = async <T>(page: Promise<{ rows: T[] }>, key: (row: T) => string | number) => (await page).rows.map(key);
    expect(await ids(listMerchants(AMA_KUMASI, { limit: 100 }), (m) => m.id)).not.toContain(M);
    expect(await ids(listMerchants(AMA_ACCRA, { limit: 100 }), (m) => m.id)).toContain(M);
    expect((await listMerchantChoices(AMA_KUMASI, { limit: 500 })).map((m) => m.id)).not.toContain(M);
    expect((await listMerchantChoices(AMA_ACCRA, { limit: 500 })).map((m) => m.id)).toContain(M);
    expect((await listMerchantChoices(AMA_ACCRA, { limit: 500, status: "active", exceptId: M })).map((m) => m.id)).not.toContain(M);
    expect(await ids(listTerminals(AMA_KUMASI, { limit: 100, serial: "ZZTEST" }), (t) => t.id)).toEqual([]);
    expect(await ids(listEmployees(AMA_KUMASI, { limit: 100 }), (e) => e.userId)).not.toContain("usr_yaw_asante");
    expect(await ids(listApprovalRequests(AMA_KUMASI, { limit: 100 }), (r) => r.id)).not.toContain(requestId);
    expect(await ids(listAudit(AMA_KUMASI, { limit: 100 }), (a) => a.entityId ?? "")).not.toContain(requestId);
    expect(await ids(listAudit(AMA_ACCRA, { limit: 100 }), (a) => a.entityId ?? "")).toContain(requestId);
  });
});

describe("naming another business's ids", () => {
  it.each([
    ["merchant", M, "Osu Night Market"],
    ["point_of_sale", POS, "Osu Branch"],
    ["terminal", T, "ZZTEST000001 · PAX A920"],
    ["settlement_account", SA, "GCB Bank 1021300456"],
    ["settlement_account_holder", SA, "Osu Night Market (GCB Bank 1021300456)"],
    // yaw.asante works only for Accra; users have no business of their own.
    ["person", "usr_yaw_asante", "Yaw Asante"],
  ] as const)("%s: named for Accra, nameless for Kumasi", async (kind: NameKind, id, name) => {
    expect(await namesOf(AMA_ACCRA, kind, [id])).toEqual(new Map([[id, name]]));
    expect(await namesOf(AMA_KUMASI, kind, [id])).toEqual(new Map());
  });

  it("a person of both businesses is named for each", async () => {
    const kumasi = await namesOf(AMA_KUMASI, "person", ["usr_ama_mensah"]);
    expect(kumasi.get("usr_ama_mensah")).toBe("Ama Mensah");
    expect(await namesOf(AMA_ACCRA, "person", ["usr_ama_mensah"])).toEqual(kumasi);
  });

  it("ids beyond the first statement's worth are named too, and only the business's", async () => {
    const many = [...Array.from({ length: 250 }, (_, i) => `mer_none_${i}`), M, "", null];
    expect(await namesOf(AMA_ACCRA, "merchant", many)).toEqual(new Map([[M, "Osu Night Market"]]));
    expect(await namesOf(AMA_KUMASI, "merchant", many)).toEqual(new Map());
  });

  it("a person who is not an employee of the business is not named in its audit trail or terminal history", async () => {
    const db = await portal().db();
    // esi.owusu works only for Kumasi; these rows of Accra name her as the actor.
    await db.batch([
      db.prepare(
        `INSERT INTO audit_log (business_id, actor_id, action, entity, entity_id, created_at)
         VALUES ('${ACCRA}', 'usr_esi_owusu', 'test.outsider', 'terminal', '${T}', '${NOW}')`,
      ),
      db.prepare(
        `INSERT INTO terminal_assignments (business_id, terminal_id, point_of_sale_id, assigned_by, assigned_at)
         VALUES ('${ACCRA}', '${T}', '${POS}', 'usr_esi_owusu', '${NOW}')`,
      ),
    ]);
    const entry = (await listAudit(AMA_ACCRA, { entity: "terminal", entityId: T })).rows.find((a) => a.action === "test.outsider");
    expect(entry).toMatchObject({ actorId: "usr_esi_owusu", actorName: null });
    expect((await listTerminalAssignments(AMA_ACCRA, T)).map((a) => a.assignedByName)).toEqual([null]);
    expect((await namesOf(AMA_KUMASI, "person", ["usr_esi_owusu"])).size).toBe(1);
  });

  it("a request's target of another business has no name", async () => {
    const request = { id: "req_x", kind: "merchant", action: "update" as const, targetId: M, after: {} };
    expect(await requestSubjects(AMA_ACCRA, [request])).toEqual({ req_x: "Osu Night Market" });
    expect(await requestSubjects(AMA_KUMASI, [request])).toEqual({});
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
    const before = (await listApprovalRequests(AMA_KUMASI, { limit: 100, withTotal: true })).total;
    const tenant = input.kind === "employee" ? AMA_KUMASI : ESI_KUMASI;
    await expect(requestChange(tenant, META, input as Parameters<typeof requestChange>[2])).rejects.toBeInstanceOf(NotFoundError);
    expect((await listApprovalRequests(AMA_KUMASI, { limit: 100, withTotal: true })).total).toBe(before);
  });

  it("cannot decide its requests, which stay pending and unapplied", async () => {
    await expect(approveRequest(KOFI_KUMASI, META, requestId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rejectRequest(KOFI_KUMASI, META, requestId, "not yours")).rejects.toBeInstanceOf(NotFoundError);
    expect((await getApprovalRequest(AMA_ACCRA, requestId))!.status).toBe("pending");
    expect((await getMerchant(AMA_ACCRA, M))!.town).toBe("Accra");
  });
});

describe("terminals of another business", () => {
  it("names, assignment history and assignable places are empty from Kumasi", async () => {
    expect((await terminalPlaces(AMA_ACCRA, [{ pointOfSaleId: POS }])).get(POS)?.merchantName).toBe("Osu Night Market");
    expect((await terminalPlaces(AMA_KUMASI, [{ pointOfSaleId: POS }])).size).toBe(0);
    expect(await listAssignablePointsOfSale(AMA_ACCRA, M)).toHaveLength(1);
    expect(await listAssignablePointsOfSale(AMA_KUMASI, M)).toHaveLength(0);
    expect((await listAssignableMerchants(AMA_KUMASI)).map((m) => m.id)).not.toContain(M);
    expect((await listTerminalMerchants(AMA_KUMASI)).map((m) => m.id)).not.toContain(M);
    expect(await listTerminalAssignments(AMA_KUMASI, T)).toEqual([]);
    expect(await pendingPointOfSaleRequest(AMA_KUMASI, POS)).toBeNull();
  });

  it.each(["block", "unassign"] as const)("%s another business's terminal: not found, nothing written", async (action) => {
    await expect(changeTerminal(KOFI_KUMASI, META, action, { terminalId: T, version: 1, reason: "Not ours" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await getTerminal(AMA_ACCRA, T))?.version).toBe(1);
  });

  it("assigning to another business's point of sale: not found, nothing written", async () => {
    await expect(requestTerminalAssignment(ESI_KUMASI, META, { terminalId: "trm_kff_00009", version: 1, pointOfSaleId: POS })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await getTerminal(ESI_KUMASI, "trm_kff_00009"))?.status).toBe("in_stock");
  });
});

describe("every statement binds the business", () => {
  /** Statements that touch no table but the batch's scratch guards (`SELECT changes() = 1`, `DELETE FROM batch_guards`). */
  const scratchOnly = (sql: string) => [...sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/gi)].every((m) => m[1] === "batch_guards" || m[1] === "json_each");
  const unbound = (log: Recorded[], businessId: string) => log.filter((r) => !scratchOnly(r.sql) && !r.binds.includes(businessId)).map((r) => r.sql);
  /** The tenant on its business's database, every statement it sends written down. */
  const recording = <T extends Tenant>(tenant: T, log: Recorded[]): T => ({ ...tenant, db: recordingDb(businessDatabase(tenant.businessId), log) });

  // Before the run below, which settles what is available.
  it("in asking for a transfer and approving it", async () => {
    const log: Recorded[] = [];
    const active = (await listMerchants(AMA_KUMASI, { status: "active", limit: 100 })).rows.map((m) => m.id);
    const balances = await listMerchantBalances(AMA_KUMASI, active);
    const [from, to] = [...active].sort((a, b) => balances[b]!.available - balances[a]!.available).map((id) => ({ id }));
    expect(balances[from!.id]!.available).toBeGreaterThan(0);
    const input = { fromMerchantId: from!.id, to: { kind: "merchant" as const, id: to!.id }, amount: 1, idempotencyKey: "bind-check-1" };
    const { id } = await requestTransfer(recording(ABENA_KUMASI, log), META, input);
    expect((await approveMoneyRequest(recording(KOFI_KUMASI, log), META, "transfer", id)).status).toBe("completed");
    expect(log.some((r) => r.sql.includes("INTO transfers"))).toBe(true);
    expect(unbound(log, KUMASI)).toEqual([]);
  });

  it("in inviting an employee and approving it, users and phones included", async () => {
    const log: Recorded[] = [];
    const after = { email: "kwesi.invited@example.com", name: "Kwesi Ɛdusei", gender: "male", phone: "233244555666", role: "Viewer" };
    const id = await requestChange(recording(AMA_KUMASI, log), META, { kind: "employee", action: "create", after });
    const approved = await approveRequest(recording(KOFI_KUMASI, log), META, id, { core: portal().core() });
    expect(approved.status).toBe("approved");
    expect((await getEmployee(AMA_KUMASI, approved.targetId))?.name).toBe("Kwesi Ɛdusei");
    expect(log.some((r) => r.sql.includes("INTO users"))).toBe(true);
    expect(unbound(log, KUMASI)).toEqual([]);
  });

  it("in a settlement run and its payouts, even where a row was reached through a scoped one", async () => {
    const log: Recorded[] = [];
    const recorded = { businessId: KUMASI, db: recordingDb(businessDatabase(KUMASI), log) };
    const run = await runSettlement(recorded, settlementPeriodFor(Date.now()), META, { ...KOFI_KUMASI, db: recorded.db });
    expect(run.settled.length).toBeGreaterThan(0);
    const paid = await processPayouts(recorded, { kind: "test", pay: async () => ({ ok: true }) });
    expect(paid.paid.length).toBeGreaterThan(0);
    expect(log.some((r) => r.sql.includes("settlement_items"))).toBe(true);
    expect(unbound(log, KUMASI)).toEqual([]);
  });
});

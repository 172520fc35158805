// The list and report queries the screens use, each run through the data layer
// exactly as a loader would. A recording wrapper captures the SQL and bindings
// each one sends, so the plan test and the benchmark judge the real statements.
import { countPendingRequests, listApprovalRequests, requestSubjects } from "#server/approvals/change-requests.db";
import { listAudit, listAuditChoices, listBusinessAudit } from "#server/audit/audit.db";
import { encodeCursor } from "#server/lists/page";
import { countEmployees, emailTakenInBusiness, listEmployees, listPendingInvites, pendingChangesFor } from "#server/team/employees.db";
import { getMerchantBalances, listTransactionEntries } from "#server/ledger/ledger.db";
import { listMerchantChoices, listMerchants } from "#server/merchants/merchants.db";
import { namesOf } from "#server/lists/names.db";
import { listPointsOfSale } from "#server/merchants/points-of-sale.db";
import { reportBy } from "#server/reports/reports.db";
import { listSettlementAccounts } from "#server/settlement/settlement-accounts.db";
import { listPayoutAttempts, listSettlements, listSettlementTransactions } from "#server/settlement/settlements.db";
import type { Tenant } from "#server/tenancy/tenant";
import {
  countSilentTerminals,
  listAssignableMerchants,
  listAssignablePointsOfSale,
  listTerminalAssignments,
  listTerminalMerchants,
  listTerminals,
  terminalPlaces,
} from "#server/merchants/terminals.db";
import { dashboardFigures } from "#server/reports/dashboard.db";
import { listTransactions, transactionTotals } from "#server/payments/transactions.db";
import { archiveMonthsForReferences, firstPaymentAt, listArchiveMonths, monthFigures, readMonthPage } from "#server/archive/archive.db";
import { listMerchantTransfers } from "#server/ledger/transfers.db";
import { keptReportBy, keptTransactionTotals } from "#server/reports/closed-days.db";
import { listPaymentsPage } from "#server/payments/api-payments.db";
import { searchEverything } from "#app/routes/search/search.server";
import { listMerchantsPage } from "#server/merchants/merchants.db";
import { listPointsOfSalePage } from "#server/merchants/points-of-sale.db";
import { listTerminalsPage } from "#server/merchants/terminals.db";
import { getDisputeFacts, listDisputeFactsPage } from "#server/disputes/processor-disputes.db";
import { listSettlementsPage } from "#server/settlement/settlements.db";
import { listRefundsOfPayments, listRefundsPage } from "#server/refunds/refunds.db";
import { listEventsPage } from "#server/webhooks/events.db";

export interface Recorded {
  sql: string;
  binds: unknown[];
}

/** A D1Database that records every statement bound through it. */
export function recordingDb(db: D1Database, log: Recorded[]): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          return new Proxy(statement, {
            get(inner, name) {
              if (name === "bind") {
                return (...binds: unknown[]) => {
                  log.push({ sql, binds });
                  return inner.bind(...binds);
                };
              }
              const value = Reflect.get(inner, name);
              return typeof value === "function" ? value.bind(inner) : value;
            },
          });
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Real ids and times from the database, so every query has rows to find. */
export interface Sample {
  merchantId: string;
  pointOfSaleId: string;
  terminalId: string;
  transactionId: number;
  reference: string;
  msisdn: string;
  last4: string;
  newest: number;
}

export async function sampleOf(tenant: Tenant): Promise<Sample> {
  const { db } = tenant;
  const row = await db
    .prepare(
      `SELECT t.merchant_id AS merchantId, t.point_of_sale_id AS pointOfSaleId, coalesce(t.terminal_id, '') AS terminalId, t.id AS transactionId, t.reference,
        (SELECT customer_msisdn FROM transactions WHERE business_id = ?1 AND customer_msisdn IS NOT NULL LIMIT 1) AS msisdn,
        (SELECT card_last4 FROM transactions WHERE business_id = ?1 AND card_last4 IS NOT NULL LIMIT 1) AS last4,
        (SELECT MAX(created_at) FROM transactions WHERE business_id = ?1) AS newest
       FROM transactions t WHERE t.business_id = ?1 AND t.terminal_id IS NOT NULL LIMIT 1`,
    )
    .bind(tenant.businessId)
    .first<Sample>();
  if (!row) throw new Error(`No transactions for ${tenant.businessId}: seed the database first.`);
  return row;
}

const DAY = 24 * 60 * 60 * 1000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type CatalogueEntry = [name: string, run: (tenant: Tenant, sample: Sample) => Promise<unknown>];

export const CATALOGUE: CatalogueEntry[] = [
  ["merchants: first page by name", (t) => listMerchants(t, { withTotal: true })],
  ["merchants: active, by name", (t) => listMerchants(t, { status: "active" })],
  ["merchants: by sector", (t) => listMerchants(t, { sector: "Retail" })],
  ["merchants: by region and town", (t) => listMerchants(t, { region: "Ashanti", town: "Kumasi" })],
  ["merchants: newest first", (t) => listMerchants(t, { sort: "newest" })],
  ["merchants: search", (t) => listMerchants(t, { search: "foods", withTotal: true })],
  ["merchants: choices for a filter", (t) => listMerchantChoices(t, { limit: 500 })],
  ["merchants: active choices but one, to transfer to", (t, s) => listMerchantChoices(t, { status: "active", exceptId: s.merchantId, limit: 500 })],
  ["names: merchants of a page", (t, s) => namesOf(t, "merchant", [s.merchantId, "mer_other"])],
  ["names: more merchants than one statement binds", (t, s) => namesOf(t, "merchant", [s.merchantId, ...Array.from({ length: 150 }, (_, i) => `mer_${i}`)])],
  ["names: points of sale", (t, s) => namesOf(t, "point_of_sale", [s.pointOfSaleId])],
  ["names: terminals", (t, s) => namesOf(t, "terminal", [s.terminalId])],
  ["names: people", (t) => namesOf(t, "person", ["usr_esi_owusu", "usr_abena_darko"])],
  ["names: settlement accounts", (t) => namesOf(t, "settlement_account", ["sa_sample"])],
  ["names: settlement accounts with their holders", (t) => namesOf(t, "settlement_account_holder", ["sa_sample"])],
  ["points of sale of a merchant", (t, s) => listPointsOfSale(t, { merchantId: s.merchantId })],
  ["terminals: fleet with total", (t) => listTerminals(t, { withTotal: true })],
  ["terminals: by status", (t) => listTerminals(t, { status: "active" })],
  ["terminals: of a merchant", (t, s) => listTerminals(t, { merchantId: s.merchantId })],
  ["terminals: serial search", (t) => listTerminals(t, { serial: "1" })],
  ["terminals: silent for 24 h", (t, s) => countSilentTerminals(t, s.newest - DAY)],
  ["terminals: the silent ones, with total", (t, s) => listTerminals(t, { silentSince: s.newest - DAY, withTotal: true })],
  ["terminals: by last seen, a later page", (t) => listTerminals(t, { sort: "last_seen", after: "WzE3OTUyMTg5ODcwMDAsInRybV9rZmZfMDAwMDEiXQ" })],
  ["terminals: places of a page", (t, s) => terminalPlaces(t, [{ pointOfSaleId: s.pointOfSaleId }])],
  ["terminals: merchants with terminals", (t) => listTerminalMerchants(t)],
  ["terminals: a terminal's assignments", (t, s) => listTerminalAssignments(t, s.terminalId)],
  ["terminals: merchants to assign to", (t) => listAssignableMerchants(t)],
  ["terminals: points of sale to assign to", (t, s) => listAssignablePointsOfSale(t, s.merchantId)],
  ["settlement accounts of a merchant", (t, s) => listSettlementAccounts(t, s.merchantId)],
  ["employees", (t) => listEmployees(t)],
  ["employees: count", (t) => countEmployees(t)],
  ["employees: pending changes on a page", (t) => pendingChangesFor(t, ["usr_esi_owusu", "usr_abena_darko"])],
  ["employees: invitations waiting", (t) => listPendingInvites(t)],
  ["employees: is an email taken", (t) => emailTakenInBusiness(t, "someone@example.com")],
  ["approvals: pending queue with total", (t) => listApprovalRequests(t, { status: "pending", withTotal: true })],
  ["approvals: pending counts per kind", (t) => countPendingRequests(t)],
  ["approvals: by maker", (t) => listApprovalRequests(t, { makerId: "usr_esi_owusu" })],
  ["approvals: every status with total", (t) => listApprovalRequests(t, { withTotal: true })],
  ["approvals: one kind, pending", (t) => listApprovalRequests(t, { kind: "settlement_account", status: "pending" })],
  ["approvals: names of a page's targets", async (t) => requestSubjects(t, (await listApprovalRequests(t, { status: "pending" })).rows)],
  ["audit: recent", (t) => listAudit(t)],
  ["audit: one merchant's history", (t, s) => listAudit(t, { entity: "merchant", entityId: s.merchantId })],
  // Settings → Audit: the business's database and the core one (here the same database, read twice).
  ["audit tab: first page", (t) => listBusinessAudit(t, t.db)],
  ["audit tab: a later page", (t) => listBusinessAudit(t, t.db, { after: encodeCursor(["2026-01-01T00:00:00.000Z", 1, 100]) })],
  [
    "audit tab: a person's action on some days",
    (t) => listBusinessAudit(t, t.db, { actorId: "usr_esi_owusu", action: "update", fromDay: "2026-01-01", toDay: "2026-01-31" }),
  ],
  ["audit tab: one kind of record", (t) => listBusinessAudit(t, t.db, { entity: "merchant" })],
  ["audit tab: filter choices", (t) => listAuditChoices(t, t.db)],
  ["dashboard: figures", (t, s) => dashboardFigures(t, s.newest)],
  ["transactions: first page", (t) => listTransactions(t)],
  // The cold archive (functions/archive): the screen's months and reference look-up, and the job's reads of a month.
  ["archive: archived months", (t) => listArchiveMonths(t)],
  ["archive: months that may hold a reference", (t) => archiveMonthsForReferences(t, [123_456_789, 987_654_321])],
  ["archive: first payment before the cutoff", (t, s) => firstPaymentAt(t, 0, s.newest - 400 * DAY)],
  ["archive: a page of a month", (t, s) => readMonthPage(t, { from: s.newest - 30 * DAY, to: s.newest }, 1e12, { createdAt: s.newest - 20 * DAY, id: 5 }, 500)],
  ["archive: a month's figures", (t, s) => monthFigures(t, { from: s.newest - 30 * DAY, to: s.newest }, 1e12)],
  ["transactions: last 7 days", (t, s) => listTransactions(t, { from: s.newest - 7 * DAY })],
  ["transactions: failed", (t) => listTransactions(t, { status: "failed" })],
  ["transactions: mobile money on MTN", (t) => listTransactions(t, { channel: "mobile_money", network: "MTN" })],
  ["transactions: of a merchant", (t, s) => listTransactions(t, { merchantId: s.merchantId })],
  ["transactions: of a point of sale", (t, s) => listTransactions(t, { pointOfSaleId: s.pointOfSaleId })],
  ["transactions: of a terminal", (t, s) => listTransactions(t, { terminalId: s.terminalId })],
  ["transactions: by reference", (t, s) => listTransactions(t, { reference: s.reference })],
  ["transactions: by phone", (t, s) => listTransactions(t, { customerMsisdn: s.msisdn })],
  ["transactions: by last four", (t, s) => listTransactions(t, { cardLast4: s.last4 })],
  [
    "transactions: a deep page",
    async (t) => {
      let page = await listTransactions(t, { limit: 100 });
      for (let i = 0; i < 5 && page.next; i += 1) page = await listTransactions(t, { limit: 100, after: page.next });
      return page;
    },
  ],
  ["transactions: by a word, 30 days", (t, s) => listTransactions(t, { merchantSearch: "fresh", from: s.newest - 30 * DAY })],
  ["transactions: totals by a word, 30 days", (t, s) => transactionTotals(t, { merchantSearch: "fresh", from: s.newest - 30 * DAY })],
  // The search box's other ways (app/routes/transactions/transaction-search.ts): each its own indexed read, none a range of days.
  [
    "transactions: by a reference's last characters, 30 days",
    (t, s) => listTransactions(t, { referenceTail: s.reference.slice(-6), from: s.newest - 30 * DAY }),
  ],
  [
    "transactions: totals by a reference's last characters, 30 days",
    (t, s) => transactionTotals(t, { referenceTail: s.reference.slice(-6), from: s.newest - 30 * DAY }),
  ],
  ["transactions: by an amount, 30 days", (t, s) => listTransactions(t, { amount: 2_500, from: s.newest - 30 * DAY })],
  ["transactions: totals by an amount, 30 days", (t, s) => transactionTotals(t, { amount: 2_500, from: s.newest - 30 * DAY })],
  [
    "transactions: by four digits (a card's last four, a reference's tail, an amount), 30 days",
    (t, s) => listTransactions(t, { cardLast4: s.last4, referenceTail: s.last4, amount: Number(s.last4) * 100, from: s.newest - 30 * DAY }),
  ],
  [
    "transactions: totals by a phone as typed (the phone, a reference's tail, an amount), 30 days",
    (t, s) => transactionTotals(t, { customerMsisdn: s.msisdn, referenceTail: s.msisdn, amount: Number(s.msisdn) * 100, from: s.newest - 30 * DAY }),
  ],
  ["transactions: totals, last 30 days", (t, s) => transactionTotals(t, { from: s.newest - 30 * DAY })],
  ["transactions: totals of a merchant, 30 days", (t, s) => transactionTotals(t, { merchantId: s.merchantId, from: s.newest - 30 * DAY })],
  ["ledger: a merchant's balances", (t, s) => getMerchantBalances(t, s.merchantId)],
  ["ledger: a transaction's postings", (t, s) => listTransactionEntries(t, s.transactionId)],
  ["transfers of a merchant", (t, s) => listMerchantTransfers(t, { merchantId: s.merchantId })],
  ["settlements", (t) => listSettlements(t)],
  ["settlements: by status", (t) => listSettlements(t, { status: "failed" })],
  ["settlements: by a typed merchant name or code", (t) => listSettlements(t, { merchantSearch: "foods" })],
  ["settlements: the payments one covers, and their count", (t) => listSettlementTransactions(t, "stl_sample")],
  ["settlements: payout attempts of one", (t) => listPayoutAttempts(t, "stl_sample")],
  ["report: a year by day", (t, s) => reportBy(t, { dimension: "day", fromDay: day(s.newest - 365 * DAY), toDay: day(s.newest) })],
  ["report: a year by merchant", (t, s) => reportBy(t, { dimension: "merchant", fromDay: day(s.newest - 365 * DAY), toDay: day(s.newest) })],
  ["report: a month by network", (t, s) => reportBy(t, { dimension: "network", fromDay: day(s.newest - 30 * DAY), toDay: day(s.newest) })],
  // Closed days kept (functions/reports/closed-days.db.ts): the kept entry and the open days, and a miss's build and write.
  [
    "report: a year by day, closed days kept",
    (t, s) => keptReportBy(t, { dimension: "day", fromDay: day(s.newest - 365 * DAY), toDay: day(s.newest) }, s.newest),
  ],
  [
    "transactions: totals from the rollups, 30 days, filtered",
    (t, s) =>
      keptTransactionTotals(
        t,
        {
          from: Date.parse(`${day(s.newest - 29 * DAY)}T00:00:00Z`),
          to: Date.parse(`${day(s.newest + DAY)}T00:00:00Z`),
          status: "successful",
          merchantId: s.merchantId,
        },
        s.newest,
      ),
  ],
  // The top bar's search (app/routes/search/search.server.ts): every read it fans out to, for each way text is read.
  ["top bar search: a reference's last characters", (t, s) => searchEverything(t, s.reference.slice(-6))],
  ["top bar search: four digits (a card's or a phone's last four, a reference's tail, a contact number)", (t, s) => searchEverything(t, s.last4)],
  ["top bar search: a phone as typed", (t) => searchEverything(t, "024 412 3456")],
  ["top bar search: a name", (t) => searchEverything(t, "Kwame Mensah")],
  ["top bar search: an email", (t) => searchEverything(t, "esi.owusu@")],
  ["top bar search: a merchant's code", (t) => searchEverything(t, "MRC 0001")],
  ["top bar search: an id (a serial's start, a dispute's, a settlement's)", (t) => searchEverything(t, "stl_kff_0000")],
];

/**
 * The Partner API's lists (functions/partner-api/lists.ts): a page as the API reads it, first and later, by each
 * filter and by all of them at once. Besides reading no large table whole, each reads its rows in the list's order
 * straight off an index (no sort of the filtered rows), so a page costs the same however many rows the filter has.
 */
export const API_LIST_CATALOGUE: CatalogueEntry[] = [
  ["api payments: first page", (t) => listPaymentsPage(t, {}, null, 25)],
  ["api payments: a later page", (t, s) => listPaymentsPage(t, {}, [s.newest, s.transactionId], 100)],
  ["api payments: by status, later", (t, s) => listPaymentsPage(t, { status: "failed" }, [s.newest, s.transactionId], 25)],
  ["api payments: of a merchant, later", (t, s) => listPaymentsPage(t, { merchantId: s.merchantId }, [s.newest, s.transactionId], 25)],
  ["api payments: by channel", (t) => listPaymentsPage(t, { channel: "mobile_money" }, null, 25)],
  ["api payments: a creation range", (t, s) => listPaymentsPage(t, { from: s.newest - 7 * DAY, to: s.newest }, null, 25)],
  [
    "api payments: every filter, later",
    (t, s) =>
      listPaymentsPage(t, { from: s.newest - 30 * DAY, to: s.newest, status: "successful", merchantId: s.merchantId, channel: "card" }, [s.newest, 9], 25),
  ],
  ["api merchants: first page", (t) => listMerchantsPage(t, null, 25)],
  ["api merchants: a later page", (t) => listMerchantsPage(t, ["2026-11-01T00:00:00.000Z", "mer_sample"], 25)],
  ["api points of sale: first page", (t) => listPointsOfSalePage(t, {}, null, 25)],
  ["api points of sale: of a merchant, later", (t, s) => listPointsOfSalePage(t, { merchantId: s.merchantId }, ["2026-11-01T00:00:00.000Z", "pos_sample"], 25)],
  ["api terminals: first page", (t) => listTerminalsPage(t, {}, null, 25)],
  ["api terminals: by status, later", (t) => listTerminalsPage(t, { status: "active" }, ["PAX-0001"], 25)],
  ["api terminals: of a merchant", (t, s) => listTerminalsPage(t, { merchantId: s.merchantId }, null, 25)],
  ["api terminals: of a point of sale, later", (t, s) => listTerminalsPage(t, { pointOfSaleId: s.pointOfSaleId }, ["PAX-0001"], 25)],
  ["api disputes: first page", (t) => listDisputeFactsPage(t, {}, null, 25)],
  ["api disputes: by status, later", (t, s) => listDisputeFactsPage(t, { status: "open" }, [s.newest, "dsp_sample"], 25)],
  ["api settlements: first page", (t) => listSettlementsPage(t, {}, null, 25)],
  ["api settlements: by status, later", (t) => listSettlementsPage(t, { status: "paid" }, ["2026-11-01T00:00:00.000Z", "stl_sample"], 25)],
  ["api settlements: a creation range", (t) => listSettlementsPage(t, { from: "2026-10-01T00:00:00.000Z", to: "2026-11-01T00:00:00.000Z" }, null, 25)],
  ["api refunds: first page", (t) => listRefundsPage(t, {}, null, 25)],
  ["api refunds: by status, later", (t) => listRefundsPage(t, { status: "sending" }, ["2026-11-01T00:00:00.000Z", "rfd_sample"], 25)],
  ["api events: first page", (t, s) => listEventsPage(t, s.newest, {}, null, 25)],
  ["api events: of a type, later", (t, s) => listEventsPage(t, s.newest, { type: "payment.succeeded" }, [s.newest - DAY, "evt_sample"], 25)],
  ["api events: a recorded range", (t, s) => listEventsPage(t, s.newest, { from: s.newest - 7 * DAY, to: s.newest }, null, 25)],
];

/** The API's reads of one payment's few rows (its disputes, its refunds) and of a page's refunds: indexed, sorted small. */
export const API_LOOKUP_CATALOGUE: CatalogueEntry[] = [
  ["api disputes: of a payment", (t, s) => listDisputeFactsPage(t, { paymentReference: s.reference }, null, 25)],
  ["api refunds: of a payment, later", (t, s) => listRefundsPage(t, { paymentReference: s.reference }, ["2026-11-01T00:00:00.000Z", "rfd_sample"], 25)],
  ["api payments: the refunds of a page", (t, s) => listRefundsOfPayments(t, [s.transactionId, s.transactionId + 1])],
  ["api disputes: one by id", (t) => getDisputeFacts(t, "dsp_00000000000000000000000000000000")],
];

CATALOGUE.push(...API_LIST_CATALOGUE, ...API_LOOKUP_CATALOGUE);

/** Tables big enough that reading all of them is a defect. */
export const LARGE_TABLES = [
  "transactions",
  "ledger_entries",
  // Under the ledger_entries view (migration 0012).
  "ledger_lines",
  "ledger_postings",
  "ledger_accounts",
  "daily_rollups",
  "daily_merchant_totals",
  "audit_log",
  // Every event a business makes, one a payment at least: the events feed keeps them all for 30 days (decision 044).
  "webhook_events",
  "approval_requests",
  "merchants",
  "terminals",
  "terminal_assignments",
  "points_of_sale",
  "settlements",
  "settlement_items",
  "settlement_accounts",
  "payout_attempts",
  "transfers",
  "disputes",
  "refunds",
  "users",
  "memberships",
];

export interface PlanVerdict {
  plan: string[];
  /** Plan lines that read a large table whole. */
  scans: string[];
}

/** alias -> table for every `FROM table alias` / `JOIN table alias` in a statement. */
function aliasesOf(sql: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const match of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    const [, table, alias] = match;
    if (alias && !/^(WHERE|JOIN|LEFT|INNER|ON|GROUP|ORDER|LIMIT)$/i.test(alias)) aliases.set(alias, table!);
  }
  return aliases;
}

/** SQLite's plan for a recorded statement, and any whole-table reads of a large table in it. */
export async function planOf(db: D1Database, recorded: Recorded): Promise<PlanVerdict> {
  const { results } = await db
    .prepare(`EXPLAIN QUERY PLAN ${recorded.sql}`)
    .bind(...recorded.binds)
    .all<{ detail: string }>();
  const plan = results.map((row) => row.detail);
  const aliases = aliasesOf(recorded.sql);
  const scans = plan.filter((detail) => {
    const name = /^SCAN (\w+)/.exec(detail)?.[1];
    return name !== undefined && LARGE_TABLES.includes(aliases.get(name) ?? name);
  });
  return { plan, scans };
}
